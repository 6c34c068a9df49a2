/// Estimated bits of residual bytes, per component, for choosing transform parameters: the
/// information content of each value under the counts of the residuals chosen so far (blended
/// with a prior that favours values near 0), in fixed point (``one`` = 1 bit).
struct VP8LResidualCosts {
    static let one = 256
    /// Counts per component (alpha, red, green, blue order of the ARGB bytes from the top).
    private var counts = [UInt32](repeating: 0, count: 4 * 256)
    /// Costs per component and value, refreshed from `counts`.
    private(set) var table = [Int32](repeating: 0, count: 4 * 256)
    /// The prior's counts: high near 0 (and 255, i.e. −1), low far from it.
    private static let prior: [Double] = (0..<256).map { v in
        let d = Double(min(v, 256 - v))
        return 1 + 48 / (1 + d)
    }

    init() { refresh() }

    /// Recomputes the costs from the counts so far.
    mutating func refresh() {
        for c in 0..<4 {
            var total = 0.0
            for v in 0..<256 { total += Double(counts[c * 256 + v]) + Self.prior[v] }
            let logTotal = VP8LLog.log2(total)
            for v in 0..<256 {
                let bits = logTotal - VP8LLog.log2(Double(counts[c * 256 + v]) + Self.prior[v])
                table[c * 256 + v] = Int32(bits * Double(Self.one))
            }
        }
    }

    /// The cost of the residuals `residual(i)` over a rectangle under the counts so far. (The
    /// rectangle's own entropy, added as libwebp does, made files larger here: tried and left out.)
    @inline(__always)
    func tileCost(_ p: UnsafePointer<UInt32>, width: Int, x0: Int, x1: Int, y0: Int, y1: Int,
                  _ residual: (Int) -> UInt32) -> Int {
        table.withUnsafeBufferPointer { t in
            var cost = 0
            for y in y0..<y1 {
                let row = y &* width
                for x in x0..<x1 {
                    let r = residual(row &+ x)
                    cost &+= Int(t[Int(r &>> 24)]) &+ Int(t[256 &+ Int((r &>> 16) & 0xFF)])
                        &+ Int(t[512 &+ Int((r &>> 8) & 0xFF)]) &+ Int(t[768 &+ Int(r & 0xFF)])
                }
            }
            return cost
        }
    }

    /// Counts the residuals of a rectangle.
    @inline(__always)
    mutating func record(_ p: UnsafePointer<UInt32>, width: Int, x0: Int, x1: Int, y0: Int, y1: Int,
                         _ residual: (Int) -> UInt32) {
        counts.withUnsafeMutableBufferPointer { c in
            for y in y0..<y1 {
                let row = y &* width
                for x in x0..<x1 {
                    let r = residual(row &+ x)
                    c[Int(r &>> 24)] &+= 1
                    c[256 &+ Int((r &>> 16) & 0xFF)] &+= 1
                    c[512 &+ Int((r &>> 8) & 0xFF)] &+= 1
                    c[768 &+ Int(r & 0xFF)] &+= 1
                }
            }
        }
    }
}
