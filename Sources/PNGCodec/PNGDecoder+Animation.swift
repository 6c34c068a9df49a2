import CodecCore

/// Compositing of APNG frames (APNG 1.0 §"fcTL": dispose_op and blend_op), with random access
/// planned by ``AnimationCanvas``.
extension PNGDecoder {
    /// The canvas after frame `index` (an animation frame), decoding and drawing the frames
    /// from the best starting point. A frame whose data is incomplete is drawn as far as it goes.
    /// With `makeImage` false the work is done and kept but no image is made. The caller has
    /// checked the canvas against the limits.
    func composite(_ index: Int, _ input: InputBuffer, makeImage: Bool = true) throws(DecodingError) -> DecodedImage? {
        guard let header = container.header else { throw .invalidRequest("header not read yet") }
        var plan = canvas ?? AnimationCanvas(width: header.width, height: header.height)
        canvas = nil
        defer { canvas = plan }
        let frames = container.frames
        let composed = try plan.compose(through: index, frame: { frames[$0].properties }, makeImage: makeImage) {
            (j) throws(DecodingError) -> FrameState in
            let decoder = try frameDecoder(j, frames[j], input)
            guard decoder.finished else {
                return .partial(preview: { self.preview(decoder) }, blend: frames[j].properties.blend, finalRows: 0)
            }
            pending = nil
            return .finished(decoder.raster)
        }
        return composed.map { image($0.pixels, finalRows: $0.finalRows, header) }
    }

    private func image(_ pixels: [UInt8], finalRows: Int, _ header: PNGHeader) -> DecodedImage {
        DecodedImage(raster: Raster(width: header.width, height: header.height, bytesPerPixel: 4, pixels: pixels),
                     finalRowCount: finalRows, options: options)
    }

    /// The decoder for frame `j`, resumed if it is the one in progress, fed what has arrived.
    private func frameDecoder(_ j: Int, _ frame: PNGFrameData, _ input: InputBuffer) throws(DecodingError) -> PNGFrameDecoder {
        let decoder: PNGFrameDecoder
        if let pending, pending.index == j {
            decoder = pending.decoder
        } else {
            decoder = try makeFrameDecoder(width: frame.properties.width, height: frame.properties.height, sixteenBit: false)
            pending = (j, decoder)
        }
        try decoder.decode(segments: frame.segments, dataComplete: frame.complete, input: input)
        return decoder
    }
}
