/// Colour conversion of decoded (and upsampled) component rows into RGBA8 with alpha 255.
///
/// YCbCr → RGB is libjpeg-turbo 2.1.5's `jdcolor.c` (`build_ycc_rgb_table`, `ycc_rgb_convert`):
/// JFIF's full-range BT.601 with 16 fraction bits. With `x = Cb − 128`, `z = Cr − 128`:
///
///     R = clamp(Y + ((91881·z + 32768) >> 16))                 91881 = FIX(1.40200)
///     G = clamp(Y + ((−22554·x − 46802·z + 32768) >> 16))      22554 = FIX(0.34414), 46802 = FIX(0.71414)
///     B = clamp(Y + ((116130·x + 32768) >> 16))                116130 = FIX(1.77200)
///
/// (`>>` arithmetic, clamp to 0…255 through libjpeg's range-limit table). The x86-64 SIMD
/// version djpeg runs (`jdcolext-avx2.asm`) splits the constants (1.402 = 1 + 0.402,
/// 1.772 = 2 − 0.228, −0.71414 = 0.28586 − 1) and rounds the fractional parts with `pmulhw`,
/// `+1`, `>>1`; floor((floor(2a/2^16) + 1)/2) = floor((a + 2^15)/2^16), so it gives the same
/// values, and this type follows the formula above.
///
/// Adobe CMYK and YCCK have no libjpeg reference (djpeg writes no CMYK image); they follow
/// Pillow, `Image.open(f).convert("RGB")`: libjpeg hands Pillow the stored CMYK (for YCCK,
/// `ycck_cmyk_convert`: `C = 255 − R`, `M = 255 − G`, `Y = 255 − B` of the YCbCr formula above,
/// K unchanged), Pillow reads every CMYK JPEG as Adobe-inverted (`CMYK;I`: `c = 255 − C` …), and
/// its `cmyk2rgb` (libImaging/Convert.c) makes `R = nk − MULDIV255(c, nk)` with `nk = 255 − k`
/// and `MULDIV255(a, b) = (t + (t >> 8)) >> 8, t = a·b + 128` (a·b/255 rounded). In terms of
/// the stored samples:
///
///     CMYK:  R = K − MULDIV255(255 − C, K)    (G from M, B from Y likewise)
///     YCCK:  R = K − MULDIV255(R', K)         R' = the YCbCr formula's R of (Y, Cb, Cr), G and B likewise
enum JPEGColorConverter {
    static let crToRed: Int32 = 91881
    static let cbToBlue: Int32 = 116130
    static let cbToGreen: Int32 = 22554
    static let crToGreen: Int32 = 46802
    static let oneHalf: Int32 = 1 << 15
    static let opaque: UInt32 = 0xFF00_0000

    /// Scalar twin of ``yccToRGBA(y:cb:cr:count:_:)``.
    static func yccToRGBAScalar(y: UnsafePointer<UInt8>, cb: UnsafePointer<UInt8>, cr: UnsafePointer<UInt8>,
                                count: Int, _ output: UnsafeMutablePointer<UInt8>) {
        yccPixels(y: y, cb: cb, cr: cr, from: 0, to: count, output)
    }

    @inline(__always)
    static func yccPixels(y: UnsafePointer<UInt8>, cb: UnsafePointer<UInt8>, cr: UnsafePointer<UInt8>,
                          from start: Int, to end: Int, _ output: UnsafeMutablePointer<UInt8>) {
        var i = start
        while i < end {
            let (r, g, b) = ycc(y[i], cb[i], cr[i])
            storePixel(r, g, b, output + 4 &* i)
            i &+= 1
        }
    }

    /// One pixel of the YCbCr formula, clamped.
    @inline(__always)
    static func ycc(_ y: UInt8, _ cb: UInt8, _ cr: UInt8) -> (UInt8, UInt8, UInt8) {
        let luma = Int32(y), x = Int32(cb) &- 128, z = Int32(cr) &- 128
        let r = luma &+ ((crToRed &* z &+ oneHalf) &>> 16)
        let g = luma &+ ((0 &- cbToGreen &* x &- crToGreen &* z &+ oneHalf) &>> 16)
        let b = luma &+ ((cbToBlue &* x &+ oneHalf) &>> 16)
        return (clamp(r), clamp(g), clamp(b))
    }

