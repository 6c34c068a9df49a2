/// Scaled inverse DCTs: 4×4, 2×2 and 1×1 samples straight from an 8×8 block of coefficients,
/// for libjpeg's `scale_num/scale_denom` of 1/2, 1/4 and 1/8 (`jidctred.c`). The 4-point
/// transform takes its even part from coefficients 0, 2, 6 (4 is unused) and folds 1, 3, 5, 7
/// into combined constants; the 2-point one uses 0 and the odd coefficients; 1×1 is the DC term.
///
/// As for ``JPEGIDCT/islow(_:_:_:stride:)``, the arithmetic is what djpeg runs on x86-64:
/// `jsimd_idct_4x4_sse2` and `jsimd_idct_2x2_sse2` (`simd/x86_64/jidctred-sse2.asm`), and the C
/// `jpeg_idct_1x1`, which has no SIMD version.
extension JPEGIDCT {
    // FIX(x) = round(x · 2^13), the constants of jidctred.c.
    static let fix0_211164243: Int32 = 1730
    static let fix0_509795579: Int32 = 4176
    static let fix0_601344887: Int32 = 4926
    static let fix0_720959822: Int32 = 5906
    static let fix0_850430095: Int32 = 6967
    static let fix1_061594337: Int32 = 8697
    static let fix1_272758580: Int32 = 10426
    static let fix1_451774981: Int32 = 11893
    static let fix2_172734803: Int32 = 17799
    static let fix3_624509785: Int32 = 29692

    /// Dequantizes and inverse-transforms one block into `size`×`size` samples (`size` 8, 4, 2
    /// or 1), rows `stride` bytes apart. Size 8 is ``islow(_:_:_:stride:)``.
    static func reduced(size: Int, _ coefficients: UnsafePointer<Int16>, _ quantization: UnsafePointer<Int16>,
                        _ output: UnsafeMutablePointer<UInt8>, stride: Int) {
        switch size {
        case 4: islow4x4(coefficients, quantization, output, stride: stride)
        case 2: islow2x2(coefficients, quantization, output, stride: stride)
        case 1: output[0] = islow1x1(coefficients, quantization)
        default: islow(coefficients, quantization, output, stride: stride)
        }
    }

    /// `jsimd_idct_4x4_sse2`: coefficient row and column 4 are ignored. Pass 1 transforms the
    /// columns into 4 rows, descaling by 12 bits and saturating to `Int16`, with the same
    /// block-wide shortcut as the 8×8 code (rows 1, 2, 3, 5, 6, 7 all zero: `(c·q) << 2` in 16
    /// bits); pass 2 transforms the 4 rows, descaling by 19 bits and clamping to 0…255.
    static func islow4x4(_ coefficients: UnsafePointer<Int16>, _ quantization: UnsafePointer<Int16>,
                         _ output: UnsafeMutablePointer<UInt8>, stride: Int) {
        withUnsafeTemporaryAllocation(of: Int16.self, capacity: 96) { buffer in
            let dequantized = buffer.baseAddress!, workspace = dequantized + 64
            var any: Int16 = 0
            for i in 8..<32 { any |= coefficients[i] }
            for i in 40..<64 { any |= coefficients[i] }
            if any == 0 {
                for u in 0..<8 {
                    let value = (coefficients[u] &* quantization[u]) &<< pass1Bits
                    for y in 0..<4 { workspace[y &* 8 &+ u] = value }
                }
            } else {
                for i in 0..<64 { dequantized[i] = coefficients[i] &* quantization[i] }
                for u in 0..<8 {
                    let o = transform4(dequantized + u, step: 8)
                    for y in 0..<4 { workspace[y &* 8 &+ u] = saturatingInt16((o[y] &+ (1 &<< 11)) &>> 12) }
                }
            }
            for y in 0..<4 {
                let o = transform4(workspace + y &* 8, step: 1)
                let row = output + y &* stride
                for x in 0..<4 { row[x] = clampedSample((o[x] &+ (1 &<< 18)) &>> 19) }
            }
        }
    }

    /// The 4-point output of jidctred.c's 4×4 1-D transform on 16-bit inputs `p[k·step]`
    /// (k = 4 unused), before descaling: even part `d0·2^14 ± (d2·c1.848 − d6·c0.765)`, odd
    /// part two sums of four products, as `pmaddwd` pairs them.
    @inline(__always)
    static func transform4(_ p: UnsafePointer<Int16>, step: Int) -> SIMD4<Int32> {
        let d0 = Int32(p[0]), d1 = Int32(p[step]), d2 = Int32(p[2 &* step]), d3 = Int32(p[3 &* step])
        let d5 = Int32(p[5 &* step]), d6 = Int32(p[6 &* step]), d7 = Int32(p[7 &* step])
        let tmp0 = d0 &<< (constBits &+ 1)
        let tmp2 = d2 &* fix1_847759065 &+ d6 &* (0 &- fix0_765366865)
        let tmp10 = tmp0 &+ tmp2, tmp12 = tmp0 &- tmp2
        let odd0 = d1 &* fix1_061594337 &+ d3 &* (0 &- fix2_172734803)
            &+ d5 &* fix1_451774981 &+ d7 &* (0 &- fix0_211164243)
        let odd2 = d1 &* fix2_562915447 &+ d3 &* fix0_899976223
            &+ d5 &* (0 &- fix0_601344887) &+ d7 &* (0 &- fix0_509795579)
        return SIMD4(tmp10 &+ odd2, tmp12 &+ odd0, tmp12 &- odd0, tmp10 &- odd2)
    }

