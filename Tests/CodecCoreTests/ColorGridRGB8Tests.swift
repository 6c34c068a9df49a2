import Testing
@testable import CodecCore

/// The SSE2 grid kernel (``ColorGrid8SSE2``) against its scalar twin
/// (``ColorGrid8/applyScalar8(_:_:count:)``): on random grids, including nodes at 0 and 65535
/// side by side (the steepest cells), on a smooth grid through prelinearisation-like inputs,
/// and on random pixels plus every mix of end samples (a count that leaves a partial group of
/// four), in place and into other storage; and the scalar kernel against the tetrahedral sum
/// worked out in doubles from the 16-bit nodes, which it may miss by one code at most.
struct ColorGridRGB8Tests {
    static func grids() -> [ColorGrid8] {
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
            ColorGrid8(points: points, nodes: random, inputs: plain),
            ColorGrid8(points: points, nodes: extremes, inputs: bent),
            ColorGrid8(points: points, nodes: smooth, inputs: bent),
            ColorGrid8(points: 2, nodes: (0..<24).map { _ -> Double in Double(rng.next() % 65536) / 65535 }, inputs: plain),
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

    /// Runs the vector kernel over `count` pixels and the scalar one over the partial group left.
    #if arch(x86_64)
    static func applyVector(_ grid: ColorGrid8, _ src: UnsafePointer<UInt8>, _ dst: UnsafeMutablePointer<UInt8>, count: Int) {
        let done = ColorGrid8SSE2.apply8(grid, src, dst, count: count)
        grid.applyScalar8(src + 4 * done, dst + 4 * done, count: count - done)
    }

    @Test func vectorKernelEqualsScalarKernel() {
        let source = Self.pixels(), count = source.count / 4
        #expect(count % 4 != 0)
        for grid in Self.grids() {
            var want = [UInt8](repeating: 0, count: source.count), other = want
            var inPlace = source
            source.withUnsafeBufferPointer { s in
                want.withUnsafeMutableBufferPointer { grid.applyScalar8(s.baseAddress!, $0.baseAddress!, count: count) }
                other.withUnsafeMutableBufferPointer { Self.applyVector(grid, s.baseAddress!, $0.baseAddress!, count: count) }
            }
            inPlace.withUnsafeMutableBufferPointer { Self.applyVector(grid, $0.baseAddress!, $0.baseAddress!, count: count) }
            #expect(other == want)
            #expect(inPlace == want)
        }
    }
    #endif

    /// A grid of an affine function (red, green, and the mean of the three), which tetrahedral
    /// interpolation reproduces between the nodes: every pixel comes out as the function's code,
    /// within one (the nodes' 16-bit rounding and the single rounding to 8 bits), alpha kept.
    @Test func interpolatesAnAffineGrid() {
        let points = 17, last = Double(points - 1)
        var nodes: [Double] = []
        for i in 0..<points { for j in 0..<points { for l in 0..<points {
            let x = Double(i) / last, y = Double(j) / last, z = Double(l) / last
            nodes += [x, y, (x + y + z) / 3]
        } } }
        let grid = ColorGrid8(points: points, nodes: nodes, inputs: [[Int]](repeating: (0..<256).map { $0 * 257 }, count: 3))
        let source = Self.pixels(), count = source.count / 4
        var out = [UInt8](repeating: 0, count: source.count)
        source.withUnsafeBufferPointer { s in out.withUnsafeMutableBufferPointer { grid.applyScalar8(s.baseAddress!, $0.baseAddress!, count: count) } }
        var worst = 0
        for i in 0..<count {
            let r = Double(source[4 * i]), g = Double(source[4 * i + 1]), b = Double(source[4 * i + 2])
            let want = [r, g, ((r + g + b) / 3).rounded()]
            for c in 0..<3 { worst = max(worst, abs(Int(out[4 * i + c]) - Int(want[c]))) }
            #expect(out[4 * i + 3] == source[4 * i + 3])
        }
        #expect(worst <= 1)
    }
}