    /// `value` clamped to 0…255, without branches (|value| < 2^30).
    @inline(__always)
    static func clamp(_ value: Int32) -> UInt8 {
        let d = value &- 255
        let m = (d & (d &>> 31)) &+ 255
        return UInt8(truncatingIfNeeded: m & ~(m &>> 31))
    }

    @inline(__always)
    static func storePixel(_ r: UInt8, _ g: UInt8, _ b: UInt8, _ destination: UnsafeMutablePointer<UInt8>) {
        destination[0] = r
        destination[1] = g
        destination[2] = b
        destination[3] = 255
    }

    /// Scalar twin of ``grayToRGBA(_:count:_:)``.
    static func grayToRGBAScalar(_ y: UnsafePointer<UInt8>, count: Int, _ output: UnsafeMutablePointer<UInt8>) {
        grayPixels(y, from: 0, to: count, output)
    }

    @inline(__always)
    static func grayPixels(_ y: UnsafePointer<UInt8>, from start: Int, to end: Int, _ output: UnsafeMutablePointer<UInt8>) {
        var i = start
        while i < end {
            storePixel(y[i], y[i], y[i], output + 4 &* i)
            i &+= 1
        }
    }

    /// Scalar twin of ``rgbToRGBA(r:g:b:count:_:)``.
    static func rgbToRGBAScalar(r: UnsafePointer<UInt8>, g: UnsafePointer<UInt8>, b: UnsafePointer<UInt8>,
                                count: Int, _ output: UnsafeMutablePointer<UInt8>) {
        rgbPixels(r: r, g: g, b: b, from: 0, to: count, output)
    }

    @inline(__always)
    static func rgbPixels(r: UnsafePointer<UInt8>, g: UnsafePointer<UInt8>, b: UnsafePointer<UInt8>,
                          from start: Int, to end: Int, _ output: UnsafeMutablePointer<UInt8>) {
        var i = start
        while i < end {
            storePixel(r[i], g[i], b[i], output + 4 &* i)
            i &+= 1
        }
    }

    /// Pillow's `MULDIV255`: `a·b/255` rounded to nearest, for `a`, `b` in 0…255.
    @inline(__always)
    static func mulDiv255(_ a: UInt8, _ b: UInt8) -> UInt8 {
        let t = UInt32(a) &* UInt32(b) &+ 128
        return UInt8(truncatingIfNeeded: ((t &>> 8) &+ t) &>> 8)
    }

    /// Scalar twin of ``cmykToRGBA(c:m:y:k:count:_:)``.
    static func cmykToRGBAScalar(c: UnsafePointer<UInt8>, m: UnsafePointer<UInt8>, y: UnsafePointer<UInt8>,
                                 k: UnsafePointer<UInt8>, count: Int, _ output: UnsafeMutablePointer<UInt8>) {
        cmykPixels(c: c, m: m, y: y, k: k, from: 0, to: count, output)
    }

    @inline(__always)
    static func cmykPixels(c: UnsafePointer<UInt8>, m: UnsafePointer<UInt8>, y: UnsafePointer<UInt8>, k: UnsafePointer<UInt8>,
                           from start: Int, to end: Int, _ output: UnsafeMutablePointer<UInt8>) {
        var i = start
        while i < end {
            let black = k[i]
            storePixel(black &- mulDiv255(255 &- c[i], black), black &- mulDiv255(255 &- m[i], black),
                       black &- mulDiv255(255 &- y[i], black), output + 4 &* i)
            i &+= 1
        }
    }

    /// Scalar twin of ``ycckToRGBA(y:cb:cr:k:count:_:)``.
    static func ycckToRGBAScalar(y: UnsafePointer<UInt8>, cb: UnsafePointer<UInt8>, cr: UnsafePointer<UInt8>,
                                 k: UnsafePointer<UInt8>, count: Int, _ output: UnsafeMutablePointer<UInt8>) {
        ycckPixels(y: y, cb: cb, cr: cr, k: k, from: 0, to: count, output)
    }

    @inline(__always)
    static func ycckPixels(y: UnsafePointer<UInt8>, cb: UnsafePointer<UInt8>, cr: UnsafePointer<UInt8>, k: UnsafePointer<UInt8>,
                           from start: Int, to end: Int, _ output: UnsafeMutablePointer<UInt8>) {
        var i = start
        while i < end {
            let (r, g, b) = ycc(y[i], cb[i], cr[i]), black = k[i]
            storePixel(black &- mulDiv255(r, black), black &- mulDiv255(g, black), black &- mulDiv255(b, black), output + 4 &* i)
            i &+= 1
        }
    }
}
