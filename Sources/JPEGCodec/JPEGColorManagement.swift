import CodecCore

/// A JPEG's ICC profile applied in the renderer's row sink, when sRGB output is asked for
/// (``DecodingOptions/colorSpace``; SPEC-NOTES.md, "Colour management"): each output row is
/// converted right after its colour conversion, while it is in cache, so a JPEG costs no
/// second pass over the image; thumbnails are converted before shrinking.
///
/// CMYK and YCCK frames hand the profile the ink amounts instead of the naive CMYK → RGB. As
/// in Pillow, every CMYK JPEG is read as Adobe-inverted (255 = no ink): ink = 255 − stored;
/// for YCCK the YCbCr formula gives 255 − C directly (libjpeg's `ycck_cmyk_convert`), so its
/// R, G, B are the C, M, Y inks.
enum JPEGColorManagement {
    /// The transform for a frame of `colorSpace`, or nil when the options do not ask for one or
    /// the profile does not fit the components (CMYK for four, RGB for three, gray or RGB for one).
    static func transform(options: DecodingOptions, colorSpace: JPEGColorSpace, profile: [UInt8]?) -> ColorTransform? {
        guard options.colorSpace == .sRGB, let profile,
              case .success(let t) = ColorTransform.cached(profile: profile) else { return nil }
        switch colorSpace {
        case .cmyk, .ycck: return t.inputChannelCount == 4 ? t : nil
        case .yCbCr, .rgb: return t.inputChannelCount == 3 ? t : nil
        case .grayscale: return t.inputChannelCount != 4 ? t : nil
        }
    }

    /// Stored Adobe CMYK planes to opaque sRGB RGBA8 through `transform` (nil: to the ink
    /// amounts, 4 bytes a pixel, for ``ColorTransform/convertInk(_:count:)`` later).
    static func cmyk(c: UnsafePointer<UInt8>, m: UnsafePointer<UInt8>, y: UnsafePointer<UInt8>, k: UnsafePointer<UInt8>,
                     count: Int, _ transform: ColorTransform?, _ out: UnsafeMutablePointer<UInt8>) {
        for i in 0..<count {
            out[4 &* i] = 255 &- c[i]
            out[4 &* i &+ 1] = 255 &- m[i]
            out[4 &* i &+ 2] = 255 &- y[i]
            out[4 &* i &+ 3] = 255 &- k[i]
        }
        transform?.convertInk(out, count: count)
    }

    /// Stored YCCK planes to opaque sRGB RGBA8 through `transform` (nil: to the ink amounts).
    static func ycck(y: UnsafePointer<UInt8>, cb: UnsafePointer<UInt8>, cr: UnsafePointer<UInt8>, k: UnsafePointer<UInt8>,
                     count: Int, _ transform: ColorTransform?, _ out: UnsafeMutablePointer<UInt8>) {
        JPEGColorConverter.yccToRGBA(y: y, cb: cb, cr: cr, count: count, out)
        for i in 0..<count { out[4 &* i &+ 3] = 255 &- k[i] }
        transform?.convertInk(out, count: count)
    }
}
