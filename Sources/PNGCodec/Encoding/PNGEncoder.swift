import CodecCore

/// The PNG and APNG encoder (PNG 3rd edition, APNG 1.0).
///
/// A single frame is written as it is added: one pass over its pixels chooses the smallest
/// lossless layout (``PNGReduction``), then rows are packed, filtered and compressed as they
/// come, the compressed blocks going out as IDAT chunks. Several frames make an APNG: the
/// layout must hold every frame, so frames are kept until ``finish(to:)`` and written then,
/// each cropped to what changed (``APNGFramePlanner``); the first frame is the default image.
package struct PNGEncoder: ImageEncoding {
    package let options: EncodingOptions
    private var canvas: EncodingCanvas?
    private var framesAdded = 0
    private var heldFrames: [EncodingFrame] = []
    private var finished = false

    /// The widest image written: the row buffers (the row, the row above, one output per filter
    /// type) then stay under half a GiB even at 16 bits per sample.
    static let maxWidth = 1 << 23

    package init(options: EncodingOptions = .init()) {
        self.options = options
    }

    package var supportsAnimation: Bool { true }

    package mutating func begin(_ canvas: EncodingCanvas, to sink: inout some ByteSink) throws(EncodingError) {
        guard self.canvas == nil, !finished else { throw .invalidRequest("begin was already called") }
        guard canvas.width > 0, canvas.height > 0 else { throw .invalidRequest("image width and height must be positive") }
        guard canvas.width <= PNGChunkWriter.maxLength, canvas.height <= PNGChunkWriter.maxLength else {
            throw .limitExceeded("PNG width and height are at most 2^31-1")
        }
        guard canvas.width <= Self.maxWidth else { throw .limitExceeded("PNG rows above 2^23 pixels are not written") }
        guard canvas.frameCount >= 1 else { throw .invalidRequest("no frames to encode") }
        guard canvas.frameCount <= Int(UInt32.max / 2) else { throw .limitExceeded("too many APNG frames") }
        guard (0...Int(UInt32.max)).contains(canvas.loopCount) else { throw .invalidRequest("loop count out of range") }
        self.canvas = canvas
        try sink.write(PNGContainer.signature)
    }

    package mutating func add(_ frame: EncodingFrame, to sink: inout some ByteSink) throws(EncodingError) {
        guard let canvas, !finished else { throw .invalidRequest("a frame was added outside begin and finish") }
        guard framesAdded < canvas.frameCount else { throw .invalidRequest("more frames than announced") }
        guard frame.width == canvas.width, frame.height == canvas.height else {
            throw .invalidRequest("frames of an animation must have one size")
        }
        framesAdded += 1
        if canvas.frameCount == 1 {
            try PNGStillWriter(options: options, canvas: canvas).write(frame, to: &sink)
        } else {
            heldFrames.append(frame)
        }
    }

    package mutating func finish(to sink: inout some ByteSink) throws(EncodingError) {
        guard let canvas, !finished else { throw .invalidRequest("finish without begin") }
        guard framesAdded == canvas.frameCount else { throw .invalidRequest("fewer frames than announced") }
        finished = true
        if canvas.frameCount > 1 {
            let frames = heldFrames
            heldFrames = []
            try APNGWriter(options: options, canvas: canvas).write(frames, to: &sink)
        }
        try PNGChunkWriter.write(.IEND, [], to: &sink)
    }
}
