/// A decoded image: an immutable value that owns its pixels.
///
/// Rows run top to bottom with `bytesPerRow` bytes each and no padding beyond
/// `width × pixelFormat.bytesPerPixel`. While a source is incomplete the image may be
/// partial: rows `0..<finalRowCount` hold their final values, the rest hold what is known so
/// far (a coarser interlace pass, or transparent black where nothing has arrived).
public struct DecodedImage: Sendable, Equatable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// The layout of each pixel: sample order and bits per sample.
    public let pixelFormat: PixelFormat
    /// Whether the colour samples are multiplied by alpha (``DecodingOptions/premultipliedAlpha``).
    public let isPremultiplied: Bool
    /// Bytes from the start of one row to the start of the next: `width × pixelFormat.bytesPerPixel`.
    public let bytesPerRow: Int
    /// The pixel bytes, `height × bytesPerRow` of them; 16-bit samples are in native byte order.
    public let pixels: [UInt8]
    /// Rows from the top whose values are final.
    public let finalRowCount: Int

    /// Whether every row is final.
    public var isComplete: Bool { finalRowCount == height }

    /// An image of the given pixels, which must hold `height` rows of `width × pixelFormat.bytesPerPixel`
    /// bytes; ``bytesPerRow`` is computed from the width and format.
    public init(width: Int, height: Int, pixelFormat: PixelFormat, isPremultiplied: Bool,
                pixels: [UInt8], finalRowCount: Int) {
        self.width = width
        self.height = height
        self.pixelFormat = pixelFormat
        self.isPremultiplied = isPremultiplied
        self.bytesPerRow = width * pixelFormat.bytesPerPixel
        self.pixels = pixels
        self.finalRowCount = finalRowCount
    }

    /// Converts a raster of the decoders' working format (RGBA8 or RGBA16, straight alpha)
    /// into the layout the options ask for.
    public init(raster: Raster, finalRowCount: Int, options: DecodingOptions) {
        var pixels = raster.pixels
        var format = PixelFormat.rgba8
        if raster.bytesPerPixel == 8 {
            if options.prefersSixteenBitOutput {
                format = .rgba16
                if options.premultipliedAlpha { PixelConversion.premultiplyRGBA16(&pixels) }
            } else {
                pixels = PixelConversion.narrowRGBA16(pixels)
            }
        }
        if format != .rgba16 {
            if options.premultipliedAlpha { PixelConversion.premultiplyRGBA8(&pixels) }
            if options.byteOrder == .bgra8 {
                PixelConversion.swapRedBlue(&pixels)
                format = .bgra8
            }
        }
        self.init(width: raster.width, height: raster.height, pixelFormat: format,
                  isPremultiplied: options.premultipliedAlpha, pixels: pixels, finalRowCount: finalRowCount)
    }

    /// The image as a straight-alpha RGBA8 raster (the canonical layout).
    public func rgba8Raster() -> Raster {
        var pixels = pixels
        if pixelFormat == .rgba16 {
            if isPremultiplied { PixelConversion.unpremultiplyRGBA16(&pixels) }
            pixels = PixelConversion.narrowRGBA16(pixels)
        } else {
            if pixelFormat == .bgra8 { PixelConversion.swapRedBlue(&pixels) }
            if isPremultiplied { PixelConversion.unpremultiplyRGBA8(&pixels) }
        }
        return Raster(width: width, height: height, bytesPerPixel: 4, pixels: pixels)
    }
}

/// A plain pixel raster in the decoders' working format: RGBA, straight alpha, 4 bytes per
/// pixel (8-bit samples) or 8 bytes per pixel (16-bit samples, native byte order).
public struct Raster: Sendable, Equatable {
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int
    /// 4 for 8-bit samples, 8 for 16-bit samples.
    public var bytesPerPixel: Int
    /// The pixel bytes, rows top to bottom without padding.
    public var pixels: [UInt8]

    /// A raster over `pixels`, which hold `width × height × bytesPerPixel` bytes.
    public init(width: Int, height: Int, bytesPerPixel: Int, pixels: [UInt8]) {
        self.width = width
        self.height = height
        self.bytesPerPixel = bytesPerPixel
        self.pixels = pixels
    }

    /// A raster of transparent black pixels; the caller has checked the size against ``Limits``.
    public init(width: Int, height: Int, bytesPerPixel: Int) {
        self.init(width: width, height: height, bytesPerPixel: bytesPerPixel,
                  pixels: PixelStorage.make(count: width * height * bytesPerPixel, zeroed: true))
    }

    /// Bytes of one row.
    public var bytesPerRow: Int { width * bytesPerPixel }
}
