/// A colour lookup table: samples of an n-input function on a regular grid (ICC.1:2022
/// clauses 10.10 `lut16Type`, 10.11 `lut8Type`, 10.12.3 the CLUT of `lutAToBType`), with the
/// first input varying slowest. Evaluated as LittleCMS evaluates it: tetrahedral for three
/// inputs, linear for one, and for more (or two) linear along the first input between two
/// evaluations of the rest.
struct ICCGrid: Sendable {
    /// Grid points per input, each at least 2.
    let points: [Int]
    let outputCount: Int
    /// Samples normalised to [0, 1], `outputCount` per grid point.
    let values: [Double]
    /// Distance in `values` between neighbours along each input.
    let strides: [Int]

    init(points: [Int], outputCount: Int, values: [Double]) {
        self.points = points
        self.outputCount = outputCount
        self.values = values
        var strides = [Int](repeating: outputCount, count: points.count)
        var i = points.count - 2
        while i >= 0 {
            strides[i] = strides[i + 1] * points[i + 1]
            i -= 1
        }
        self.strides = strides
    }

    /// The sample count `∏ points × outputCount`, or nil when it overflows or exceeds `cap`.
    static func sampleCount(points: [Int], outputCount: Int, cap: Int) -> Int? {
        var n = outputCount
        for p in points {
            let (r, o) = n.multipliedReportingOverflow(by: p)
            guard !o, r <= cap else { return nil }
            n = r
        }
        return n
    }

    /// Interpolates at `input` (one value in [0, 1] per input) into `output`.
    func evaluate(_ input: [Double], into output: inout [Double]) {
        for k in 0..<outputCount { output[k] = 0 }
        accumulate(input, dimension: 0, base: 0, weight: 1, into: &output)
    }

    /// Adds `weight ×` the interpolated value of the sub-grid at `base` over inputs
    /// `dimension...` to `output`.
    private func accumulate(_ input: [Double], dimension: Int, base: Int, weight: Double, into output: inout [Double]) {
        let remaining = points.count - dimension
        if remaining == 3 {
            tetrahedral(input, dimension: dimension, base: base, weight: weight, into: &output)
            return
        }
        let (i, f) = cell(input[dimension], points[dimension])
        let lower = base + i * strides[dimension]
        if remaining == 1 {
            for k in 0..<outputCount {
                let a = values[lower + k]
                let b = f > 0 ? values[lower + strides[dimension] + k] : a
                output[k] += weight * (a + (b - a) * f)
            }
            return
        }
        accumulate(input, dimension: dimension + 1, base: lower, weight: weight * (1 - f), into: &output)
        if f > 0 {
            accumulate(input, dimension: dimension + 1, base: lower + strides[dimension], weight: weight * f, into: &output)
        }
    }

    /// Tetrahedral interpolation over the last three inputs: from the cell's lowest corner,
    /// step along the axes in order of decreasing fraction (ICC.1 Annex, and LittleCMS's
    /// `TetrahedralInterp16`).
    private func tetrahedral(_ input: [Double], dimension d: Int, base: Int, weight: Double, into output: inout [Double]) {
        var corner = base
        var axes: [(fraction: Double, stride: Int)] = []
        for a in d..<d + 3 {
            let (i, f) = cell(input[a], points[a])
            corner += i * strides[a]
            axes.append((f, f > 0 ? strides[a] : 0))
        }
        axes.sort { $0.fraction > $1.fraction }
        let c1 = corner + axes[0].stride, c2 = c1 + axes[1].stride, c3 = c2 + axes[2].stride
        let (f1, f2, f3) = (axes[0].fraction, axes[1].fraction, axes[2].fraction)
        for k in 0..<outputCount {
            let v0 = values[corner + k], v1 = values[c1 + k], v2 = values[c2 + k], v3 = values[c3 + k]
            output[k] += weight * (v0 + f1 * (v1 - v0) + f2 * (v2 - v1) + f3 * (v3 - v2))
        }
    }

    /// The grid cell below `x` along an input with `n` points, and the fraction into it.
    private func cell(_ x: Double, _ n: Int) -> (Int, Double) {
        let position = min(max(x, 0), 1) * Double(n - 1)
        let i = min(Int(position), n - 2)
        return (i, position - Double(i))
    }
}
