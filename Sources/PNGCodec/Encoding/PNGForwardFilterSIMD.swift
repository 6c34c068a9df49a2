/// The forward filters (PNG 3rd edition §9.2–§9.4) sixteen bytes at a time, each fused with the
/// magnitude sum of its output (§12.8's minimum sum of absolute differences). Every predictor
/// reads only the unfiltered row and the row above, so the lanes are independent; the scalar
/// twin `PNGForwardFilter.filterAndScoreScalar` does the first `stride` bytes and the tail.
extension PNGForwardFilter {
    private typealias Bytes = SIMD16<UInt8>
    private typealias Wide = SIMD16<Int16>
    private static let lanes = 16
    /// Vectors summed in 16-bit lanes before they are flushed (≤ 128 each: 256 × 128 < 2¹⁶).
    private static let flushEvery = 256

    /// Writes filter `type`'s output of the `count`-byte row and returns its magnitude sum.
    @discardableResult
    static func filterAndScore(_ type: Int, row: UnsafePointer<UInt8>, previous: UnsafePointer<UInt8>,
                               count: Int, stride: Int, into out: UnsafeMutablePointer<UInt8>) -> Int {
        let head = min(stride, count)
        var sum = filterAndScoreScalar(type, row: row, previous: previous, from: 0, to: head, stride: stride, into: out)
        let end = head &+ (count &- head) / lanes &* lanes
        switch type {
        case 1: sum &+= vectorLoop(head, end, out) { i in load(row, i) &- load(row, i &- stride) }
        case 2: sum &+= vectorLoop(head, end, out) { i in load(row, i) &- load(previous, i) }
        case 3:
            sum &+= vectorLoop(head, end, out) { i in
                let a = load(row, i &- stride), b = load(previous, i)
                return load(row, i) &- ((a & b) &+ ((a ^ b) &>> 1))
            }
        case 4:
            sum &+= vectorLoop(head, end, out) { i in
                load(row, i) &- paeth(load(row, i &- stride), load(previous, i), load(previous, i &- stride))
            }
        default: sum &+= vectorLoop(head, end, out) { i in load(row, i) }
        }
        return sum &+ filterAndScoreScalar(type, row: row, previous: previous, from: end, to: count, stride: stride,
                                           into: out)
    }

    /// Stores `filtered(i)` at each vector offset in `start..<end` and sums min(v, 256 − v).
    @inline(__always)
    private static func vectorLoop(_ start: Int, _ end: Int, _ out: UnsafeMutablePointer<UInt8>,
                                   _ filtered: (Int) -> Bytes) -> Int {
        var sum = 0
        var acc = SIMD16<UInt16>()
        var pending = 0
        var i = start
        while i < end {
            let v = filtered(i)
            UnsafeMutableRawPointer(out + i).storeBytes(of: v, as: Bytes.self)
            let negated = Bytes() &- v
            acc &+= SIMD16<UInt16>(truncatingIfNeeded: v.replacing(with: negated, where: negated .< v))
            pending &+= 1
            if pending == flushEvery {
                sum &+= Int(SIMD16<UInt32>(truncatingIfNeeded: acc).wrappedSum())
                acc = SIMD16<UInt16>()
                pending = 0
            }
            i &+= lanes
        }
        return sum &+ Int(SIMD16<UInt32>(truncatingIfNeeded: acc).wrappedSum())
    }

    @inline(__always)
    private static func load(_ p: UnsafePointer<UInt8>, _ i: Int) -> Bytes {
        UnsafeRawPointer(p + i).loadUnaligned(as: Bytes.self)
    }

    /// §9.4's predictor per lane, in 16-bit lanes: pa = |b − c|, pb = |a − c|, pc = |a + b − 2c|.
    @inline(__always)
    private static func paeth(_ a8: Bytes, _ b8: Bytes, _ c8: Bytes) -> Bytes {
        let a = Wide(truncatingIfNeeded: a8), b = Wide(truncatingIfNeeded: b8), c = Wide(truncatingIfNeeded: c8)
        let da = b &- c, db = a &- c, dc = da &+ db
        let pa = magnitude(da), pb = magnitude(db), pc = magnitude(dc)
        var predictor = c
        predictor.replace(with: b, where: pb .<= pc)
        predictor.replace(with: a, where: (pa .<= pb) .& (pa .<= pc))
        return Bytes(truncatingIfNeeded: predictor)
    }

    @inline(__always)
    private static func magnitude(_ v: Wide) -> Wide { v.replacing(with: Wide() &- v, where: v .< Wide()) }
}
