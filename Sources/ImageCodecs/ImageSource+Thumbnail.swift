extension ImageSource {
    /// A thumbnail of frame `index` whose longer side is at most `maxPixelSize` pixels
    /// (ImageIO's `kCGImageSourceThumbnailMaxPixelSize`; never enlarged), optionally turned
    /// upright by the EXIF orientation. Decoders that can shrink rows as they come out do so,
    /// so a thumbnail of a large still image never holds the full-size image.
    public func thumbnail(at index: Int = 0, maxPixelSize: Int,
                          applyOrientation: Bool = true) throws(DecodingError) -> DecodedImage {
        guard maxPixelSize > 0 else { throw .invalidRequest("maxPixelSize must be positive") }
        let orientation = applyOrientation ? (properties?.orientation ?? 1) : 1
        let shrunk = try shrunkImage(at: index, maxPixelSize: maxPixelSize)
        guard orientation != 1 else { return shrunk }
        let upright = Orientation.apply(orientation, to: shrunk.rgba8Raster())
        return DecodedImage(raster: upright, finalRowCount: shrunk.isComplete ? upright.height : 0,
                            options: decodingOptions)
    }

    private func shrunkImage(at index: Int, maxPixelSize: Int) throws(DecodingError) -> DecodedImage {
        guard properties(at: index) != nil, let props = properties else {
            throw .invalidRequest("frame index out of range")
        }
        let size = StreamingResampler.fittedSize(width: props.width, height: props.height, maxPixelSize: maxPixelSize)
        if size.width != props.width || size.height != props.height,
           let streamed = try streamingThumbnail(at: index, width: size.width, height: size.height) {
            return streamed
        }
        let full = try image(at: index)
        guard size.width != full.width || size.height != full.height else { return full }
        let small = StreamingResampler.resample(full.rgba8Raster(), toWidth: size.width, height: size.height)
        let finalRows = full.isComplete ? small.height : full.finalRowCount * small.height / full.height
        return DecodedImage(raster: small, finalRowCount: finalRows, options: decodingOptions)
    }
}
