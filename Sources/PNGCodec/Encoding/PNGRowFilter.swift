/// Chooses and applies a filter to each scanline (PNG 3rd edition §7.3 and §9; §12.8 gives the
/// heuristics): holds the row being packed, the row above, and one output per filter type.
final class PNGRowFilter {
    /// How a row's filter type is chosen.
    enum Strategy: Equatable {
        /// The same type on every row.
        case fixed(UInt8)
        /// The type whose output has the smallest sum of magnitudes, bytes read as signed
        /// (§12.8's "minimum sum of absolute differences").
        case minimumSum
        /// The type whose output bytes have the smallest Shannon entropy (order 0).
        case minimumEntropy
    }

    let strategy: Strategy
    let stride: Int
    private(set) var rowBytes: Int
    private let capacity: Int
    /// The row being packed, then filtered; the reconstructed row above (zero at a pass's start).
    private var current: UnsafeMutablePointer<UInt8>
    private var previous: UnsafeMutablePointer<UInt8>
    /// Filter-type byte, then the filtered row, for each type 0–4.
    private let outputs: UnsafeMutablePointer<UInt8>
    private var histogram = [Int](repeating: 0, count: 256)

    /// Rows of up to `capacity` bytes with filter distance `stride`.
    init(strategy: Strategy, stride: Int, capacity: Int) {
        self.strategy = strategy
        self.stride = stride
        self.capacity = max(capacity, 1)
        rowBytes = capacity
        current = .allocate(capacity: self.capacity)
        previous = .allocate(capacity: self.capacity)
        outputs = .allocate(capacity: 5 * (self.capacity + 1))
        current.initialize(repeating: 0, count: self.capacity)
        previous.initialize(repeating: 0, count: self.capacity)
        outputs.initialize(repeating: 0, count: 5 * (self.capacity + 1))
    }

    deinit {
        current.deallocate()
        previous.deallocate()
        outputs.deallocate()
    }

    /// Starts an image or an Adam7 pass with rows of `rowBytes` bytes: the row above is zero.
    func startPass(rowBytes: Int) {
        self.rowBytes = min(rowBytes, capacity)
        previous.update(repeating: 0, count: capacity)
    }

    /// Where the caller packs the next row (``rowBytes`` bytes).
    var row: UnsafeMutablePointer<UInt8> { current }

    /// Filters the packed row and returns the filter-type byte and the filtered bytes; the row
    /// becomes the row above for the next one.
    func filterRow() -> UnsafeRawBufferPointer {
        let n = rowBytes
        let type: Int
        switch strategy {
        case .fixed(let t):
            type = Int(t)
            _ = apply(type)
        case .minimumSum, .minimumEntropy:
            var best = Int.max, bestType = 0
            for t in 0..<5 {
                let sum = apply(t)
                let score = strategy == .minimumSum ? sum : entropyCost(output(t) + 1, n)
                if score < best {
                    best = score
                    bestType = t
                }
            }
            type = bestType
        }
        swap(&current, &previous)
        return UnsafeRawBufferPointer(start: output(type), count: n + 1)
    }

    @inline(__always)
    private func output(_ type: Int) -> UnsafeMutablePointer<UInt8> { outputs + type &* (capacity &+ 1) }

    /// Writes filter `type`'s output of the current row and returns its magnitude sum.
    private func apply(_ type: Int) -> Int {
        let out = output(type)
        out[0] = UInt8(type)
        return PNGForwardFilter.filterAndScore(type, row: current, previous: previous, count: rowBytes,
                                               stride: stride, into: out + 1)
    }

    /// n·log2(n) − Σ c·log2(c) over the byte histogram (the row's order-0 entropy in bits),
    /// in 1/65536 bits.
    private func entropyCost(_ p: UnsafePointer<UInt8>, _ n: Int) -> Int {
        histogram.withUnsafeMutableBufferPointer { h in
            h.update(repeating: 0)
            for i in 0..<n { h[Int(p[i])] &+= 1 }
            var bits = n &* Self.log2Fixed(n)
            for c in h where c > 1 { bits &-= c &* Self.log2Fixed(c) }
            return bits
        }
    }

    /// log2(v) for v ≥ 1 in 1/65536 units, linear between powers of two (error below 0.09).
    @inline(__always)
    static func log2Fixed(_ v: Int) -> Int {
        let e = Int.bitWidth &- 1 &- v.leadingZeroBitCount
        let fraction = e >= 16 ? (v >> (e &- 16)) & 0xFFFF : (v << (16 &- e)) & 0xFFFF
        return e << 16 | fraction
    }
}

/// The five filter types in the encoding direction (PNG 3rd edition §9.2–§9.4):
/// Filt(x) = Orig(x) − predictor, each fused with the output's magnitude sum Σ min(v, 256 − v)
/// (§12.8). `PNGForwardFilterSIMD.swift` holds the vector kernels; these scalar loops are their
/// twins and finish the bytes the vectors leave.
enum PNGForwardFilter {
    /// Writes filter `type`'s output for bytes `from..<to` of the row and returns their magnitude
    /// sum; bytes before `stride` have a zero left neighbour.
    static func filterAndScoreScalar(_ type: Int, row: UnsafePointer<UInt8>, previous: UnsafePointer<UInt8>,
                                     from: Int, to: Int, stride: Int, into out: UnsafeMutablePointer<UInt8>) -> Int {
        var sum = 0
        var i = from
        while i < to {
            let x = row[i], b = previous[i]
            let a: UInt8 = i >= stride ? row[i &- stride] : 0
            let v: UInt8
            switch type {
            case 1: v = x &- a
            case 2: v = x &- b
            case 3: v = x &- UInt8((UInt16(a) &+ UInt16(b)) >> 1)
            case 4: v = x &- paethPredictor(a, b, i >= stride ? previous[i &- stride] : 0)
            default: v = x
            }
            out[i] = v
            sum &+= v < 128 ? Int(v) : 256 &- Int(v)
            i &+= 1
        }
        return sum
    }

    /// §9.4: the one of a (left), b (above), c (upper left) nearest to a + b − c.
    @inline(__always)
    static func paethPredictor(_ a: UInt8, _ b: UInt8, _ c: UInt8) -> UInt8 {
        let ia = Int(a), ib = Int(b), ic = Int(c)
        let p = ia &+ ib &- ic
        let pa = abs(p &- ia), pb = abs(p &- ib), pc = abs(p &- ic)
        if pa <= pb && pa <= pc { return a }
        return pb <= pc ? b : c
    }
}
