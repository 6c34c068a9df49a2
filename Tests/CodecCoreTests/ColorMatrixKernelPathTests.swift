import Testing
@testable import CodecCore

/// The matrix kernel's two loops (``ColorMatrixKernel/indexShift`` 16: terms scaled by 4 and
/// the index read as a 16-bit lane; 14: plain terms shifted) against the fixed-point sums
/// written out here from their definition (1.14 matrix and linear values, 2.28 offset with
/// the shift's rounding, floor, the sRGB table clipped to [0, 1]), on random pixels and every
/// mix of the end and near-end samples, in place and into other storage, with an odd count.
struct ColorMatrixKernelPathTests {
    /// P3-like, with a black point compensation offset: the narrow path.
    static let narrow = Matrix3(rows: [1.2249, -0.2247, 0.0], [-0.042, 1.0419, 0.0], [-0.0197, -0.0786, 1.0979])
    /// Reaching from −1.5 to 3.2 units of linear light: the wide path.
    static let wide = Matrix3(rows: [3.0, -1.5, 0.2], [-0.3, 2.5, -0.9], [0.1, -0.2, 1.1])

    static func expected(_ pixels: [UInt8], curves: [ICCCurve], matrix: Matrix3, offset: Vector3) -> [UInt8] {
        let one = 16384.0
        let m = matrix.m.map { Int64(($0 * one).rounded()) }
        let o = [offset.x, offset.y, offset.z].map { Int64(($0 * one * one).rounded()) + 8192 }
        let linear = curves.map { c in (0..<256).map { Int64((c.evaluate(Double($0) / 255) * one).rounded()) } }
        var out = pixels
        for i in stride(from: 0, to: pixels.count, by: 4) {
            for c in 0..<3 {
                let sum = (0..<3).reduce(o[c]) { $0 + m[3 * c + $1] * linear[$1][Int(pixels[i + $1])] }
                out[i + c] = SRGBEncoding.table8[Int(min(max(sum >> 14, 0), 16384))]
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

    @Test(arguments: [(narrow, 16), (wide, 14)])
    func eachLoopGivesTheFixedPointSums(matrix: Matrix3, shift: Int) throws {
        let curves: [ICCCurve] = [.gamma(2.2), .identity, .parametric(3, [2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045])]
        let offset = Vector3(0.0012, 0.0011, 0.0009)
        let kernel = try #require(ColorMatrixKernel(curves: curves, matrix: matrix, offset: offset))
        #expect(kernel.indexShift == shift)
        let source = Self.pixels()
        let want = Self.expected(source, curves: curves, matrix: matrix, offset: offset)
        let count = source.count / 4
        var other = [UInt8](repeating: 0, count: source.count)
        var inPlace = source
        source.withUnsafeBufferPointer { s in other.withUnsafeMutableBufferPointer { kernel.apply8(s.baseAddress!, $0.baseAddress!, count: count) } }
        inPlace.withUnsafeMutableBufferPointer { kernel.apply8($0.baseAddress!, $0.baseAddress!, count: count) }
        #expect(other == want)
        #expect(inPlace == want)
    }
}
