import CodecCore

/// Compositing of the images onto the logical screen (GIF89a §23 "Disposal Method"), with
/// random access from the nearest frame that needs no predecessor.
///
/// Every image is drawn with `over`: GIF alpha is 0 or 255, so Porter–Duff over is "replace
/// where opaque", and pixels of the transparent index, or not decoded yet, leave the canvas as
/// it was. A finished image without a transparent index is opaque throughout and is copied.
extension GIFDecoder {
    /// The canvas after frame `index`, decoding and drawing the frames from the best starting
    /// point; nil when `makeImage` is false or the frame is still incomplete without an image
    /// asked for. A frame whose data is incomplete is drawn as far as it goes.
    func composite(_ index: Int, _ input: InputBuffer, makeImage: Bool = true) throws(DecodingError) -> DecodedImage? {
        guard let screen = container.screen else { throw .invalidRequest("header not read yet") }
        var plan = canvas ?? AnimationCanvas(width: screen.width, height: screen.height)
        canvas = nil
        defer { canvas = plan }
        let frames = container.frames
        let composed = try plan.compose(through: index, frame: { frames[$0].properties }, makeImage: makeImage) {
            (j) throws(DecodingError) -> FrameState in
            let decoder = try frameDecoder(j, frames[j], input)
            guard decoder.finished else {
                // Pixels not decoded yet are transparent in the preview, so `over` keeps the canvas there.
                return .partial(preview: { decoder.hasPixels ? decoder.preview() : nil }, blend: .over,
                                finalRows: frames[j].properties.y + decoder.finalRowCount)
            }
            // A finished image has every visible pixel; without a transparent index all are opaque,
            // so `source` (a copy) draws the same as `over`.
            pending = nil
            return .finished(decoder.raster)
        }
        return composed.map { image($0.pixels, screen, finalRows: $0.finalRows) }
    }

    private func image(_ pixels: [UInt8], _ screen: GIFScreenDescriptor, finalRows: Int) -> DecodedImage {
        DecodedImage(raster: Raster(width: screen.width, height: screen.height, bytesPerPixel: 4, pixels: pixels),
                     finalRowCount: min(finalRows, screen.height), options: options)
    }

    /// The decoder for frame `j`, resumed if it is the one in progress, fed what has arrived.
    private func frameDecoder(_ j: Int, _ frame: GIFFrameData, _ input: InputBuffer) throws(DecodingError) -> GIFFrameDecoder {
        let decoder: GIFFrameDecoder
        if let pending, pending.index == j {
            decoder = pending.decoder
        } else {
            let p = frame.properties
            if p.width > 0 && p.height > 0 {
                _ = try options.limits.checkedRasterBytes(width: p.width, height: p.height, bytesPerPixel: 4)
            }
            decoder = GIFFrameDecoder(frame: frame, input: input)
            pending = (j, decoder)
        }
        try decoder.decode(frame, input: input)
        return decoder
    }
}
