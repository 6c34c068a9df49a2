#if arch(x86_64)
import _Builtin_intrinsics.intel

/// ``VP8Upsampling/upsampleRow`` for 8 chroma pairs (16 output pixels) at a time in SSE2: the
/// x86-64 twin of ``VP8UpsamplingSIMD`` (which other architectures run), with the same fancy
/// upsampling and YUV→RGB arithmetic in 16-bit lanes. What SSE2 adds: libwebp's `MultHi(v, c)`
/// is one `pmulhuw` of `v << 8`; the clamps to 0...255 are the saturating packs (and, for blue,
/// whose sum passes 2¹⁵, a saturating unsigned subtract first); the pixels are interleaved by
/// unpacking bytes, pairs and quads instead of lane by lane. Twin test: `VP8UpsamplingTests`.
enum VP8UpsamplingSSE2 {
    typealias Lanes = __m128i

    @inline(__always) static var zero: Lanes { _mm_setzero_si128() }
    @inline(__always) static func splat(_ v: UInt16) -> Lanes { _mm_set1_epi16(Int16(bitPattern: v)) }

    /// 8 bytes from `p`, as 16-bit lanes.
    @inline(__always) static func load(_ p: UnsafePointer<UInt8>) -> Lanes {
        _mm_unpacklo_epi8(_mm_cvtsi64_si128(Int64(bitPattern: UnsafeRawPointer(p).loadUnaligned(as: UInt64.self))), zero)
    }

    /// The chroma of the two pixels of each pair from the near and far rows (one component).
    @inline(__always)
    static func chroma(_ near: UnsafePointer<UInt8>, _ far: UnsafePointer<UInt8>) -> (odd: Lanes, even: Lanes) {
        let nearLeft = load(near - 1), nearCur = load(near), farLeft = load(far - 1), farCur = load(far)
        let avg = _mm_add_epi16(_mm_add_epi16(nearLeft, nearCur), _mm_add_epi16(_mm_add_epi16(farLeft, farCur), splat(8)))
        let twice = { (a: Lanes, b: Lanes) in _mm_slli_epi16(_mm_add_epi16(a, b), 1) }
        let diagNearLeft = _mm_srli_epi16(_mm_add_epi16(avg, twice(nearCur, farLeft)), 3)
        let diagNearCur = _mm_srli_epi16(_mm_add_epi16(avg, twice(nearLeft, farCur)), 3)
        return (_mm_srli_epi16(_mm_add_epi16(diagNearLeft, nearLeft), 1), _mm_srli_epi16(_mm_add_epi16(diagNearCur, nearCur), 1))
    }

    /// R, G and B of 8 pixels from luma `y8` (each luma in the high byte of its lane, `y << 8`)
    /// and chroma `u`, `v` (0...255), with the constants of libwebp's `VP8YUVToR/G/B`, in 16-bit
    /// lanes that are already 0...255.
    @inline(__always)
    static func rgb(_ y8: Lanes, _ u: Lanes, _ v: Lanes) -> (r: Lanes, g: Lanes, b: Lanes) {
        let u8 = _mm_slli_epi16(u, 8), v8 = _mm_slli_epi16(v, 8)
        let yy = _mm_mulhi_epu16(y8, splat(19077))
        let r = _mm_sub_epi16(_mm_add_epi16(yy, _mm_mulhi_epu16(v8, splat(26149))), splat(14234))
        let g = _mm_add_epi16(_mm_sub_epi16(_mm_sub_epi16(yy, _mm_mulhi_epu16(u8, splat(6419))),
                                            _mm_mulhi_epu16(v8, splat(13320))), splat(8708))
        // yy + (u·33050 >> 8) reaches 51923: unsigned, and below 17685 it clamps to 0.
        let b = _mm_srli_epi16(_mm_subs_epu16(_mm_add_epi16(yy, _mm_mulhi_epu16(u8, splat(33050))), splat(17685)), 6)
        // Signed >> 6; the pack's saturation below is the clamp to 0...255.
        return (_mm_srai_epi16(r, 6), _mm_srai_epi16(g, 6), b)
    }

    /// Writes pixels `2x − 1` and `2x` for x = 1, 2, … in groups of 8 while the group ends at or
    /// before `lastPair`; returns the first x not written.
    static func pairs(y: UnsafePointer<UInt8>, nearU: UnsafePointer<UInt8>, nearV: UnsafePointer<UInt8>,
                      farU: UnsafePointer<UInt8>, farV: UnsafePointer<UInt8>,
                      dst: UnsafeMutablePointer<UInt8>, lastPair: Int) -> Int {
        let opaque = _mm_set1_epi8(-1)
        var x = 1
        while x &+ 7 <= lastPair {
            let u = chroma(nearU + x, farU + x), v = chroma(nearV + x, farV + x)
            // Luma 2x − 1 … 2x + 14: the odd pixels are the even bytes, the even pixels the odd ones.
            let luma = unsafeBitCast(UnsafeRawPointer(y + 2 * x - 1).loadUnaligned(as: SIMD16<UInt8>.self), to: Lanes.self)
            let odd = rgb(_mm_slli_epi16(luma, 8), u.odd, v.odd)
            let even = rgb(_mm_and_si128(luma, splat(0xFF00)), u.even, v.even)
            // Bytes: the 8 odd pixels' then the 8 even pixels' values of each channel.
            let r = _mm_packus_epi16(odd.r, even.r), g = _mm_packus_epi16(odd.g, even.g)
            let b = _mm_packus_epi16(odd.b, even.b)
            let rgOdd = _mm_unpacklo_epi8(r, g), rgEven = _mm_unpackhi_epi8(r, g)
            let baOdd = _mm_unpacklo_epi8(b, opaque), baEven = _mm_unpackhi_epi8(b, opaque)
            let oddLow = _mm_unpacklo_epi16(rgOdd, baOdd), oddHigh = _mm_unpackhi_epi16(rgOdd, baOdd)
            let evenLow = _mm_unpacklo_epi16(rgEven, baEven), evenHigh = _mm_unpackhi_epi16(rgEven, baEven)
            let out = UnsafeMutableRawPointer(dst + 4 * (2 * x - 1))
            @inline(__always) func store(_ i: Int, _ v: Lanes) {
                out.storeBytes(of: unsafeBitCast(v, to: SIMD16<UInt8>.self), toByteOffset: 16 * i, as: SIMD16<UInt8>.self)
            }
            store(0, _mm_unpacklo_epi32(oddLow, evenLow))
            store(1, _mm_unpackhi_epi32(oddLow, evenLow))
            store(2, _mm_unpacklo_epi32(oddHigh, evenHigh))
            store(3, _mm_unpackhi_epi32(oddHigh, evenHigh))
            x &+= 8
        }
        return x
    }
}
#endif
