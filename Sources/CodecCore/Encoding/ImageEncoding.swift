/// An encoder for one format: takes the frames of one file and writes it to a sink as it goes.
///
/// ``ImageDestination`` drives it: ``begin(_:to:)`` once with the canvas (size, frame count,
/// loop count, metadata), ``add(_:to:)`` once per frame (each of the canvas size, the full
/// composited frame, as decoders give them out), then ``finish(to:)``. An encoder must not
/// trap on any request: a frame of another size, a call out of order, or more frames than
/// announced are ``EncodingError``s. Options come from ``ImageCoder``'s `makeEncoder(options:)`,
/// already validated.
public protocol ImageEncoding {
    /// Whether the format holds more than one frame.
    var supportsAnimation: Bool { get }
    /// Whether ``EncodingOptions/quality`` changes the output (JPEG, lossy WebP): a maximum file
    /// size is then met by searching quality; lossless encoders are only asked for their best.
    var isLossy: Bool { get }

    /// Starts the file (a signature, a header) for `canvas`.
    mutating func begin(_ canvas: EncodingCanvas, to sink: inout some ByteSink) throws(EncodingError)
    /// Encodes one frame, writing what it can.
    mutating func add(_ frame: EncodingFrame, to sink: inout some ByteSink) throws(EncodingError)
    /// Writes what remains (a trailer).
    mutating func finish(to sink: inout some ByteSink) throws(EncodingError)
}

extension ImageEncoding {
    /// False: an encoder is lossless unless it says otherwise.
    public var isLossy: Bool { false }
}
