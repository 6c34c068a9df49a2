/// The decoder every format shares: it drives a ``FrameFormat``'s container parser and frame
/// decoders as bytes arrive (``ImageDecoding``).
///
/// The driver owns what is the same for every format: the sticky error; the properties
/// snapshot, rebuilt only when the container read something new; the animation canvas and its
/// random-access plan (``AnimationCanvas``); the frame being decoded, resumed by the next
/// request; per-frame pixel errors; the thumbnail job kept per size, so that a thumbnail asked
/// for after each append resumes; ``DecodingOptions/decodesImmediately``; and
/// ``Limits/maxBytesHeld`` applied to the sum of all it holds (canvas, still image, frame and
/// thumbnail decoders), each new decoder allowed only what the others leave.
///
/// Errors in the container or a still's pixels are sticky. An animation frame's pixel error is
/// kept for that frame and thrown by the requests that compose it, so that whether a frame was
/// decoded early, as bytes arrived, cannot change how the file ends.
package final class FrameDriver<Format: FrameFormat>: ImageDecoding {
    let options: DecodingOptions
    /// The format's container and frame decoders.
    package private(set) var format: Format
    package private(set) var error: DecodingError?
    /// The composed animation canvas and its random-access plan.
    package private(set) var canvas: AnimationCanvas?
    /// The canvas's bytes, counted while the plan is out composing.
    private var canvasBytes = 0
    /// The still image's decoder.
    private var still: Format.Job?
    /// The animation frame being decoded, and its index.
    private var pending: (index: Int, job: Format.Job)?
    /// The thumbnail being decoded, kept so that the next request for that size resumes it.
    private var thumbnailJob: (width: Int, height: Int, job: Format.Job)?
    /// The raw frame being decoded, kept so that the next request for that frame resumes it
    /// (FrameDriver+RawFrame.swift).
    var rawJob: RawFrameJob<Format.Job>?
    /// Pixel errors of animation frames, thrown for those frames only.
    private(set) var frameErrors: [Int: DecodingError] = [:]
    private var cachedProperties: (revision: Int, value: ImageProperties)?

    package init(options: DecodingOptions) {
        self.options = options
        format = Format(options: options)
    }

    /// Parses what has arrived; with ``DecodingOptions/decodesImmediately`` decodes it too (an
    /// animation frame's pixel error waits for a request of that frame).
    package func advance(_ input: InputBuffer) throws(DecodingError) {
        try DecodingError.sticky(&error) { () throws(DecodingError) in try format.parse(input) }
        guard options.decodesImmediately, frameCount > 0 else { return }
        if let spec = format.canvas {
            try checkCanvas(spec)
            _ = try? composite(AnimationCanvas.immediateTarget(canvas, frameCount: frameCount), spec, input,
                               makeImage: false)
        } else {
            _ = try stillJob(input)
        }
    }

    package var properties: ImageProperties? {
        if let cached = cachedProperties, cached.revision == format.revision { return cached.value }
        guard let p = format.makeProperties() else { return nil }
        cachedProperties = (format.revision, p)
        return p
    }

    package var frameCount: Int { format.frameCount }

    package func frameProperties(at index: Int) -> FrameProperties? { format.frameProperties(at: index) }

    package func isFrameComplete(at index: Int) -> Bool { format.isFrameComplete(at: index, still: still) }

    package var isComplete: Bool { format.isComplete }

    /// The still image, or the canvas after animation frame `index`, as far as its data goes.
    package func rendered(at index: Int, input: InputBuffer) throws(DecodingError) -> RenderedImage {
        if let error { throw error }
        guard index >= 0, index < frameCount else { throw .invalidRequest("frame index out of range") }
        guard let spec = format.canvas else {
            let job = try stillJob(input)
            return try image(job.flatMap { format.raster($0) }, finalRows: job.map { format.finalRowCount($0) } ?? 0,
                             orBlank: format.frameProperties(at: 0))
        }
        try checkCanvas(spec)
        guard let image = try composite(index, spec, input) else { throw .invalidRequest("frame index out of range") }
        return image
    }

    /// Frame 0 shrunk as its rows are decoded, resuming the job of the same size; nil when the
    /// format has no such path or frame 0 is already decoded in full (the caller then shrinks
    /// ``rendered(at:input:)``). A still's errors are sticky; an animation's first frame's are its own.
    package func streamingThumbnail(at index: Int, width: Int, height: Int,
                                   input: InputBuffer) throws(DecodingError) -> RenderedImage? {
        if let error { throw error }
        let frameZeroDone = still.map { format.isFinished($0) } == true || (canvas?.composedIndex ?? -1) >= 0
        guard index == 0, frameCount > 0, !frameZeroDone, format.shrinksWhileDecoding else { return nil }
        let purpose = FrameJobPurpose.thumbnail(width: width, height: height)
        let shrink = { () throws(DecodingError) -> RenderedImage? in
            var job: Format.Job
            if let kept = self.thumbnailJob, kept.width == width, kept.height == height {
                job = kept.job
            } else {
                self.thumbnailJob = nil
                _ = try self.options.limits.checkedRasterBytes(width: width, height: height,
                                                               bytesPerPixel: StreamingResampler.bytesPerOutputPixel)
                guard let made = try self.format.makeJob(for: purpose, input: input, limits: self.limitsLeft()) else {
                    return RenderedImage(raster: Raster(width: width, height: height, bytesPerPixel: 4), finalRowCount: 0)
                }
                job = made
            }
            self.thumbnailJob = nil
            defer { self.thumbnailJob = (width, height, job) }
            try self.format.advance(&job, for: purpose, input: input, region: nil)
            return try self.image(self.format.raster(job), finalRows: self.format.finalRowCount(job),
                                  orBlank: FrameProperties(x: 0, y: 0, width: width, height: height,
                                                           unclampedDuration: 0, disposal: .none, blend: .source))
        }
        guard format.canvas == nil else { return try shrink() }
        return try DecodingError.sticky(&error, shrink)
    }

    /// The still image's job, advanced as far as the input goes; nil before any pixel data.
    private func stillJob(_ input: InputBuffer) throws(DecodingError) -> Format.Job? {
        try DecodingError.sticky(&error) { () throws(DecodingError) -> Format.Job? in
            var job: Format.Job
            if let kept = still {
                job = kept
            } else {
                guard let made = try format.makeJob(for: .still, input: input, limits: limitsLeft()) else { return nil }
                job = made
            }
            still = nil
            defer { still = job }
            try format.advance(&job, for: .still, input: input, region: nil)
            return job
        }
    }

    /// The animation canvas must fit the limits; this concerns every frame, so it is sticky.
    private func checkCanvas(_ spec: CanvasSpec) throws(DecodingError) {
        try DecodingError.sticky(&error) { () throws(DecodingError) in
            _ = try options.limits.checkedRasterBytes(width: spec.width, height: spec.height, bytesPerPixel: 4)
        }
    }

    /// ``Limits`` whose ``Limits/maxBytesHeld`` is what the buffers held now leave.
    func limitsLeft() -> Limits {
        var held = canvas?.heldBytes ?? canvasBytes
        if let still { held += format.heldBytes(still) }
        if let pending { held += format.heldBytes(pending.job) }
        if let thumbnailJob { held += format.heldBytes(thumbnailJob.job) }
        if let rawJob { held += format.heldBytes(rawJob.job) + rawJob.pixels.count }
        var limits = options.limits
        limits.maxBytesHeld = max(0, limits.maxBytesHeld - held)
        return limits
    }

    /// An image of `raster`, or of a transparent raster the size of `blank` when there is none yet.
    private func image(_ raster: Raster?, finalRows: Int, orBlank blank: FrameProperties?) throws(DecodingError)
        -> RenderedImage {
        if let raster { return RenderedImage(raster: raster, finalRowCount: finalRows) }
        guard let blank else { throw .invalidRequest("frame index out of range") }
        return RenderedImage(raster: Raster(width: blank.width, height: blank.height, bytesPerPixel: 4), finalRowCount: 0)
    }
}

