import CodecCore

/// Compositing of the images onto the logical screen (GIF89a §23 "Disposal Method"), with
/// random access from the nearest frame that needs no predecessor.
///
/// Every image is drawn with `over`: GIF alpha is 0 or 255, so Porter–Duff over is "replace
/// where opaque", and pixels of the transparent index, or not decoded yet, leave the canvas as
/// it was. Each image is decoded straight onto the canvas (``AnimationCanvas/compose(through:frame:makeImage:drawing:)``):
/// no frame-sized buffer, for any disposal.
extension GIFDecoder {
    /// The canvas after frame `index`, decoding and drawing the frames from the best starting
    /// point straight onto the canvas; nil when `makeImage` is false. A frame whose data is
    /// incomplete is drawn as far as it goes (an interlaced one shown as a coarse preview).
    func composite(_ index: Int, _ input: InputBuffer, makeImage: Bool = true) throws(DecodingError) -> DecodedImage? {
        guard let screen = container.screen else { throw .invalidRequest("header not read yet") }
        var plan = canvas ?? AnimationCanvas(width: screen.width, height: screen.height)
        canvas = nil
        defer { canvas = plan }
        let frames = container.frames
        let composed = try plan.compose(through: index, frame: { frames[$0].properties }, makeImage: makeImage) {
            (j, region) throws(DecodingError) -> DrawnFrameState in
            let decoder = frameDecoder(j, frames[j], input, isNew: region.isNew)
            try decoder.decode(frames[j], input: input, into: region)
            guard decoder.finished else {
                let rect = region.rect
                return .partial(finalRows: rect.y + decoder.finalRowCount, preview: decoder.interlaced ? {
                    decoder.expandPreview(&$0, canvasWidth: screen.width, rect: rect)
                } : nil)
            }
            pending = nil
            return .finished
        }
        return composed.map { image($0.pixels, screen, finalRows: $0.finalRows) }
    }

    /// The first frame shrunk as its rows are decoded: it is drawn on a transparent canvas, so
    /// the canvas is the frame's pixels where it lies and transparent elsewhere.
    func shrinkFirstFrame(width: Int, height: Int, _ input: InputBuffer) throws(DecodingError) -> DecodedImage? {
        guard let screen = container.screen, let frame = container.frames.first else { return nil }
        _ = try options.limits.checkedRasterBytes(width: screen.width, height: screen.height, bytesPerPixel: 1)
        _ = try options.limits.checkedRasterBytes(width: width, height: height,
                                                  bytesPerPixel: StreamingResampler.bytesPerOutputPixel)
        let resampler = StreamingResampler(inputWidth: screen.width, inputHeight: screen.height,
                                           outputWidth: width, outputHeight: height)
        let decoder = GIFFrameDecoder(frame: frame, input: input, thumbnail: resampler)
        try decoder.decode(frame, input: input, into: nil)
        guard let shrunk = decoder.resampler else { return nil }
        return DecodedImage(raster: shrunk.raster, finalRowCount: decoder.finished ? height : shrunk.finishedOutputRows,
                            options: options)
    }

    private func image(_ pixels: [UInt8], _ screen: GIFScreenDescriptor, finalRows: Int) -> DecodedImage {
        DecodedImage(raster: Raster(width: screen.width, height: screen.height, bytesPerPixel: 4, pixels: pixels),
                     finalRowCount: min(finalRows, screen.height), options: options)
    }

    /// The decoder for frame `j`: the one in progress, unless the frame starts anew on a new
    /// canvas (what it drew before is gone).
    private func frameDecoder(_ j: Int, _ frame: GIFFrameData, _ input: InputBuffer, isNew: Bool) -> GIFFrameDecoder {
        if !isNew, let pending, pending.index == j { return pending.decoder }
        let decoder = GIFFrameDecoder(frame: frame, input: input)
        pending = (j, decoder)
        return decoder
    }
}
