import CodecCore

/// CMYK and YCCK JPEGs with a CMYK ICC profile, when sRGB output is asked for
/// (``DecodingOptions/colorSpace``): the profile must see the ink amounts, so the renderer
/// hands them to the ``ColorTransform`` instead of its naive CMYK → RGB (SPEC-NOTES.md,
/// "Colour management"). As in Pillow, every CMYK JPEG is read as Adobe-inverted
/// (255 = no ink): ink = 255 − stored; for YCCK the YCbCr formula gives 255 − C directly
/// (libjpeg's `ycck_cmyk_convert`), so its R, G, B are the C, M, Y inks.
enum JPEGInkConversion {
    /// The transform for a CMYK/YCCK frame, or nil when the options, the components or the
    /// profile do not call for one.
    static func transform(options: DecodingOptions, colorSpace: JPEGColorSpace, profile: [UInt8]?) -> ColorTransform? {
        guard options.colorSpace == .sRGB, colorSpace == .cmyk || colorSpace == .ycck, let profile,
              case .success(let t) = ColorTransform.cached(profile: profile), t.inputChannelCount == 4 else { return nil }
        return t
    }

    /// Stored Adobe CMYK planes to opaque sRGB RGBA8 through `transform`.
    static func cmyk(c: UnsafePointer<UInt8>, m: UnsafePointer<UInt8>, y: UnsafePointer<UInt8>, k: UnsafePointer<UInt8>,
                     count: Int, _ transform: ColorTransform, _ out: UnsafeMutablePointer<UInt8>) {
        for i in 0..<count {
            out[4 &* i] = 255 &- c[i]
            out[4 &* i &+ 1] = 255 &- m[i]
            out[4 &* i &+ 2] = 255 &- y[i]
            out[4 &* i &+ 3] = 255 &- k[i]
        }
        transform.convertInk(out, count: count)
    }

    /// Stored YCCK planes to opaque sRGB RGBA8 through `transform`.
    static func ycck(y: UnsafePointer<UInt8>, cb: UnsafePointer<UInt8>, cr: UnsafePointer<UInt8>, k: UnsafePointer<UInt8>,
                     count: Int, _ transform: ColorTransform, _ out: UnsafeMutablePointer<UInt8>) {
        JPEGColorConverter.yccToRGBA(y: y, cb: cb, cr: cr, count: count, out)
        for i in 0..<count { out[4 &* i &+ 3] = 255 &- k[i] }
        transform.convertInk(out, count: count)
    }
}