    /// `jsimd_idct_2x2_sse2`: only coefficient rows and columns 0, 1, 3, 5, 7 count. Pass 1
    /// (no shortcut) descales by 13 bits into 32-bit values that are not saturated; pass 2
    /// saturates the odd inputs to `Int16` but shifts the even one left by 15 in 32 bits
    /// (wrapping), then descales by 20 bits and clamps to 0…255.
    static func islow2x2(_ coefficients: UnsafePointer<Int16>, _ quantization: UnsafePointer<Int16>,
                         _ output: UnsafeMutablePointer<UInt8>, stride: Int) {
        withUnsafeTemporaryAllocation(of: Int32.self, capacity: 16) { buffer in
            let upper = buffer.baseAddress!, lower = upper + 8
            var u = 0
            while u < 8 {
                let c = coefficients + u, q = quantization + u
                func d(_ k: Int) -> Int32 { Int32(c[k &* 8] &* q[k &* 8]) }
                let tmp10 = d(0) &<< (constBits &+ 2)
                let odd = odd2x2(d(1), d(3), d(5), d(7))
                upper[u] = (tmp10 &+ odd &+ (1 &<< 12)) &>> 13
                lower[u] = (tmp10 &- odd &+ (1 &<< 12)) &>> 13
                u &+= u == 0 ? 1 : 2
            }
            row2x2(upper, output)
            row2x2(lower, output + stride)
        }
    }

    /// Pass 2 of ``islow2x2(_:_:_:stride:)`` for one row of pass-1 values (columns 0, 1, 3, 5, 7).
    @inline(__always)
    static func row2x2(_ w: UnsafePointer<Int32>, _ output: UnsafeMutablePointer<UInt8>) {
        func s(_ k: Int) -> Int32 { Int32(saturatingInt16(w[k])) }
        let tmp10 = w[0] &<< (constBits &+ 2)
        let odd = odd2x2(s(1), s(3), s(5), s(7))
        output[0] = clampedSample((tmp10 &+ odd &+ (1 &<< 19)) &>> 20)
        output[1] = clampedSample((tmp10 &- odd &+ (1 &<< 19)) &>> 20)
    }

    @inline(__always)
    static func odd2x2(_ d1: Int32, _ d3: Int32, _ d5: Int32, _ d7: Int32) -> Int32 {
        d1 &* fix3_624509785 &+ d3 &* (0 &- fix1_272758580) &+ d5 &* fix0_850430095 &+ d7 &* (0 &- fix0_720959822)
    }

    /// `jpeg_idct_1x1` (C only): the average, `(c·q + 4) >> 3` with an exact 32-bit product,
    /// through libjpeg's range-limit table (``rangeLimit(_:)``, which wraps beyond ±512).
    @inline(__always)
    static func islow1x1(_ coefficients: UnsafePointer<Int16>, _ quantization: UnsafePointer<Int16>) -> UInt8 {
        rangeLimit((Int32(coefficients[0]) &* Int32(quantization[0]) &+ 4) &>> 3)
    }

    /// The IDCT size libjpeg gives a component (`jdmaster.c` `jpeg_calc_output_dimensions`): it
    /// starts from the image's scaled size (8, 4, 2 or 1 for scales 1, 1/2, 1/4, 1/8) and doubles
    /// it while below 8 and while both `maxH·minScaledSize` is a multiple of `h·size·2` and
    /// `maxV·minScaledSize` of `v·size·2`, so that subsampled chroma is enlarged by the IDCT
    /// rather than by upsampling (a 2×2-subsampled chroma block at scale 1/2 gets the full 8×8
    /// IDCT and no upsampling). The upsampler then sees `h·size/minScaledSize` samples per
    /// `maxH` output samples (``JPEGUpsampler/method(h:v:maxH:maxV:downsampledWidth:fancy:)``).
    static func componentScaledSize(minScaledSize: Int, h: Int, v: Int, maxH: Int, maxV: Int) -> Int {
        var size = minScaledSize
        guard h > 0, v > 0 else { return size }
        while size < 8, (maxH &* minScaledSize) % (h &* size &* 2) == 0, (maxV &* minScaledSize) % (v &* size &* 2) == 0 {
            size &*= 2
        }
        return size
    }
}
