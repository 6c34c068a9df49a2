/// RGB → YCbCr and RGB → Y as libjpeg's `jccolor.c` computes them (JFIF 1.02 / CCIR 601-1
/// coefficients in 16-bit fixed point, `SCALEBITS` 16, with `ONE_HALF` rounding and the chroma
/// offset 128 folded into the blue/red terms less one). The SIMD kernels in
/// `JPEGColorEncoding+SIMD.swift` compute the same sums lane by lane and are held equal to
/// these by `JPEGEncoderKernelTests`.
enum JPEGColorEncoding {
    /// FIX(x) = round(x · 2^16) of the jccolor coefficients.
    static let yR: Int32 = 19595, yG: Int32 = 38470, yB: Int32 = 7471
    static let cbR: Int32 = 11059, cbG: Int32 = 21709, half: Int32 = 32768
    static let crG: Int32 = 27439, crB: Int32 = 5329
    /// ONE_HALF, and CBCR_OFFSET + ONE_HALF − 1.
    static let yRounding: Int32 = 1 << 15
    static let chromaRounding: Int32 = (128 << 16) + (1 << 15) - 1

    /// Converts `count` pixels of `stride` bytes (R, G, B first) to Y, Cb and Cr rows.
    static func ycc(_ rgb: UnsafePointer<UInt8>, stride: Int, count: Int,
                    _ y: UnsafeMutablePointer<UInt8>, _ cb: UnsafeMutablePointer<UInt8>, _ cr: UnsafeMutablePointer<UInt8>) {
        var p = rgb
        for i in 0..<count {
            let r = Int32(p[0]), g = Int32(p[1]), b = Int32(p[2])
            y[i] = UInt8(truncatingIfNeeded: (yR &* r &+ yG &* g &+ yB &* b &+ yRounding) &>> 16)
            cb[i] = UInt8(truncatingIfNeeded: (half &* b &- cbR &* r &- cbG &* g &+ chromaRounding) &>> 16)
            cr[i] = UInt8(truncatingIfNeeded: (half &* r &- crG &* g &- crB &* b &+ chromaRounding) &>> 16)
            p += stride
        }
    }

    /// Converts `count` pixels of `stride` bytes to Y (libjpeg's `rgb_gray_convert`).
    static func gray(_ rgb: UnsafePointer<UInt8>, stride: Int, count: Int, _ y: UnsafeMutablePointer<UInt8>) {
        var p = rgb
        for i in 0..<count {
            let r = Int32(p[0]), g = Int32(p[1]), b = Int32(p[2])
            y[i] = UInt8(truncatingIfNeeded: (yR &* r &+ yG &* g &+ yB &* b &+ yRounding) &>> 16)
            p += stride
        }
    }
}
