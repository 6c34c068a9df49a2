import Testing
@testable import CodecCore

/// The SSE2 grid kernel (``ColorGridInteger8SSE2``) against its scalar twin
/// (``ColorGridInteger8/applyScalar8(_:_:count:)``): on random grids, including nodes at 0
/// and 65535 side by side (the steepest cells, whose sums wrap in 32 bits), on a smooth grid
/// through prelinearisation-like inputs, and on random pixels plus every mix of end samples,
/// in place and into other storage.
struct ColorGridSSE2Tests {
    static func grids() -> [ColorGridInteger8] {
        var rng = SplitMix(seed: 31)
        let points = 33, total = points * points * points * 3
        let random = (0..<total).map { _ -> Double in Double(rng.next() % 65536) / 65535 }
        let extremes = (0..<total).map { _ -> Double in rng.next() % 2 == 0 ? 0 : 1 }
        let smooth = (0..<total).map { (i: Int) -> Double in
            let along = Double((i / 3) % points) / Double(points - 1)
            return along * 0.8 + Double(i % 3) * 0.05
        }
        let plain = [[Int]](repeating: (0..<256).map { $0 * 257 }, count: 3)
        let bent = (0..<3).map { (c: Int) -> [Int] in
            (0..<256).map { (v: Int) -> Int in Int((ICCMath.pow(Double(v) / 255, 1 + Double(c) * 0.4) * 65535).rounded()) }
        }
        return [
            ColorGridInteger8(points: points, nodes: random, inputs: plain),
            ColorGridInteger8(points: points, nodes: extremes, inputs: bent),
            ColorGridInteger8(points: points, nodes: smooth, inputs: bent),
            ColorGridInteger8(points: 2, nodes: (0..<24).map { _ -> Double in Double(rng.next() % 65536) / 65535 }, inputs: plain),
        ]
    }

    static func pixels() -> [UInt8] {
        let ends: [UInt8] = [0, 1, 2, 7, 8, 127, 128, 247, 248, 253, 254, 255]
        var out: [UInt8] = []
        for r in ends { for g in ends { for b in ends { out += [r, g, b, r ^ b] } } }
        var rng = SplitMix(seed: 37)
        out += (0..<6001 * 4).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
        return out
    }

    #if arch(x86_64)
    @Test func vectorKernelEqualsScalarKernel() {
        let source = Self.pixels(), count = source.count / 4
        for grid in Self.grids() {
            var want = [UInt8](repeating: 0, count: source.count), other = want
            var inPlace = source
            source.withUnsafeBufferPointer { s in
                want.withUnsafeMutableBufferPointer { grid.applyScalar8(s.baseAddress!, $0.baseAddress!, count: count) }
                other.withUnsafeMutableBufferPointer { ColorGridInteger8SSE2.apply8(grid, s.baseAddress!, $0.baseAddress!, count: count) }
            }
            inPlace.withUnsafeMutableBufferPointer { ColorGridInteger8SSE2.apply8(grid, $0.baseAddress!, $0.baseAddress!, count: count) }
            #expect(other == want)
            #expect(inPlace == want)
        }
    }
    #endif
}
