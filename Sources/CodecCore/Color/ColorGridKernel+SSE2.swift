#if arch(x86_64)
import _Builtin_intrinsics.intel

/// ``ColorGridInteger8`` in SSE2, the x86-64 baseline (clang's built-in intrinsics: no flags,
/// no native library): the cell and the tetrahedron's path are found in scalars as there, then
/// the three outputs are interpolated at once in vector lanes. The scalar kernel
/// (``ColorGridInteger8/applyScalar8(_:_:count:)``) is its twin, run on other architectures
/// and in unoptimised builds; `ColorGridSSE2Tests` holds them equal on random grids and pixels.
///
/// LittleCMS's sum `Σ (v₁ − v₀)·f` is taken as `v₁·(fa − fb) + v₂·(fb − fc) + v₃·fc − v₀·fa`,
/// the same integer modulo 2³²: every weight and node is then an unsigned 16-bit value, so
/// the twelve products are two multiplies (`pmullw`, `pmulhuw`) of two nodes by two weights a
/// register, interleaved into 32-bit lanes. SSE2 has no 32-bit multiply (`pmulld` is SSE4.1).
/// LittleCMS's narrowing `(v · 65281 + 2²³) >> 24` is `(mulhi(v, 65281) + 128) >> 8` in 16
/// bits (the low half of the product cannot carry past the 2¹⁶ boundary the rounding adds).
enum ColorGridInteger8SSE2 {
    /// Whether conversions use this kernel: in optimised builds (the intrinsics are calls in
    /// unoptimised ones). The twin test runs it in every build.
    #if DEBUG
    static let isPreferred = false
    #else
    static let isPreferred = true
    #endif

    /// `w` in each of four 16-bit lanes of a 64-bit word.
    @inline(__always)
    private static func spread(_ w: Int) -> Int64 {
        Int64(w) &* 0x0001_0001_0001_0001
    }

    /// RGBA8 pixels from `src` to `dst` through `grid` (alpha copied; they may be the same).
    static func apply8(_ grid: ColorGridInteger8, _ src: UnsafePointer<UInt8>, _ dst: UnsafeMutablePointer<UInt8>, count: Int) {
        grid.nodes.withUnsafeBufferPointer { nodeBuffer in
            grid.entries.withUnsafeBufferPointer { entryBuffer in
                let g = nodeBuffer.baseAddress!, e = entryBuffer.baseAddress!
                let input = UnsafeRawPointer(src), output = UnsafeMutableRawPointer(dst)
                let zero = _mm_setzero_si128(), rounding = _mm_set1_epi32(0x8001)
                let low16 = _mm_set1_epi32(0xFFFF), narrowing = _mm_set1_epi16(-255), half = _mm_set1_epi16(128)
                for i in 0..<count {
                    let pixel = UInt32(littleEndian: input.loadUnaligned(fromByteOffset: i &* 4, as: UInt32.self))
                    let c = ColorGridInteger8.cell(pixel, e)
                    let n0 = Int64(bitPattern: g[c.base]), n1 = Int64(bitPattern: g[c.base &+ c.first])
                    let n2 = Int64(bitPattern: g[c.base &+ c.second]), n3 = Int64(bitPattern: g[c.base &+ c.last])
                    let a = _mm_set_epi64x(n1, n0), b = _mm_set_epi64x(n3, n2)
                    let wa = _mm_set_epi64x(spread(c.fa &- c.fb), spread(c.fa))
                    let wb = _mm_set_epi64x(spread(c.fc), spread(c.fb &- c.fc))
                    let loA = _mm_mullo_epi16(a, wa), hiA = _mm_mulhi_epu16(a, wa)
                    let loB = _mm_mullo_epi16(b, wb), hiB = _mm_mulhi_epu16(b, wb)
                    let p0 = _mm_unpacklo_epi16(loA, hiA), p1 = _mm_unpackhi_epi16(loA, hiA)
                    let p2 = _mm_unpacklo_epi16(loB, hiB), p3 = _mm_unpackhi_epi16(loB, hiB)
                    let rest = _mm_add_epi32(_mm_sub_epi32(_mm_add_epi32(_mm_add_epi32(p1, p2), p3), p0), rounding)
                    let step = _mm_srai_epi32(_mm_add_epi32(rest, _mm_srai_epi32(rest, 16)), 16)
                    let v = _mm_and_si128(_mm_add_epi32(_mm_unpacklo_epi16(a, zero), step), low16)
                    let narrowed = _mm_srli_epi16(_mm_add_epi16(_mm_mulhi_epu16(v, narrowing), half), 8)
                    let bytes = _mm_packus_epi16(_mm_packs_epi32(narrowed, zero), zero)
                    let out = UInt32(bitPattern: _mm_cvtsi128_si32(bytes)) & 0x00FF_FFFF | pixel & 0xFF00_0000
                    output.storeBytes(of: out.littleEndian, toByteOffset: i &* 4, as: UInt32.self)
                }
            }
        }
    }
}
#endif
