/// Estimated bits of each symbol under a histogram (RFC 9649 5.2.2's five alphabets), for the
/// cost-driven parse: `log2(total / count)`, and for unused symbols a little more than the
/// rarest used one would cost.
struct VP8LCostModel {
    /// Per literal value: green, red, blue, alpha (256 each).
    var literal: [Float]
    /// Per length prefix symbol (24) and per distance prefix symbol (40).
    var lengthPrefix: [Float]
    var distancePrefix: [Float]
    /// Per cache index.
    var cacheIndex: [Float]

    init(_ histogram: VP8LHistogram) {
        let b = histogram.bounds
        func costs(_ start: Int, _ count: Int) -> [Float] {
            histogram.counts.withUnsafeBufferPointer { c in
                var total = 0.0
                for i in start..<(start + count) { total += Double(c[i]) }
                let logTotal = VP8LLog.log2(max(total, 1))
                let missing = Float(logTotal + 2)
                return (start..<(start + count)).map { i in
                    c[i] == 0 ? missing : Float(logTotal - VP8LLog.log2(Double(c[i])))
                }
            }
        }
        let literals = VP8LPrefixCodeGroup.literalCount
        let lengths = VP8LPrefixCodeGroup.lengthPrefixCount
        literal = costs(0, literals) + costs(b[1], 256) + costs(b[2], 256) + costs(b[3], 256)
        // Green, length prefixes and cache indices share one alphabet and so one total.
        let green = costs(0, b[1])
        literal.replaceSubrange(0..<literals, with: green[0..<literals])
        lengthPrefix = Array(green[literals..<(literals + lengths)])
        cacheIndex = Array(green[(literals + lengths)...])
        distancePrefix = costs(b[4], VP8LPrefixCodeGroup.distancePrefixCount)
    }

    @inline(__always)
    func literalCost(_ argb: UInt32) -> Float {
        literal.withUnsafeBufferPointer { l in
            l[Int((argb >> 8) & 0xFF)] + l[256 + Int((argb >> 16) & 0xFF)] + l[512 + Int(argb & 0xFF)]
                + l[768 + Int(argb >> 24)]
        }
    }

    /// Bits of a copy's length (prefix and extra bits).
    @inline(__always)
    func lengthCost(_ length: Int) -> Float {
        let p = VP8LPrefixEncoding.prefix(of: length)
        return lengthPrefix.withUnsafeBufferPointer { $0[p.symbol] } + Float(p.extraBits)
    }

    /// Bits of a distance code (prefix and extra bits).
    @inline(__always)
    func distanceCost(_ code: Int) -> Float {
        let p = VP8LPrefixEncoding.prefix(of: code)
        return distancePrefix.withUnsafeBufferPointer { $0[p.symbol] } + Float(p.extraBits)
    }
}
