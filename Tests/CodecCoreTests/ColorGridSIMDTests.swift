import Testing
@testable import CodecCore

/// The vector CMYK grid kernel (``ColorGridKernel/convertInkSIMD(_:count:)``) against its
/// scalar twin (``ColorGridKernel/convertInkScalar(_:count:)``): the two CMYK fixtures'
/// device links and a synthetic grid, on random inks plus every mix of end and cell-edge
/// amounts (fractions of 0, ties between inputs, the top cell), a count that leaves a partial
/// group of four after the vector kernel's groups.
struct ColorGridSIMDTests {
    static func inks() -> [UInt8] {
        let ends: [UInt8] = [0, 1, 15, 16, 17, 128, 239, 240, 254, 255]
        var out: [UInt8] = []
        for c in ends { for m in ends { for y in ends { for k in ends { out += [c, m, y, k] } } } }
        var rng = SplitMix(seed: 41)
        out += (0..<8191 * 4).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
        return out
    }

    static func grids() throws -> [ColorGridKernel] {
        var grids: [ColorGridKernel] = []
        for fixture in ["cmyk-v4-xyz.jpg", "cmyk-v2-lab.jpg"] {
            let transform = try ColorTransform(profile: ICCProfile(bytes: ICCProfileTests.profile(fixture)))
            guard let grid = transform.kernel.grid else { throw ColorGridSIMDError.notAGrid }
            grids.append(grid)
        }
        grids.append(ColorGridKernel(dimensions: 4, points: 17) { (d: [Double]) -> Vector3 in
            let k = 1 - d[0]
            return Vector3((1 - d[1]) * k, (1 - d[2] * 0.9) * k, (1 - d[3]) * k * 0.97)
        })
        return grids
    }

    @Test func vectorKernelEqualsScalarKernel() throws {
        let source = Self.inks(), count = source.count / 4
        for grid in try Self.grids() {
            var scalar = source, vector = source
            scalar.withUnsafeMutableBufferPointer { grid.convertInkScalar($0.baseAddress!, count: count) }
            vector.withUnsafeMutableBufferPointer { grid.convertInkSIMD($0.baseAddress!, count: count) }
            #expect(vector == scalar)
        }
    }
}

enum ColorGridSIMDError: Error {
    case notAGrid
}
