/// ``VP8Upsampling/upsampleRow`` for 8 chroma pairs (16 output pixels) at a time: the same
/// fancy upsampling and YUV→RGB arithmetic, lane by lane. libwebp computes U and V packed in one
/// 32-bit word; the packing never lets one component's bits change the other's result (the
/// low component's sums stay below 2^13 and its top bits are masked off), so each component is
/// computed on its own here. The scalar code is the twin (`VP8UpsamplingTests`).
enum VP8UpsamplingSIMD {
    typealias Lanes = SIMD8<Int32>

    @inline(__always) static func load(_ p: UnsafePointer<UInt8>) -> Lanes {
        Lanes(truncatingIfNeeded: UnsafeRawPointer(p).loadUnaligned(as: SIMD8<UInt8>.self))
    }

    /// `clamp(v >> 6, 0, 255)`, libwebp's `VP8Clip8`, with wrapping arithmetic only.
    @inline(__always) static func clip8(_ v: Lanes) -> Lanes {
        var s = v &>> 6
        s = s & ~(s &>> 31)                 // below 0 → 0
        let over = (255 &- s) &>> 31        // above 255 → all ones
        return (s & ~over) | (255 & over)
    }

    /// RGBA pixels (as little-endian words) of 8 luma samples with their chroma.
    @inline(__always) static func rgba(_ y: Lanes, _ u: Lanes, _ v: Lanes) -> SIMD8<UInt32> {
        let yy = (y &* 19077) &>> 8
        let r = clip8(yy &+ ((v &* 26149) &>> 8) &- 14234)
        let g = clip8(yy &- ((u &* 6419) &>> 8) &- ((v &* 13320) &>> 8) &+ 8708)
        let b = clip8(yy &+ ((u &* 33050) &>> 8) &- 17685)
        let word = r | (g &<< 8) | (b &<< 16) | Lanes(repeating: 255 << 24)
        return SIMD8<UInt32>(truncatingIfNeeded: word)
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
            let yPairs = SIMD8<Int32>(truncatingIfNeeded:
                UnsafeRawPointer(y + 2 * x - 1).loadUnaligned(as: SIMD8<UInt16>.self))
            let odd = rgba(yPairs & 0xFF, u.odd, v.odd)
            let even = rgba(yPairs &>> 8, u.even, v.even)
            // Pixel 2x − 1 then 2x: one 64-bit word per pair.
            let words = SIMD8<UInt64>(truncatingIfNeeded: odd) | (SIMD8<UInt64>(truncatingIfNeeded: even) &<< 32)
            UnsafeMutableRawPointer(dst + 4 * (2 * x - 1)).storeBytes(of: words, as: SIMD8<UInt64>.self)
            x &+= 8
        }
        return x
    }
}
