/// What a frame decoder is made for.
package enum FrameJobPurpose: Sendable, Equatable {
    /// The image of a file that is not animated: frame 0, shown alone.
    case still
    /// Animation frame `index`, drawn on the canvas.
    case frame(Int)
    /// Frame 0 shrunk to `width × height` as its rows come out, the full-size image never held.
    case thumbnail(width: Int, height: Int)

    /// The frame the job decodes: `index` for an animation frame, else frame 0.
    package var frameIndex: Int {
        if case .frame(let index) = self { return index }
        return 0
    }
}

/// The canvas an animation's frames are composed on.
package struct CanvasSpec: Sendable, Equatable {
    package var width: Int
    package var height: Int
    package var overRule: AnimationCompositor.OverRule

    package init(width: Int, height: Int, overRule: AnimationCompositor.OverRule = .porterDuff) {
        self.width = width
        self.height = height
        self.overRule = overRule
    }
}

/// The part of a decoder that is a format's own, after Wuffs' split of image config, frame
/// config and frame: a container parser that finds the image's facts and its frames' bytes, and
/// frame decoders (jobs) that turn one frame's bytes into pixels as they arrive.
/// ``FrameDriver`` does the rest — errors, the properties snapshot, composition and random
/// access, pending frames, thumbnails, ``DecodingOptions/decodesImmediately`` and the limits on
/// what is held.
package protocol FrameFormat {
    /// A frame decoder, resumed as bytes arrive. Value types are kept unshared while they run.
    associatedtype Job
    associatedtype Container: FrameContainer

    init(options: DecodingOptions)

    /// The container parser.
    var container: Container { get set }
    /// Parses the container as far as `input` goes. A thrown error stops the decoder for good.
    mutating func parse(_ input: InputBuffer) throws(DecodingError)
    /// Changes whenever ``makeProperties()`` may give something new.
    var revision: Int { get }
    /// Image-level facts, or nil while the header is still being read.
    func makeProperties() -> ImageProperties?
    /// Frames whose header has been read so far.
    var frameCount: Int { get }
    /// Facts about frame `index` (below ``frameCount``) as the caller sees them.
    func frameProperties(at index: Int) -> FrameProperties?
    /// Whether all of frame `index`'s data has arrived (`still` is the still image's job, if any).
    func isFrameComplete(at index: Int, still: Job?) -> Bool
    /// Whether the whole file has been parsed.
    var isComplete: Bool { get }
    /// The canvas the frames are composed on, or nil when frame 0 is a still shown alone.
    var canvas: CanvasSpec? { get }
    /// Frame `index` as the compositor draws it.
    mutating func compositingProperties(at index: Int) -> FrameProperties
    /// Whether animation frames are decoded straight into the canvas (``CanvasRegion``) rather
    /// than into a raster of their own.
    static var drawsOnCanvas: Bool { get }

    /// Whether frame 0 can be shrunk as its rows come out (a ``FrameJobPurpose/thumbnail`` job).
    var shrinksWhileDecoding: Bool { get }
    /// A decoder for `purpose`, or nil when there is none yet (no pixel data has arrived).
    /// `limits.maxBytesHeld` is what the decoder may still allocate, the driver's other buffers
    /// counted.
    func makeJob(for purpose: FrameJobPurpose, input: InputBuffer, limits: Limits) throws(DecodingError) -> Job?
    /// Decodes as far as `input` goes; a job that draws on the canvas draws into `region`.
    func advance(_ job: inout Job, for purpose: FrameJobPurpose, input: InputBuffer,
                 region: CanvasRegion?) throws(DecodingError)
    /// Whether every pixel of the job's output is final.
    func isFinished(_ job: Job) -> Bool
    /// Rows of the job's output, from the top, that are final.
    func finalRowCount(_ job: Job) -> Int
    /// The job's output so far (a preview while unfinished), RGBA8; nil before any pixel.
    func raster(_ job: Job) -> Raster?
    /// For a job that draws on the canvas: a touch-up for the copy of the canvas shown while the
    /// frame is unfinished (an interlaced frame's coarse preview); the frame lies at `rect` on a
    /// canvas of rows of `canvasWidth` pixels.
    func canvasTouchUp(_ job: Job, rect: FrameRect, canvasWidth: Int) -> ((inout [UInt8]) -> Void)?
    /// Bytes the job holds in buffers that grow with the image.
    func heldBytes(_ job: Job) -> Int
}

/// A format's container parser, as the driver drives it: what it has read so far, image and
/// frames, which ``FrameFormat`` gives out by default.
package protocol FrameContainer {
    /// Parses as far as `input` goes, remembering where it stopped; a thrown error is for good.
    mutating func parse(_ input: InputBuffer) throws(DecodingError)
    /// Changes whenever the container has read something new.
    var revision: Int { get }
    /// Whether the whole file has been parsed (the end marker was seen).
    var ended: Bool { get }
    /// Image-level facts, or nil while the header is still being read.
    func makeProperties() -> ImageProperties?
    /// Frames whose header has been read so far.
    var frameCount: Int { get }
    /// Facts about frame `index` (below ``frameCount``) as the caller sees them.
    func frameProperties(at index: Int) -> FrameProperties?
    /// Whether all of frame `index`'s data has arrived.
    func isFrameComplete(at index: Int) -> Bool
    /// The canvas the frames are composed on, or nil when frame 0 is a still shown alone.
    var canvas: CanvasSpec? { get }
}

/// A frame decoder whose final pixels go to a ``RowSink`` (all but those that draw straight on
/// an animation canvas), as ``FrameFormat`` drives it by default.
package protocol FrameJob {
    /// Whether every pixel of the output is final.
    var isFinished: Bool { get }
    /// Where the rows go; nil before the decoder has started.
    var rowSink: RowSink? { get }
    /// Bytes held in buffers that grow with the image.
    var heldBytes: Int { get }
}

extension FrameFormat {
    package mutating func parse(_ input: InputBuffer) throws(DecodingError) { try container.parse(input) }

    package var revision: Int { container.revision }

    package var isComplete: Bool { container.ended }

    package func makeProperties() -> ImageProperties? { container.makeProperties() }

    package var frameCount: Int { container.frameCount }

    package func frameProperties(at index: Int) -> FrameProperties? { container.frameProperties(at: index) }

    package func isFrameComplete(at index: Int, still: Job?) -> Bool { container.isFrameComplete(at: index) }

    package var canvas: CanvasSpec? { container.canvas }

    package mutating func compositingProperties(at index: Int) -> FrameProperties {
        frameProperties(at: index) ?? FrameProperties(x: 0, y: 0, width: 0, height: 0, unclampedDuration: 0,
                                                      disposal: .none, blend: .source)
    }

    package static var drawsOnCanvas: Bool { false }

    package var shrinksWhileDecoding: Bool { true }

    package func canvasTouchUp(_ job: Job, rect: FrameRect, canvasWidth: Int) -> ((inout [UInt8]) -> Void)? { nil }
}

extension FrameFormat where Job: FrameJob {
    package func isFinished(_ job: Job) -> Bool { job.isFinished }

    package func finalRowCount(_ job: Job) -> Int { job.rowSink?.finalRowCount ?? 0 }

    package func raster(_ job: Job) -> Raster? { job.rowSink?.raster }

    package func heldBytes(_ job: Job) -> Int { job.heldBytes }
}

extension Array {
    /// The element at `index`, or nil past either end (frame lists looked up by a caller's index).
    package subscript(existing index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
