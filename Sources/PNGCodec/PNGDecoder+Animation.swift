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
        var next = plan.prepare(toShow: index) { frames[$0].properties }
        while next <= index {
            let decoder = try frameDecoder(next, frames[next], input)
            let p = frames[next].properties
            guard decoder.finished else {
                guard makeImage else { return nil }
                return image(plan.preview(preview(decoder), p, blend: p.blend), finalRows: 0, header)
            }
            plan.draw(decoder.raster, frame: next, p, blend: p.blend)
            pending = nil
            next += 1
        }
        return makeImage ? image(plan.pixels, finalRows: header.height, header) : nil
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
