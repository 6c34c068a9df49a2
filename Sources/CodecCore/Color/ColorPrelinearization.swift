/// LittleCMS's optimisation of an 8-bit RGB → RGB pipeline that is not matrix/TRC
/// (`OptimizeByComputingLinearization`), reproduced so that lookup-table RGB profiles match it:
/// per channel, the whole transform's response to a gray ramp (4096 points, its ends
/// slope-limited) becomes a prelinearisation curve; the device link grid is sampled through
/// the inverse of those curves; each 8-bit pixel goes through the curves, then the grid. Where
/// the transform is nearly linear along gray this puts the grid's nodes where the output
/// changes, which is what makes LittleCMS's 8-bit results differ from plain resampling.
/// The curves are used on 8-bit pixels only (``ColorGrid8``).
enum ColorPrelinearization {
    static let points = 4096

    /// The curves of `encoded` (device RGB in [0, 1] to encoded sRGB in [0, 1]) along gray,
    /// or nil when one is not monotonic or is degenerate (LittleCMS then resamples plainly).
    static func curves(_ encoded: ([Double]) -> [Double]) -> [[Int]]? {
        let n = points
        var curves = [[Int]](repeating: [Int](repeating: 0, count: n), count: 3)
        for i in 0..<n {
            let v = Double(i) / Double(n - 1)
            let out = encoded([v, v, v])
            for t in 0..<3 { curves[t][i] = quantize(out[t] * 65535) }
        }
        for t in 0..<3 {
            limitSlopes(&curves[t])
            guard isMonotonic(curves[t]), !isDegenerate(curves[t]) else { return nil }
        }
        return curves
    }

    /// Each curve at the 256 8-bit codes (as 16-bit values, `v · 257`), in 16-bit integers as
    /// LittleCMS evaluates a table curve (`LinLerp1D`): what ``ColorGrid8`` places on
    /// the grid's axes.
    static func inputs8(_ curves: [[Int]]) -> [[Int]] {
        curves.map { table in
            (0..<256).map { v in
                let x = v * 257, last = table.count - 1
                guard x < 0xFFFF else { return table[last] }
                let fixed = ColorGrid8.toFixedDomain(x * last)
                let cell = fixed >> 16, rest = fixed & 0xFFFF
                return table[cell] + (((table[cell + 1] - table[cell]) * rest + 0x8000) >> 16)
            }
        }
    }

    /// The inverse of each curve, as a 4096-entry 16-bit table (LittleCMS's `cmsReverseToneCurveEx`).
    static func inverses(_ curves: [[Int]]) -> [[Int]] {
        curves.map { c in
            let n = c.count, ascending = c[0] <= c[n - 1]
            var (a, b) = (0.0, 0.0)
            return (0..<points).map { i in
                let y = Double(i) * 65535 / Double(points - 1)
                if let j = interval(y, c) {
                    let (x1, x2) = (Double(c[j]), Double(c[j + 1]))
                    let y1 = Double(j) * 65535 / Double(n - 1), y2 = Double(j + 1) * 65535 / Double(n - 1)
                    if x1 == x2 { return quantize(ascending ? y2 : y1) }
                    a = (y2 - y1) / (x2 - x1)
                    b = y2 - a * x2
                }
                return quantize(a * y + b)
            }
        }
    }

    /// A 16-bit table at a 16-bit input, linearly interpolated.
    static func evaluate(_ table: [Int], at x: Int) -> Int {
        let position = Double(x) * Double(table.count - 1) / 65535
        let i = min(Int(position), table.count - 2)
        let f = position - Double(i)
        return quantize(Double(table[i]) + Double(table[i + 1] - table[i]) * f)
    }

    /// The first interval `[j, j + 1]` of `c` that holds `y` (either direction), or nil.
    private static func interval(_ y: Double, _ c: [Int]) -> Int? {
        for j in 0..<(c.count - 1) {
            let (lo, hi) = (Double(min(c[j], c[j + 1])), Double(max(c[j], c[j + 1])))
            if y >= lo && y <= hi { return j }
        }
        return nil
    }

    /// LittleCMS's `SlopeLimiting`: the first and last 2 % of the curve become straight lines
    /// to its ends.
    private static func limitSlopes(_ c: inout [Int]) {
        let n = c.count
        let atBegin = Int((Double(n) * 0.02 + 0.5).rounded(.down)), atEnd = n - atBegin - 1
        let descending = c[0] > c[n - 1]
        let (beginValue, endValue) = descending ? (65535.0, 0.0) : (0.0, 65535.0)
        var value = Double(c[atBegin])
        var slope = (value - beginValue) / Double(atBegin)
        var beta = value - slope * Double(atBegin)
        for i in 0..<atBegin { c[i] = quantize(Double(i) * slope + beta) }
        value = Double(c[atEnd])
        slope = (endValue - value) / Double(atBegin)
        beta = value - slope * Double(atEnd)
        for i in atEnd..<n { c[i] = quantize(Double(i) * slope + beta) }
    }

    /// LittleCMS's `cmsIsToneCurveMonotonic`: ripples of up to 2 allowed.
    private static func isMonotonic(_ c: [Int]) -> Bool {
        if c[0] > c[c.count - 1] {
            var last = c[0]
            for v in c.dropFirst() {
                if v - last > 2 { return false }
                last = v
            }
        } else {
            var last = c[c.count - 1]
            for v in c.dropLast().reversed() {
                if v - last > 2 { return false }
                last = v
            }
        }
        return true
    }

    /// LittleCMS's `IsDegenerated`: more than 5 % of the entries at 0 or at 65535.
    private static func isDegenerate(_ c: [Int]) -> Bool {
        let zeros = c.filter { $0 == 0 }.count, poles = c.filter { $0 == 65535 }.count
        if zeros == 1 && poles == 1 { return false }
        return zeros > c.count / 20 || poles > c.count / 20
    }

    /// Rounds to a 16-bit value, saturating (`_cmsQuickSaturateWord`).
    static func quantize(_ v: Double) -> Int {
        guard v.isFinite else { return 0 }
        return Int(min(max(v + 0.5, 0), 65535))
    }
}
