/// A resumable decoder for one image file: the contract every codec implements.
///
/// The caller owns an append-only ``InputBuffer`` and hands it to the decoder after each
/// append. The decoder parses the container as far as the bytes allow, remembering where it
/// stopped, so the whole download is parsed once (O(n)). Pixels are decoded when an image is
/// requested, resuming from where the last request stopped; with
/// ``DecodingOptions/decodesImmediately`` they are decoded in ``advance(_:)`` as well.
///
/// Errors in the container or in a still image's pixels are sticky: the decoder keeps them in
/// ``error`` and every later call throws them. An error confined to one animation frame's pixels
/// is thrown by ``rendered(at:input:)`` for that frame (and the frames composed on it) only, so that
/// whether a frame was decoded early, as bytes arrived, cannot change how the file ends.
/// A decoder is not thread-safe; ``ImageSource`` serialises access to it.
public protocol ImageDecoding: AnyObject {
    /// Parses (and, if asked, decodes) everything the input holds so far.
    func advance(_ input: InputBuffer) throws(DecodingError)
    /// The error that stopped the decoder for good, if any.
    var error: DecodingError? { get }
    /// Image-level facts, or nil while the header is still being read.
    var properties: ImageProperties? { get }
    /// Frames whose header has been read so far.
    var frameCount: Int { get }
    /// Facts about frame `index`, or nil past ``frameCount``.
    func frameProperties(at index: Int) -> FrameProperties?
    /// Whether all of frame `index`'s data has arrived.
    func isFrameComplete(at index: Int) -> Bool
    /// Whether the whole file has been parsed (the end marker was seen).
    var isComplete: Bool { get }
    /// The still image, or the composed canvas after frame `index`, partial while the frame's
    /// data is incomplete: straight-alpha RGBA with 8 or 16 bits a sample, in the decoders'
    /// working format. ``ImageSource`` converts it to the caller's layout (byte order,
    /// premultiplied alpha, 16 bits) once, after any shrinking and orientation.
    func rendered(at index: Int, input: InputBuffer) throws(DecodingError) -> RenderedImage
    /// A thumbnail (straight-alpha RGBA8) made without holding the full-size image, or nil when
    /// this decoder has no streaming path for the frame (the caller then shrinks
    /// ``rendered(at:input:)``).
    func streamingThumbnail(at index: Int, width: Int, height: Int,
                            input: InputBuffer) throws(DecodingError) -> RenderedImage?
    /// Frame `index`'s own pixels, not composited: a raster the size of the frame's rectangle
    /// (``frameProperties(at:)``), partial while its data is incomplete, in the same working
    /// format as ``rendered(at:input:)``; a still image is its image. A default is given for
    /// decoders that do not keep their frames apart (below).
    func rawFrame(at index: Int, input: InputBuffer) throws(DecodingError) -> RenderedImage
}

extension ImageDecoding {
    /// For a decoder that only composes: the rendered frame when it is the frame's own pixels
    /// — a frame whose rectangle is the whole canvas, drawn first or replacing the canvas
    /// (`source`) — and ``DecodingError/Kind/unsupported`` for any other frame.
    public func rawFrame(at index: Int, input: InputBuffer) throws(DecodingError) -> RenderedImage {
        guard let frame = frameProperties(at: index), let image = properties else {
            throw .invalidRequest("frame index out of range")
        }
        let coversCanvas = frame.x == 0 && frame.y == 0 && frame.width == image.width && frame.height == image.height
        guard coversCanvas && (index == 0 || frame.blend == .source) else {
            throw .unsupported("this decoder does not give uncomposited frames")
        }
        return try rendered(at: index, input: input)
    }
}

/// Pixels as a decoder renders them, before they are converted to the caller's layout: a
/// straight-alpha RGBA raster, and the rows from its top that are final.
public struct RenderedImage: Sendable, Equatable {
    /// The pixels: straight-alpha RGBA, 8 or 16 bits a sample.
    public var raster: Raster
    /// Rows from the top whose values are final; the rest are partial.
    public var finalRowCount: Int

    /// A rendering whose first `finalRowCount` rows are final.
    public init(raster: Raster, finalRowCount: Int) {
        self.raster = raster
        self.finalRowCount = finalRowCount
    }

    /// Whether every row is final.
    public var isComplete: Bool { finalRowCount == raster.height }

    /// The image in the layout `options` ask for.
    public func converted(_ options: DecodingOptions) -> DecodedImage {
        DecodedImage(raster: raster, finalRowCount: finalRowCount, options: options)
    }
}
