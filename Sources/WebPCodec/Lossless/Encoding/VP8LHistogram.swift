/// The symbol counts of a set of tokens in the five alphabets of a prefix code group (RFC 9649
/// section 3.7.2.2), kept in one array: green (literals, length prefixes, cache indices), red,
/// blue, alpha, distance prefixes; and the extra bits the copies need.
struct VP8LHistogram {
    let greenSize: Int
    var counts: [UInt32]
    var extraBits = 0

    init(cacheBits: Int) {
        greenSize = VP8LPrefixCodeGroup.greenAlphabetSize(colorCacheBits: cacheBits)
        counts = [UInt32](repeating: 0, count: greenSize + 3 * 256 + VP8LPrefixCodeGroup.distancePrefixCount)
    }

    /// Where each alphabet starts in `counts`: green, red, blue, alpha, distance, end.
    var bounds: [Int] {
        [0, greenSize, greenSize + 256, greenSize + 512, greenSize + 768, counts.count]
    }

    /// Counts `token`.
    @inline(__always)
    mutating func add(_ token: VP8LToken) {
        let g = greenSize
        counts.withUnsafeMutableBufferPointer { c in
            switch token.kind {
            case VP8LToken.Kind.literal.rawValue:
                let argb = token.value
                c[Int((argb &>> 8) & 0xFF)] &+= 1
                c[g &+ Int((argb &>> 16) & 0xFF)] &+= 1
                c[g &+ 256 &+ Int(argb & 0xFF)] &+= 1
                c[g &+ 512 &+ Int(argb &>> 24)] &+= 1
            case VP8LToken.Kind.cacheIndex.rawValue:
                c[VP8LPrefixCodeGroup.literalCount &+ VP8LPrefixCodeGroup.lengthPrefixCount &+ Int(token.value)] &+= 1
            default:
                let length = VP8LPrefixEncoding.prefix(of: token.length)
                let distance = VP8LPrefixEncoding.prefix(of: Int(token.value))
                c[VP8LPrefixCodeGroup.literalCount &+ length.symbol] &+= 1
                c[g &+ 768 &+ distance.symbol] &+= 1
                extraBits &+= length.extraBits &+ distance.extraBits
            }
        }
    }

    /// Adds every count of `other` (of the same cache size).
    mutating func add(_ other: VP8LHistogram) {
        counts.withUnsafeMutableBufferPointer { c in
            other.counts.withUnsafeBufferPointer { o in
                for i in 0..<c.count { c[i] &+= o[i] }
            }
        }
        extraBits &+= other.extraBits
    }

    /// Estimated bits to code the tokens counted: Shannon entropy of each alphabet, extra bits,
    /// and an estimate of the code lengths' header.
    func estimatedBits() -> Double {
        counts.withUnsafeBufferPointer { c in
            var total = Double(extraBits)
            let b = bounds
            for k in 0..<5 { total += Self.populationBits(c, b[k], b[k + 1], other: nil) }
            return total
        }
    }

    /// Estimated bits of `self + other`, without adding them.
    func estimatedBits(mergedWith other: VP8LHistogram) -> Double {
        counts.withUnsafeBufferPointer { c in
            other.counts.withUnsafeBufferPointer { o in
                var total = Double(extraBits + other.extraBits)
                let b = bounds
                for k in 0..<5 { total += Self.populationBits(c, b[k], b[k + 1], other: o) }
                return total
            }
        }
    }

    /// Entropy bits of the counts in `start..<end` (plus `other`'s) and a header estimate: a
    /// few bits per used symbol and per run of unused ones.
    static func populationBits(_ c: UnsafeBufferPointer<UInt32>, _ start: Int, _ end: Int,
                               other: UnsafeBufferPointer<UInt32>?) -> Double {
        var sum: Double = 0
        var total: Double = 0
        var used = 0, runs = 0
        var previousZero = true
        for i in start..<end {
            let v = Double(c[i] &+ (other?[i] ?? 0))
            if v > 0 {
                sum += v * VP8LLog.log2(v)
                total += v
                used &+= 1
                previousZero = false
            } else {
                if !previousZero { runs &+= 1 }
                previousZero = true
            }
        }
        if used <= 1 { return 12 }
        return total * VP8LLog.log2(total) - sum + Double(used) * 3 + Double(runs) * 6 + 20
    }
}

/// Base-2 logarithms for cost estimates, without libm: a table of log2 for integers below
/// 4096 (computed by bisection on the square), and above it the exponent plus the table's value
/// of the leading 12 bits, interpolated.
enum VP8LLog {
    static let tableSize = 4096
    static let table: [Double] = (0..<tableSize).map { $0 == 0 ? 0 : exactLog2(Double($0)) }

    /// log2 of `v` ≥ 1 to about 1e-12: the integer part by halving, the fraction bit by bit by
    /// squaring.
    static func exactLog2(_ v: Double) -> Double {
        var x = v, result = 0.0
        while x >= 2 { x /= 2; result += 1 }
        var bit = 0.5
        for _ in 0..<48 {
            x *= x
            if x >= 2 { x /= 2; result += bit }
            bit /= 2
        }
        return result
    }

    @inline(__always)
    static func log2(_ v: Double) -> Double {
        table.withUnsafeBufferPointer { t in
            if v < Double(tableSize) { return t[Int(v)] }
            let e = v.exponent - 11
            let scaled = v.significand * 2048
            let i = Int(scaled)
            let frac = scaled - Double(i)
            let low = t[i]
            let high = i + 1 < tableSize ? t[i + 1] : 12
            return Double(e) + low + (high - low) * frac
        }
    }
}