extension FrameDriver {
    /// The canvas after frame `index`, decoding and drawing the frames from the best starting
    /// point; nil when `makeImage` is false (the work is done and kept). A frame still arriving
    /// is drawn as far as it goes.
    func composite(_ index: Int, _ spec: CanvasSpec, _ input: InputBuffer,
                   makeImage: Bool = true) throws(DecodingError) -> RenderedImage? {
        var plan = canvas ?? AnimationCanvas(width: spec.width, height: spec.height, overRule: spec.overRule,
                                                  maxThreads: options.maxThreads)
        canvas = nil
        canvasBytes = plan.heldBytes
        defer { canvas = plan; canvasBytes = 0 }
        _ = format.compositingProperties(at: index)
        let frame = { (j: Int) -> FrameProperties in self.format.compositingProperties(at: j) }
        let composed: (pixels: [UInt8], finalRows: Int)?
        if Format.drawsOnCanvas {
            composed = try plan.compose(through: index, frame: frame, makeImage: makeImage) {
                (j, region) throws(DecodingError) -> DrawnFrameState in
                let job = try advanceFrame(j, input, region: region)
                if format.isFinished(job) { return .finished }
                return .partial(finalRows: region.rect.y + format.finalRowCount(job),
                                preview: format.canvasTouchUp(job, rect: region.rect, canvasWidth: spec.width))
            }
        } else {
            composed = try plan.compose(through: index, frame: frame, makeImage: makeImage) {
                (j) throws(DecodingError) -> FrameState in
                let job = try advanceFrame(j, input, region: nil)
                if format.isFinished(job), let raster = format.raster(job) { return .finished(raster) }
                let p = frame(j)
                return .partial(preview: { self.format.raster(job) }, blend: p.blend,
                                finalRows: p.y + format.finalRowCount(job))
            }
        }
        return composed.map {
            RenderedImage(raster: Raster(width: spec.width, height: spec.height, bytesPerPixel: 4, pixels: $0.pixels),
                          finalRowCount: min($0.finalRows, spec.height))
        }
    }

    /// Decodes frame `j` as far as its bytes go, resuming the frame in progress unless it must
    /// start over on a new canvas; an unfinished frame stays pending.
    private func advanceFrame(_ j: Int, _ input: InputBuffer, region: CanvasRegion?) throws(DecodingError) -> Format.Job {
        if let error = frameErrors[j] { throw error }
        var job: Format.Job
        if let pending, pending.index == j, region?.isNew != true {
            job = pending.job
            self.pending = nil
        } else {
            self.pending = nil
            guard let made = try format.makeJob(for: .frame(j), input: input, limits: limitsLeft()) else {
                throw .invalidRequest("frame index out of range")
            }
            job = made
        }
        try advance(&job, frame: j, input, region: region)
        if !format.isFinished(job) { pending = (j, job) }
        return job
    }

    /// Decodes animation frame `j`'s `job` as far as its bytes go. A pixel error is the frame's:
    /// kept in ``frameErrors``, which every later request of the frame throws before decoding.
    func advance(_ job: inout Format.Job, frame j: Int, _ input: InputBuffer, region: CanvasRegion?) throws(DecodingError) {
        do throws(DecodingError) {
            try format.advance(&job, for: .frame(j), input: input, region: region)
        } catch {
            frameErrors[j] = error
            throw error
        }
    }
}
