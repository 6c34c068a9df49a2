import Testing
@testable import CodecCore

/// The matrix kernel's two loops (``ColorMatrixKernel/packsTerms``: the three sums in one
/// 64-bit word, each term rounded to 1/32 of an index step for red and green and 1/64 for
/// blue; else 2.28 vector lanes) against the fixed-point sums written out here from their
/// definition (1.14 matrix and linear values, 2.28 offset with the shift's rounding, floor, the
/// sRGB table clipped to [0, 1]), on random pixels and every mix of the end and near-end
/// samples, in place and into other storage, with an odd count.
struct ColorMatrixKernelPathTests {
    /// P3-like, with a black point compensation offset: the narrow path.
    static let narrow = Matrix3(rows: [1.2249, -0.2247, 0.0], [-0.042, 1.0419, 0.0], [-0.0197, -0.0786, 1.0979])
    /// Reaching from −1.5 to 3.2 units of linear light: the wide path.
    static let wide = Matrix3(rows: [3.0, -1.5, 0.2], [-0.3, 2.5, -0.9], [0.1, -0.2, 1.1])

    static func expected(_ pixels: [UInt8], curves: [ICCCurve], matrix: Matrix3, offset: Vector3, packed: Bool) -> [UInt8] {
        let one = 16384.0
        let m = matrix.m.map { Int64(($0 * one).rounded()) }
        let o = [offset.x, offset.y, offset.z].map { Int64(($0 * one * one).rounded()) + 8192 }
        let linear = curves.map { c in (0..<256).map { Int64((c.evaluate(Double($0) / 255) * one).rounded()) } }
        var out = pixels
        for i in stride(from: 0, to: pixels.count, by: 4) {
            for c in 0..<3 {
                let terms = (0..<3).map { j in m[3 * c + j] * linear[j][Int(pixels[i + j])] + (j == 0 ? o[c] : 0) }
                let index: Int64
                if packed {
                    let fraction: Int64 = c == 2 ? 6 : 5, dropped = 14 - fraction
                    index = terms.map { ($0 + (1 << (dropped - 1))) >> dropped }.reduce(0, +) >> fraction
                } else {
                    index = terms.reduce(0, +) >> 14
                }
                out[i + c] = SRGBEncoding.table8[Int(min(max(index, 0), 16384))]
            }
        }
        return out
    }

    static func pixels() -> [UInt8] {
        let ends: [UInt8] = [0, 1, 2, 127, 128, 253, 254, 255]
        var out: [UInt8] = []
        for r in ends { for g in ends { for b in ends { out += [r, g, b, r &+ g &+ b] } } }
        var rng = SplitMix(seed: 23)
        out += (0..<4097 * 4).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
        return out
    }

    @Test(arguments: [(narrow, true), (wide, false)])
    func eachLoopGivesTheFixedPointSums(matrix: Matrix3, packed: Bool) throws {
        let curves: [ICCCurve] = [.gamma(2.2), .identity, .parametric(3, [2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045])]
        let offset = Vector3(0.0012, 0.0011, 0.0009)
        let kernel = try #require(ColorMatrixKernel(curves: curves, matrix: matrix, offset: offset))
        #expect(kernel.packsTerms == packed)
        let source = Self.pixels()
        let want = Self.expected(source, curves: curves, matrix: matrix, offset: offset, packed: packed)
        let count = source.count / 4
        var other = [UInt8](repeating: 0, count: source.count)
        var inPlace = source
        source.withUnsafeBufferPointer { s in other.withUnsafeMutableBufferPointer { kernel.apply8(s.baseAddress!, $0.baseAddress!, count: count) } }
        inPlace.withUnsafeMutableBufferPointer { kernel.apply8($0.baseAddress!, $0.baseAddress!, count: count) }
        #expect(other == want)
        #expect(inPlace == want)
    }
}
