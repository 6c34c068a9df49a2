import CodecCore

/// Decodes GIF87a and GIF89a (GIF89a specification, CompuServe 1990) on the shared
/// ``FrameDriver``, with the frames a browser shows.
package typealias GIFDecoder = FrameDriver<GIFFormat>

/// GIF's part of a decoder: the block parser (``GIFContainer``) and the decoder of one image's
/// LZW data (``GIFFrameDecoder``), which draws straight onto the canvas.
///
/// Each Image Descriptor is one frame: the full logical screen after that image is drawn
/// (images clipped to the screen, never enlarging it). The canvas starts transparent; every
/// image is drawn with `over` (GIF alpha is 0 or 255, so pixels of the transparent index leave
/// the canvas as it was); the Graphic Control Extension's disposal applies before the next
/// frame (§23; SPEC-NOTES.md, GIF). Every frame, even a file's only one, is an animation
/// frame: an error in its image data is thrown for it (and the frames composed on it) only.
package struct GIFFormat: FrameFormat {
    package typealias Job = GIFFrameDecoder

    let options: DecodingOptions
    package var container: GIFContainer

    /// The two signatures (§17 Header): "GIF87a" and "GIF89a".
    package static let signatures: [[UInt8]] = [Array("GIF87a".utf8), Array("GIF89a".utf8)]

    package init(options: DecodingOptions) {
        self.options = options
        container = GIFContainer(options: options)
    }

    package static var drawsOnCanvas: Bool { true }

    /// A frame's decoder; or one that shrinks the first frame as its rows come out (drawn on a
    /// transparent canvas, the canvas is the frame's pixels where it lies and transparent
    /// elsewhere).
    package func makeJob(for purpose: FrameJobPurpose, input: InputBuffer, limits: Limits) throws(DecodingError) -> Job? {
        let frames = container.frames
        switch purpose {
        case .frame(let j) where frames.indices.contains(j):
            return GIFFrameDecoder(frame: frames[j], input: input, maxThreads: options.maxThreads)
        case .thumbnail(let width, let height):
            guard let screen = container.screen, let frame = frames.first else { return nil }
            let resampler = try RowSink.resampler(from: screen.width, screen.height, to: width, height, limits: limits)
            return GIFFrameDecoder(frame: frame, input: input, thumbnail: resampler, maxThreads: options.maxThreads)
        default:
            return nil
        }
    }

    package func advance(_ job: inout Job, for purpose: FrameJobPurpose, input: InputBuffer,
                         region: CanvasRegion?) throws(DecodingError) {
        let index = purpose.frameIndex
        guard let frame = container.frames[existing: index] else { throw .invalidRequest("frame index out of range") }
        try job.decode(frame, input: input, into: region)
    }

    /// A thumbnail's rows outside the first image's rectangle never come out: its sink has them
    /// final when the image is done.
    package func finalRowCount(_ job: Job) -> Int { job.sink?.finalRowCount ?? job.finalRowCount }

    package func canvasTouchUp(_ job: Job, rect: FrameRect, canvasWidth: Int) -> ((inout [UInt8]) -> Void)? {
        guard job.interlaced else { return nil }
        return { job.expandPreview(&$0, canvasWidth: canvasWidth, rect: rect) }
    }
}
