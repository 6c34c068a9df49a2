/// A raw frame's decoding in progress, kept by ``FrameDriver`` so that asking for the frame
/// again as bytes arrive resumes it.
struct RawFrameJob<Job> {
    /// The animation frame being decoded.
    let index: Int
    var job: Job
    /// For a format that draws on the canvas, the frame-sized raster (RGBA8, straight alpha)
    /// the job draws into; empty for a job with a raster of its own.
    var pixels: [UInt8]
}

extension FrameDriver {
    /// Frame `index`'s own pixels, not composited (YYImageDecoder's `frameAtIndex:` with
    /// `decodeForDisplay: NO`): a raster the size of the frame's rectangle, clipped to the
    /// canvas, as far as its data goes. A still image is its image (``rendered(at:input:)``).
    ///
    /// The frame is decoded by a job of its own, never the one composing the canvas, so asking
    /// for a raw frame leaves the canvas and its plan as they were; a frame that draws straight
    /// on the canvas (GIF) draws on a transparent raster of its rectangle's size instead, which
    /// leaves the pixels of its transparent index transparent. An unfinished job is kept and
    /// resumed by the next request of the same frame, so asking after every append costs the
    /// bytes added. A pixel error is the frame's, shared with composition.
    package func rawFrame(at index: Int, input: InputBuffer) throws(DecodingError) -> RenderedImage {
        if let error { throw error }
        guard index >= 0, index < frameCount, let p = format.frameProperties(at: index) else {
            throw .invalidRequest("frame index out of range")
        }
        guard format.canvas != nil else {
            rawJob = nil
            return try rendered(at: index, input: input)
        }
        if let error = frameErrors[index] { throw error }
        guard p.width > 0, p.height > 0 else {
            return RenderedImage(raster: Raster(width: p.width, height: p.height, bytesPerPixel: 4, pixels: []),
                                 finalRowCount: p.height)
        }
        var raw = try rawJob(index, p, input)
        rawJob = nil
        let rect = FrameRect(x: 0, y: 0, width: p.width, height: p.height)
        let drawsOnCanvas = Format.drawsOnCanvas
        try raw.pixels.withUnsafeMutableBufferPointer { (pixels) throws(DecodingError) in
            let region = pixels.baseAddress.map {
                CanvasRegion(canvas: $0, canvasWidth: p.width, rect: rect, isNew: false)
            }
            try advance(&raw.job, frame: index, input, region: drawsOnCanvas ? region : nil)
        }
        let finished = format.isFinished(raw.job)
        if !finished { rawJob = raw }
        guard drawsOnCanvas else {
            let raster = format.raster(raw.job) ?? Raster(width: p.width, height: p.height, bytesPerPixel: 4)
            return RenderedImage(raster: raster, finalRowCount: finished ? p.height : format.finalRowCount(raw.job))
        }
        var pixels = raw.pixels
        if !finished { format.canvasTouchUp(raw.job, rect: rect, canvasWidth: p.width)?(&pixels) }
        return RenderedImage(raster: Raster(width: p.width, height: p.height, bytesPerPixel: 4, pixels: pixels),
                             finalRowCount: finished ? p.height : format.finalRowCount(raw.job))
    }

    /// The kept job of frame `index`, or a new one with, for a format that draws on the canvas,
    /// a transparent raster of the frame's size; both checked against what the limits leave.
    private func rawJob(_ index: Int, _ p: FrameProperties, _ input: InputBuffer) throws(DecodingError)
        -> RawFrameJob<Format.Job> {
        if let kept = rawJob, kept.index == index { return kept }
        rawJob = nil
        var limits = limitsLeft()
        var pixels: [UInt8] = []
        if Format.drawsOnCanvas {
            let bytes = try limits.checkedRasterBytes(width: p.width, height: p.height, bytesPerPixel: 4)
            limits.maxBytesHeld -= bytes
            pixels = [UInt8](repeating: 0, count: bytes)
        }
        guard let job = try format.makeJob(for: .frame(index), input: input, limits: limits) else {
            throw .invalidRequest("frame index out of range")
        }
        return RawFrameJob(index: index, job: job, pixels: pixels)
    }
}
