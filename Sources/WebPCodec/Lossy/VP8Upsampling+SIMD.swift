/// ``VP8Upsampling/upsampleRow`` for 8 chroma pairs (16 output pixels) at a time: the same
/// fancy upsampling and YUV→RGB arithmetic, lane by lane, in 16-bit lanes (SSE2 and NEON
/// multiply those natively; 32-bit multiplies are emulated on x86-64's baseline). libwebp
/// computes U and V packed in one 32-bit word; the packing never lets one component's bits
/// change the other's result (the low component's sums stay below 2^13 and its top bits are
/// masked off), so each component is computed on its own here. The scalar code is the twin
/// (`VP8UpsamplingTests`).
enum VP8UpsamplingSIMD {
    typealias Lanes = SIMD8<Int16>
    typealias Unsigned = SIMD8<UInt16>

    @inline(__always) static func load(_ p: UnsafePointer<UInt8>) -> Lanes {
        Lanes(truncatingIfNeeded: UnsafeRawPointer(p).loadUnaligned(as: SIMD8<UInt8>.self))
    }

    // libwebp's `MultHi(v, c) = (v * c) >> 8` for v ≤ 255 in 16-bit lanes, as its SSE2 code
    // takes it: the high half of the unsigned product of `v << 8` and `c` (`pmulhuw`), which is
    // `(v·c·256) >> 16`. The optimizer emits `pmulhuw` for a widened product shifted right 16.
    @inline(__always) static func multHi(_ v: Unsigned, _ c: UInt32) -> Unsigned {
        Unsigned(truncatingIfNeeded: (SIMD8<UInt32>(truncatingIfNeeded: v &<< 8) &* c) &>> 16)
    }

    /// `clamp(v >> 6, 0, 255)` for `v` in Int16 range.
    @inline(__always) static func clip8(_ v: Lanes) -> Lanes {
        var s = v &>> 6
        s = s & ~(s &>> 15)                 // below 0 → 0
        let over = (255 &- s) &>> 15        // above 255 → all ones
        return (s & ~over) | (255 & over)
    }

    /// The RGBA pixels of 8 luma samples with their chroma, with the constants of libwebp's
    /// `VP8YUVToR/G/B`, as two 16-bit lanes per pixel holding (R, G) and (B, 255) in memory
    /// order. Every sum fits Int16 except blue's, whose `>> 6` is taken in two parts.
    @inline(__always) static func rgba(_ y: Unsigned, _ u: Unsigned, _ v: Unsigned) -> (rg: Unsigned, ba: Unsigned) {
        let yy = Lanes(truncatingIfNeeded: multHi(y, 19077))
        let vr = Lanes(truncatingIfNeeded: multHi(v, 26149))
        let ug = Lanes(truncatingIfNeeded: multHi(u, 6419))
        let vg = Lanes(truncatingIfNeeded: multHi(v, 13320))
        let ub = multHi(u, 33050)  // up to 32921: unsigned
        let r = clip8(yy &+ vr &- 14234)
        let g = clip8(yy &- ug &- vg &+ 8708)
        // (a + ub) >> 6 with a = yy − 17685: floor division of each part plus the carry of
        // their remainders.
        let a = yy &- 17685
        let ubHigh = Lanes(truncatingIfNeeded: ub &>> 6), ubLow = Lanes(truncatingIfNeeded: ub & 63)
        var b = (a &>> 6) &+ ubHigh &+ (((a & 63) &+ ubLow) &>> 6)
        b = b & ~(b &>> 15)
        let over = (255 &- b) &>> 15
        b = (b & ~over) | (255 & over)
        let r16 = Unsigned(truncatingIfNeeded: r), g16 = Unsigned(truncatingIfNeeded: g), b16 = Unsigned(truncatingIfNeeded: b)
        #if _endian(big)
        return ((r16 &<< 8) | g16, (b16 &<< 8) | 0x00FF)
        #else
        return (r16 | (g16 &<< 8), b16 | 0xFF00)
        #endif
    }

    /// The chroma of the two pixels of pair x from the near and far rows (one component).
    @inline(__always)
    static func chroma(nearLeft: Lanes, nearCur: Lanes, farLeft: Lanes, farCur: Lanes) -> (odd: Lanes, even: Lanes) {
        let avg = nearLeft &+ nearCur &+ farLeft &+ farCur &+ 8
        let diagNearLeft = (avg &+ 2 &* (nearCur &+ farLeft)) &>> 3
        let diagNearCur = (avg &+ 2 &* (nearLeft &+ farCur)) &>> 3
        return ((diagNearLeft &+ nearLeft) &>> 1, (diagNearCur &+ nearCur) &>> 1)
    }

    /// Writes pixels `2x − 1` and `2x` for x = 1, 2, … in groups of 8 while the group ends at or
    /// before `lastPair`; returns the first x not written.
    static func pairs(y: UnsafePointer<UInt8>, nearU: UnsafePointer<UInt8>, nearV: UnsafePointer<UInt8>,
                      farU: UnsafePointer<UInt8>, farV: UnsafePointer<UInt8>,
                      dst: UnsafeMutablePointer<UInt8>, lastPair: Int) -> Int {
        var x = 1
        while x &+ 7 <= lastPair {
            let u = chroma(nearLeft: load(nearU + x - 1), nearCur: load(nearU + x),
                           farLeft: load(farU + x - 1), farCur: load(farU + x))
            let v = chroma(nearLeft: load(nearV + x - 1), nearCur: load(nearV + x),
                           farLeft: load(farV + x - 1), farCur: load(farV + x))
            // Luma 2x − 1 and 2x as one 16-bit lane each: the low byte odd, the high byte even.
            let yPairs = UnsafeRawPointer(y + 2 * x - 1).loadUnaligned(as: SIMD8<UInt16>.self)
            let odd = rgba(yPairs & 0xFF, Unsigned(truncatingIfNeeded: u.odd), Unsigned(truncatingIfNeeded: v.odd))
            let even = rgba(yPairs &>> 8, Unsigned(truncatingIfNeeded: u.even), Unsigned(truncatingIfNeeded: v.even))
            // Pixel 2x − 1 then 2x, each as its (R, G) and (B, A) halves (interleaving shuffles).
            let (o, e) = ((odd.rg, odd.ba), (even.rg, even.ba))
            let pixels = SIMD32<UInt16>(o.0[0], o.1[0], e.0[0], e.1[0], o.0[1], o.1[1], e.0[1], e.1[1],
                                        o.0[2], o.1[2], e.0[2], e.1[2], o.0[3], o.1[3], e.0[3], e.1[3],
                                        o.0[4], o.1[4], e.0[4], e.1[4], o.0[5], o.1[5], e.0[5], e.1[5],
                                        o.0[6], o.1[6], e.0[6], e.1[6], o.0[7], o.1[7], e.0[7], e.1[7])
            UnsafeMutableRawPointer(dst + 4 * (2 * x - 1)).storeBytes(of: pixels, as: SIMD32<UInt16>.self)
            x &+= 8
        }
        return x
    }
}
