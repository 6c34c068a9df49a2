#if arch(x86_64)
import _Builtin_intrinsics.intel
#endif

/// CMYK (four-input) grids with a node's three outputs in one four-lane vector: a tetrahedron
/// is four vector reads and nine vector operations instead of twelve reads and twenty-seven
/// scalar operations. The arithmetic is ``ColorGridKernel/convertInkScalar(_:count:)``'s in
/// the same order, lane by lane (the fourth lane reads the next node's first output, or the
/// padding after the last node, and is dropped), so the bytes are the same:
/// `ColorGridSIMDTests` holds the two equal. On x86-64 four pixels' codes leave in one 16-byte
/// store (their conversions and packs are independent, where one pixel at a time put the pack,
/// the move to a general register and the store at the end of each pixel's chain).
extension ColorGridKernel {
    /// Tetrahedral interpolation as ``convertInkScalar(_:count:)`` does it, on vectors: from the
    /// lowest corner along the axes in order of decreasing fraction (ties as there).
    @inline(__always)
    private static func tetrahedral4(_ g: UnsafeRawPointer, _ base: Int, _ s0: Int, _ s1: Int, _ s2: Int,
                                     _ f0: Float, _ f1: Float, _ f2: Float) -> SIMD4<Float> {
        let (first, second, fa, fb, fc) = tetrahedronPath(s0, s1, s2, f0, f1, f2)
        let p0 = base, p1 = p0 &+ first, p2 = p0 &+ second, p3 = p0 &+ s0 &+ s1 &+ s2
        @inline(__always) func node(_ n: Int) -> SIMD4<Float> {
            g.loadUnaligned(fromByteOffset: n &* 4, as: SIMD4<Float>.self)
        }
        let v0 = node(p0), v1 = node(p1), v2 = node(p2), v3 = node(p3)
        return v0 + fa * (v1 - v0) + fb * (v2 - v1) + fc * (v3 - v2)
    }

    /// The first three lanes of `scaled` (in [0, 256)) truncated to bytes, alpha 255: one
    /// `cvttps2dq` and two packs on x86-64; lane by lane elsewhere (the standard library's
    /// vector conversion with a rounding rule makes generic calls per lane).
    @inline(__always)
    private static func opaqueCodes(_ scaled: SIMD4<Float>) -> UInt32 {
        #if arch(x86_64)
        let lanes = _mm_cvttps_epi32(scaled)
        let bytes = _mm_packus_epi16(_mm_packs_epi32(lanes, lanes), lanes)
        return UInt32(bitPattern: _mm_cvtsi128_si32(bytes)) | 0xFF00_0000
        #else
        return UInt32(UInt8(scaled[0])) | UInt32(UInt8(scaled[1])) << 8 | UInt32(UInt8(scaled[2])) << 16 | 0xFF00_0000
        #endif
    }

    /// One ink pixel's outputs, scaled to [0, 256) for truncation to codes.
    @inline(__always)
    private static func ink(_ g: UnsafeRawPointer, _ p: UnsafeMutablePointer<UInt8>, _ strides: (Int, Int, Int, Int),
                            _ cell: UnsafePointer<Int>, _ frac: UnsafePointer<Float>) -> SIMD4<Float> {
        let (sk, s0, s1, s2) = strides
        let a = Int(p[0]), b = Int(p[1]), d = Int(p[2]), e = Int(p[3])
        let base = cell[a] &* sk &+ cell[b] &* s0 &+ cell[d] &* s1 &+ cell[e] &* s2
        var v = tetrahedral4(g, base, s0, s1, s2, frac[b], frac[d], frac[e])
        let f = frac[a]
        if f > 0 {
            let hi = tetrahedral4(g, base &+ sk, s0, s1, s2, frac[b], frac[d], frac[e])
            v = v + (hi - v) * f
        }
        return v * 255 + 0.5
    }

    /// Four-input (interleaved CMYK ink) pixels to opaque RGBA8, in place, in vectors: on
    /// x86-64 four pixels' codes are packed into one 16-byte store.
    func convertInkSIMD(_ p: UnsafeMutablePointer<UInt8>, count: Int) {
        let strides = inkStrides
        nodes.withUnsafeBufferPointer { grid in
            cell8.withUnsafeBufferPointer { cell in
                fraction8.withUnsafeBufferPointer { frac in
                    let g = UnsafeRawPointer(grid.baseAddress!), raw = UnsafeMutableRawPointer(p)
                    let c = cell.baseAddress!, f = frac.baseAddress!
                    var i = 0
                    #if arch(x86_64)
                    let opaque = _mm_set1_epi32(Int32(bitPattern: 0xFF00_0000))
                    @inline(__always) func lanes(_ v: SIMD4<Float>) -> __m128i { _mm_cvttps_epi32(v) }
                    while i &+ 4 <= count {
                        let q = p + 4 &* i
                        let a = lanes(Self.ink(g, q, strides, c, f)), b = lanes(Self.ink(g, q + 4, strides, c, f))
                        let d = lanes(Self.ink(g, q + 8, strides, c, f)), e = lanes(Self.ink(g, q + 12, strides, c, f))
                        let codes = _mm_packus_epi16(_mm_packs_epi32(a, b), _mm_packs_epi32(d, e))
                        raw.storeBytes(of: _mm_or_si128(codes, opaque), toByteOffset: 4 &* i, as: __m128i.self)
                        i &+= 4
                    }
                    #endif
                    while i < count {
                        let v = Self.ink(g, p + 4 &* i, strides, c, f)
                        raw.storeBytes(of: Self.opaqueCodes(v).littleEndian, toByteOffset: 4 &* i, as: UInt32.self)
                        i &+= 1
                    }
                }
            }
        }
    }
}
