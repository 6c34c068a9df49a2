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


    /// The screen size, loop count and metadata. `hasAlpha` says whether an image so far has
    /// a transparent index or leaves part of the screen uncovered (the canvas starts
    /// transparent); `isInterlaced` is the first image's flag; `bitDepth` is 8 (colour table
    /// samples).
    package func makeProperties() -> ImageProperties? {
        guard let screen = container.screen else { return nil }
        let frames = container.frames
        var p = ImageProperties(width: screen.width, height: screen.height, bitDepth: 8,
                                hasAlpha: frames.isEmpty || container.hasTransparency,
                                isInterlaced: frames.first?.interlaced ?? false)
        p.backgroundColor = container.backgroundColor
        container.metadata.resolve(into: &p)
        return p
    }

    package var frameCount: Int { container.frames.count }

    package func frameProperties(at index: Int) -> FrameProperties? { container.frames[existing: index]?.properties }

    package func isFrameComplete(at index: Int, still: Job?) -> Bool { container.frames[existing: index]?.complete == true }


    package var canvas: CanvasSpec? { container.screen.map { CanvasSpec(width: $0.width, height: $0.height) } }

    package static var drawsOnCanvas: Bool { true }

    /// A frame's decoder; or one that shrinks the first frame as its rows come out (drawn on a
    /// transparent canvas, the canvas is the frame's pixels where it lies and transparent
    /// elsewhere).
    package func makeJob(for purpose: FrameJobPurpose, input: InputBuffer, limits: Limits) throws(DecodingError) -> Job? {
        let frames = container.frames
        switch purpose {
        case .frame(let j) where frames.indices.contains(j):
            return GIFFrameDecoder(frame: frames[j], input: input)
        case .thumbnail(let width, let height):
            guard let screen = container.screen, let frame = frames.first else { return nil }
            _ = try limits.checkedRasterBytes(width: screen.width, height: screen.height, bytesPerPixel: 1)
            _ = try limits.checkedRasterBytes(width: width, height: height, bytesPerPixel: StreamingResampler.bytesPerOutputPixel)
            let resampler = StreamingResampler(inputWidth: screen.width, inputHeight: screen.height,
                                               outputWidth: width, outputHeight: height)
            return GIFFrameDecoder(frame: frame, input: input, thumbnail: resampler)
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

    package func isFinished(_ job: Job) -> Bool { job.finished }

    /// A thumbnail's rows outside the first image's rectangle never come out: it is final when
    /// the image is.
    package func finalRowCount(_ job: Job) -> Int {
        guard let shrunk = job.resampler else { return job.finalRowCount }
        return job.finished ? shrunk.outputHeight : shrunk.finishedOutputRows
    }

    package func raster(_ job: Job) -> Raster? { job.resampler?.raster }

    package func canvasTouchUp(_ job: Job, rect: FrameRect) -> ((inout [UInt8]) -> Void)? {
        guard job.interlaced, let width = container.screen?.width else { return nil }
        return { job.expandPreview(&$0, canvasWidth: width, rect: rect) }
    }

    package func heldBytes(_ job: Job) -> Int { job.heldBytes }
}
