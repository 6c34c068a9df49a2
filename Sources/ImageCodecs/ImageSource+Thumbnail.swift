import CodecCore

extension ImageSource {
    /// A thumbnail of frame `index` whose longer side is at most `maxPixelSize` pixels
    /// (ImageIO's `kCGImageSourceThumbnailMaxPixelSize`; never enlarged), optionally turned
    /// upright by the EXIF orientation. Decoders that can shrink rows as they come out do so,
    /// so a thumbnail of a large still image never holds the full-size image. Pixels stay
    /// straight RGBA through shrinking and orientation and are converted to the options' layout
    /// once, at the end.
    public func thumbnail(at index: Int = 0, maxPixelSize: Int,
                          applyOrientation: Bool = true) throws(DecodingError) -> DecodedImage {
        guard maxPixelSize > 0 else { throw .invalidRequest("maxPixelSize must be positive") }
        let props = try thumbnailProperties(at: index)
        let size = StreamingResampler.fittedSize(width: props.width, height: props.height, maxPixelSize: maxPixelSize)
        return try thumbnail(at: index, size: size, orientation: applyOrientation ? props.orientation : 1)
    }

    /// A thumbnail of frame `index` in a box and/or a byte budget, as SDWebImage's options ask
    /// (``ThumbnailOptions``), decoded at its final size without holding the full-size image
    /// where the decoder can shrink as it goes.
    public func thumbnail(at index: Int = 0, options thumbnailOptions: ThumbnailOptions) throws(DecodingError) -> DecodedImage {
        let props = try thumbnailProperties(at: index)
        let orientation = thumbnailOptions.applyOrientation ? props.orientation : 1
        let size = try thumbnailOptions.outputSize(width: props.width, height: props.height, orientation: orientation)
        return try thumbnail(at: index, size: size, orientation: orientation)
    }

    private func thumbnailProperties(at index: Int) throws(DecodingError) -> ImageProperties {
        guard properties(at: index) != nil, let props = properties else {
            throw .invalidRequest("frame index out of range")
        }
        return props
    }

    private func thumbnail(at index: Int, size: (width: Int, height: Int),
                           orientation: Int) throws(DecodingError) -> DecodedImage {
        let shrunk = try shrunkImage(at: index, size: size)
        guard orientation != 1 else { return converted(shrunk) }
        let upright = Orientation.apply(orientation, to: shrunk.raster)
        let isComplete = shrunk.finalRowCount == shrunk.raster.height
        return converted(RenderedImage(raster: upright, finalRowCount: isComplete ? upright.height : 0))
    }

    private func shrunkImage(at index: Int, size: (width: Int, height: Int)) throws(DecodingError) -> RenderedImage {
        if let props = properties, size.width != props.width || size.height != props.height,
           let streamed = try streamingThumbnail(at: index, width: size.width, height: size.height) {
            return streamed
        }
        let full = try rendered(at: index)
        guard size.width != full.raster.width || size.height != full.raster.height else { return full }
        var rgba8 = full.raster
        if rgba8.bytesPerPixel == 8 {
            rgba8 = Raster(width: rgba8.width, height: rgba8.height, bytesPerPixel: 4,
                           pixels: PixelConversion.narrowRGBA16(rgba8.pixels))
        }
        let small = StreamingResampler.resample(rgba8, toWidth: size.width, height: size.height)
        let finalRows = full.finalRowCount == full.raster.height ? small.height
            : full.finalRowCount * small.height / full.raster.height
        return RenderedImage(raster: small, finalRowCount: finalRows)
    }
}
