#if arch(x86_64)
import _Builtin_intrinsics.intel

/// ``ColorGrid8`` in SSE2, the x86-64 baseline (clang's built-in intrinsics: no flags, no
/// native library), four pixels a step: each pixel's tetrahedron is found in scalars, its four
/// weights become floats at once (two 64-bit moves and one `cvtdq2ps`), the sum is four vector
/// multiplies and three adds, and the four pixels' codes are packed into one 16-byte store with
/// the source's alpha bytes. The scalar kernel (``ColorGrid8/applyScalar8(_:_:count:)``) is its
/// twin, run for the last pixels of a row, on other architectures and in unoptimised builds;
/// `ColorGridRGB8Tests` holds them equal on random grids and pixels.
enum ColorGrid8SSE2 {
    /// The pixel's outputs times 2¹⁶ in the first three lanes (``ColorGrid8/nodes``' units).
    @inline(__always)
    private static func sum(_ g: UnsafeRawPointer, _ e: UnsafePointer<UInt64>, _ p: UnsafePointer<UInt8>) -> __m128i {
        let t = ColorGrid8.tetrahedron(e, p[0], p[1], p[2])
        let low = Int64(t.w0) | Int64(t.w1) << 32, high = Int64(t.w2) | Int64(t.w3) << 32
        let w = _mm_cvtepi32_ps(_mm_set_epi64x(high, low))
        @inline(__always) func node(_ n: Int) -> SIMD4<Float> { g.load(fromByteOffset: n, as: SIMD4<Float>.self) }
        let v = (node(t.n0) * SIMD4(repeating: w[0]) + node(t.n1) * SIMD4(repeating: w[1]))
            + (node(t.n2) * SIMD4(repeating: w[2]) + node(t.n3) * SIMD4(repeating: w[3]))
        return _mm_cvttps_epi32(v)
    }

    /// Converts the first whole groups of four of `count` RGBA8 pixels from `src` to `dst`
    /// (alpha copied; they may be the same); returns how many it converted.
    static func apply8(_ grid: ColorGrid8, _ src: UnsafePointer<UInt8>, _ dst: UnsafeMutablePointer<UInt8>, count: Int) -> Int {
        let groups = count / 4
        grid.nodes.withUnsafeBytes { nodeBytes in
            grid.entries.withUnsafeBufferPointer { entryBuffer in
                let g = nodeBytes.baseAddress!, e = entryBuffer.baseAddress!
                let input = UnsafeRawPointer(src), output = UnsafeMutableRawPointer(dst)
                let alpha = _mm_set1_epi32(Int32(bitPattern: 0xFF00_0000))
                for k in 0..<groups {
                    let p = src + 16 &* k
                    let a = sum(g, e, p), b = sum(g, e, p + 4), c = sum(g, e, p + 8), d = sum(g, e, p + 12)
                    let codes = _mm_packus_epi16(_mm_packs_epi32(a, b), _mm_packs_epi32(c, d))
                    let pixels = input.loadUnaligned(fromByteOffset: 16 &* k, as: __m128i.self)
                    let out = _mm_or_si128(_mm_andnot_si128(alpha, codes), _mm_and_si128(alpha, pixels))
                    output.storeBytes(of: out, toByteOffset: 16 &* k, as: __m128i.self)
                }
            }
        }
        return groups &* 4
    }
}
#endif
