import CodecCore

/// Compositing of APNG frames (APNG 1.0 §"fcTL": dispose_op and blend_op), with random access
/// from the nearest frame that needs no predecessor.
extension PNGDecoder {
    /// The canvas after frame `index` (an animation frame), decoding and drawing the frames
    /// from the best starting point. A frame whose data is incomplete is drawn as far as it goes.
    /// With `makeImage` false the work is done and kept but no image is made. The caller has
    /// checked the canvas against the limits.
    func composite(_ index: Int, _ input: InputBuffer, makeImage: Bool = true) throws(DecodingError) -> DecodedImage? {
        let frames = container.frames
        guard let header = container.header else { throw .invalidRequest("header not read yet") }
        let start = startingFrame(for: index, frames, header)
        if start != composedIndex + 1 || compositor == nil {
            compositor = AnimationCompositor(width: header.width, height: header.height)
            composedIndex = start - 1
            firstComposed = start
        }
        while composedIndex < index, var canvas = compositor {
            let j = composedIndex + 1
            let decoder = try frameDecoder(j, frames[j], input)
            let p = frames[j].properties
            let rect = FrameRect(x: p.x, y: p.y, width: p.width, height: p.height)
            guard decoder.finished else {
                guard makeImage else { return nil }
                canvas.draw(preview(decoder), in: rect, disposal: p.disposal, blend: p.blend)
                return image(canvas, finalRows: 0, header)
            }
            compositor = nil
            canvas.draw(decoder.raster, in: rect, disposal: p.disposal, blend: p.blend)
            compositor = canvas
            pending = nil
            composedIndex = j
        }
        guard makeImage, let canvas = compositor else { return nil }
        return image(canvas, finalRows: header.height, header)
    }

    private func image(_ canvas: AnimationCompositor, finalRows: Int, _ header: PNGHeader) -> DecodedImage {
        DecodedImage(raster: Raster(width: header.width, height: header.height, bytesPerPixel: 4, pixels: canvas.canvas),
                     finalRowCount: finalRows, options: options)
    }

    /// Where to start composing frame `index`: right after the last frame composed when that
    /// frame lies between `index` and the latest frame before it that needs no predecessor,
    /// otherwise that frame.
    private func startingFrame(for index: Int, _ frames: [PNGFrameData], _ header: PNGHeader) -> Int {
        var start = index
        while start > 0,
              !AnimationCompositor.isIndependent(start, frame: frames[start].properties,
                                                 previous: frames[start - 1].properties,
                                                 canvasWidth: header.width, canvasHeight: header.height) {
            start -= 1
        }
        let canvasIsComposed = compositor != nil && composedIndex >= firstComposed
        if canvasIsComposed && composedIndex >= start - 1 && composedIndex <= index { return composedIndex + 1 }
        return start
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
