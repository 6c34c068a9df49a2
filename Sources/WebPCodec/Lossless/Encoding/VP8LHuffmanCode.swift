import CodecCore

/// A canonical prefix code built for a histogram (RFC 9649 section 3.7.2.1.1), ready to write
/// symbols with an ``LSBBitWriter``: `codes` holds each symbol's code bit-reversed (the stream
/// takes a code's first bit first, the writer the value's lowest bit first), `bitLengths` the
/// bits written per symbol. A code of one used symbol takes zero bits: its `lengths` (what the
/// header says) give it length 1 and its `bitLengths` 0, as the decoder reads it.
struct VP8LHuffmanCode {
    /// Code lengths as the header states them, one per symbol of the alphabet (0 = unused).
    var lengths: [UInt8]
    /// Bits per symbol in the stream.
    var bitLengths: [UInt8]
    /// Bit-reversed codes.
    var codes: [UInt16]
    /// The used symbols: 0 (an empty histogram), 1 or more.
    var usedCount: Int

    /// The code of `histogram`, no code longer than `maxLength` (15, or 7 for the code length
    /// code).
    init(histogram: UnsafeBufferPointer<UInt32>, maxLength: Int) {
        let size = histogram.count
        lengths = [UInt8](repeating: 0, count: size)
        codes = [UInt16](repeating: 0, count: size)
        var used: [Int32] = []
        for s in 0..<size where histogram[s] != 0 { used.append(Int32(s)) }
        usedCount = used.count
        if used.count <= 1 {
            if let only = used.first { lengths[Int(only)] = 1 }
            bitLengths = [UInt8](repeating: 0, count: size)
            return
        }
        var countMin: UInt32 = 1
        while true {
            if Self.assignLengths(used: used, histogram: histogram, countMin: countMin, maxLength: maxLength,
                                  lengths: &lengths) { break }
            countMin = countMin &* 2
        }
        bitLengths = lengths
        Self.assignCodes(lengths: lengths, codes: &codes)
    }

    /// Huffman code lengths of the `used` symbols with every count raised to at least
    /// `countMin` (raising small counts flattens the tree); false when one exceeds `maxLength`.
    private static func assignLengths(used: [Int32], histogram: UnsafeBufferPointer<UInt32>, countMin: UInt32,
                                      maxLength: Int, lengths: inout [UInt8]) -> Bool {
        let n = used.count
        // Leaves sorted by weight, then symbol: the two-queue construction needs them ascending.
        var leaves = used.map { (weight: UInt64(max(histogram[Int($0)], countMin)), symbol: $0) }
        leaves.sort { $0.weight != $1.weight ? $0.weight < $1.weight : $0.symbol < $1.symbol }
        var weight = [UInt64](repeating: 0, count: 2 * n - 1)
        var parent = [Int32](repeating: 0, count: 2 * n - 1)
        for i in 0..<n { weight[i] = leaves[i].weight }
        var leaf = 0, node = n
        var next = n
        func take() -> Int {
            if leaf < n && (node >= next || weight[leaf] <= weight[node]) {
                leaf += 1
                return leaf - 1
            }
            node += 1
            return node - 1
        }
        while next < 2 * n - 1 {
            let a = take(), b = take()
            weight[next] = weight[a] + weight[b]
            parent[a] = Int32(next)
            parent[b] = Int32(next)
            next += 1
        }
        var depth = [UInt8](repeating: 0, count: 2 * n - 1)
        for i in stride(from: 2 * n - 3, through: 0, by: -1) {
            depth[i] = depth[Int(parent[i])] &+ 1
            if i < n && Int(depth[i]) > maxLength { return false }
        }
        for i in 0..<n { lengths[Int(leaves[i].symbol)] = depth[i] }
        return true
    }

    /// Canonical codes (RFC 9649 3.7.2.1.1: shorter codes first, then by symbol), bit-reversed.
    static func assignCodes(lengths: [UInt8], codes: inout [UInt16]) {
        var count = [Int](repeating: 0, count: 16)
        for l in lengths { count[Int(l)] += 1 }
        count[0] = 0
        var next = [Int](repeating: 0, count: 17)
        var code = 0
        for l in 1...15 {
            code = (code + count[l - 1]) << 1
            next[l] = code
        }
        for s in lengths.indices where lengths[s] != 0 {
            let l = Int(lengths[s])
            codes[s] = UInt16(truncatingIfNeeded: VP8LPrefixCode.reverseBits(next[l], l))
            next[l] += 1
        }
    }

    /// Writes `symbol`.
    @inline(__always)
    func write(_ symbol: Int, to writer: inout LSBBitWriter) {
        writer.write(UInt32(codes[symbol]), Int(bitLengths[symbol]))
    }
}
