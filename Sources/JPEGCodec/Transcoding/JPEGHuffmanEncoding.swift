/// Huffman code construction for writing (T.81 Annex C and K.2), as libjpeg-turbo builds it.
enum JPEGHuffmanEncoding {
    /// C.2: each symbol's code and length (0: no code) from a table's BITS and HUFFVAL;
    /// `codes[s] = code << 8 | length`.
    static func codes(_ spec: JPEGHuffmanSpec) -> [UInt32] {
        var codes = [UInt32](repeating: 0, count: 256)
        var code: UInt32 = 0, k = 0
        for length in 1...16 {
            for _ in 0..<spec.counts[length - 1] {
                guard k < spec.symbols.count else { return codes }
                codes[Int(spec.symbols[k])] = code << 8 | UInt32(length)
                code += 1
                k += 1
            }
            code <<= 1
        }
        return codes
    }

    /// The optimal table for symbol `frequencies` (257 counts, the last reserved), as
    /// libjpeg's `jpeg_gen_optimal_table` builds it: K.2's procedure, where among equal
    /// frequencies the highest symbol is taken first; code lengths above 16 folded by K.3's
    /// `Adjust_BITS`; the reserved symbol's code (all ones) removed.
    static func optimalTable(_ frequencies: [Int]) -> JPEGHuffmanSpec {
        var freq = frequencies
        freq[256] = 1
        var codesize = [Int](repeating: 0, count: 257)
        var others = [Int](repeating: -1, count: 257)
        while true {
            var c1 = -1, c2 = -1
            var v = Int.max
            for i in 0...256 where freq[i] != 0 && freq[i] <= v {
                v = freq[i]
                c1 = i
            }
            v = Int.max
            for i in 0...256 where freq[i] != 0 && freq[i] <= v && i != c1 {
                v = freq[i]
                c2 = i
            }
            if c2 < 0 { break }
            freq[c1] += freq[c2]
            freq[c2] = 0
            codesize[c1] += 1
            while others[c1] >= 0 {
                c1 = others[c1]
                codesize[c1] += 1
            }
            others[c1] = c2
            codesize[c2] += 1
            while others[c2] >= 0 {
                c2 = others[c2]
                codesize[c2] += 1
            }
        }
        // 257 symbols give lengths below 257.
        var bits = [Int](repeating: 0, count: 258)
        for size in codesize where size > 0 { bits[size] += 1 }
        var i = 257
        while i > 16 {
            while bits[i] > 0 {
                var j = i - 2
                while j > 0 && bits[j] == 0 { j -= 1 }
                bits[i] -= 2
                bits[i - 1] += 1
                bits[j + 1] += 2
                bits[j] -= 1
            }
            i -= 1
        }
        while i > 0 && bits[i] == 0 { i -= 1 }
        bits[i] -= 1
        var symbols: [UInt8] = []
        for length in 1...32 {
            for s in 0...255 where codesize[s] == length { symbols.append(UInt8(s)) }
        }
        return JPEGHuffmanSpec(counts: Array(bits[1...16]), symbols: symbols)
    }
}

/// Entropy-coded bytes (T.81 F.1.2.3, B.1.1.5): bits MSB first, a 0x00 stuffed after each
/// 0xFF, the last byte padded with one bits.
struct JPEGBitWriter {
    var bytes: [UInt8] = []
    private var accumulator: UInt64 = 0
    private var count = 0

    /// A writer that appends to `bytes`.
    init(appendingTo bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Appends the low `n` bits of `value` (n ≤ 32).
    @inline(__always)
    mutating func write(_ value: UInt32, _ n: Int) {
        accumulator = accumulator << UInt64(n) | UInt64(value & (UInt32.max >> UInt32(32 - n)))
        count &+= n
        while count >= 8 {
            count &-= 8
            let byte = UInt8(truncatingIfNeeded: accumulator >> UInt64(count))
            bytes.append(byte)
            if byte == 0xFF { bytes.append(0) }
        }
    }

    /// Pads the last partial byte with one bits (libjpeg's `flush_bits`).
    mutating func flush() {
        if count > 0 { write(0x7F, 8 - count) }
        accumulator = 0
    }
}
