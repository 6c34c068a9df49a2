import CodecCore

/// Compositing of ANMF frames (RFC 9649 section 2.7.1.1) as libwebp's `WebPAnimDecoder` does
/// (src/demux/anim_decode.c; SPEC-NOTES.md, WebP animation), on the shared ``AnimationCanvas``:
///
/// - the canvas starts transparent black; ANIM's background colour is not used;
/// - dispose to background clears the frame's rectangle to transparent black;
/// - a key frame (libwebp's IsKeyFrame) is drawn without blending, whatever its blend bit;
/// - `over` uses libwebp's integer blend (``AnimationCompositor/OverRule/webPAnimDecoder``).
extension WebPDecoder {
    /// Frame `j`'s properties as the compositor must see them: `source` for a key frame.
    func compositingProperties(_ j: Int) -> FrameProperties {
        var p = container.frames[j].properties
        if isKeyFrame(j) { p.blend = .source }
        return p
    }

    /// libwebp's IsKeyFrame: the first frame; a frame covering the canvas that has no alpha
    /// or does not blend; or a frame after one disposed to background that covered the canvas
    /// or was itself a key frame. Kept per frame (frames never change once read).
    func isKeyFrame(_ j: Int) -> Bool {
        let frames = container.frames
        while keyFrames.count <= j {
            let k = keyFrames.count
            let f = frames[k]
            let canvasWidth = container.extended?.canvasWidth ?? 0, canvasHeight = container.extended?.canvasHeight ?? 0
            func full(_ p: FrameProperties) -> Bool { p.width == canvasWidth && p.height == canvasHeight }
            var key = k == 0
            if !key && (!f.bitstream.hasAlpha || f.properties.blend == .source) && full(f.properties) { key = true }
            if !key {
                let previous = frames[k - 1].properties
                key = previous.disposal == .background && (full(previous) || keyFrames[k - 1])
            }
            keyFrames.append(key)
        }
        return keyFrames[j]
    }

    /// The canvas after frame `index`, decoding the frames from the best starting point; nil
    /// when `makeImage` is false. A frame still arriving is drawn as far as it goes.
    func composite(_ index: Int, _ input: InputBuffer, makeImage: Bool = true) throws(DecodingError) -> DecodedImage? {
        guard let x = container.extended else { throw .invalidRequest("header not read yet") }
        var plan = canvas ?? AnimationCanvas(width: x.canvasWidth, height: x.canvasHeight, overRule: .webPAnimDecoder)
        canvas = nil
        defer { canvas = plan }
        _ = isKeyFrame(index)
        let frames = container.frames
        let composed = try plan.compose(through: index, frame: { compositingProperties($0) }, makeImage: makeImage) {
            (j) throws(DecodingError) -> FrameState in
            try decodeFrame(j, frames[j], input)
        }
        return composed.map {
            DecodedImage(raster: Raster(width: x.canvasWidth, height: x.canvasHeight, bytesPerPixel: 4, pixels: $0.pixels),
                         finalRowCount: min($0.finalRows, x.canvasHeight), options: options)
        }
    }

    /// Decodes frame `j` as far as its bytes go, resuming the frame in progress.
    private func decodeFrame(_ j: Int, _ frame: WebPFrameInfo, _ input: InputBuffer) throws(DecodingError) -> FrameState {
        if let error = frameErrors[j] { throw error }
        var job = pending.flatMap { $0.index == j ? $0.job : nil } ?? WebPImageJob(frame.bitstream, end: frame.bitstream.dataEnd)
        pending = nil
        do throws(DecodingError) {
            try job.advance(input, limits: options.limits)
        } catch where error.kind == .truncated && input.isFinal && frame.bitstream.dataEnd > input.count {
            // The file is cut inside this frame: what was decoded is shown, and the source says unexpectedEOF.
        } catch {
            frameErrors[j] = error
            throw error
        }
        if job.isFinished, let raster = job.raster() { return .finished(raster) }
        let p = compositingProperties(j)
        let finalRows = p.y + job.finalRowCount
        pending = (j, job)
        return .partial(preview: { [job] in job.raster() }, blend: p.blend, finalRows: finalRows)
    }
}
