/// A Huffman table made ready for encoding: per symbol its code and length (T.81 C.2's
/// HUFFCODE and HUFFSIZE ordered by symbol, libjpeg's `ehufco`/`ehufsi`), packed as
/// `code << 8 | length` (length 0: no code).
struct JPEGHuffmanCodes {
    private(set) var packed: [UInt32]

    init(_ spec: JPEGHuffmanSpec) {
        packed = [UInt32](repeating: 0, count: 256)
        var code: UInt32 = 0, p = 0
        for length in 1...16 {
            for _ in 0..<spec.counts[length - 1] where p < spec.symbols.count {
                packed[Int(spec.symbols[p])] = code << 8 | UInt32(length)
                code += 1
                p += 1
            }
            code <<= 1
        }
    }
}

/// Symbol frequencies of a scan's tables, gathered by a first pass (libjpeg's `htest_one_block`
/// and jcphuff's gather mode), and the optimal table they give.
struct JPEGHuffmanFrequencies {
    /// 257 counts per table slot (DC 0–3, then AC 0–3); the 257th is libjpeg's reserved symbol.
    var counts = [Int](repeating: 0, count: 8 * 257)

    static func slot(isAC: Bool, index: Int) -> Int { (isAC ? 4 : 0) + index }

    /// Whether the table in `slot` received any symbol.
    func isUsed(_ slot: Int) -> Bool { counts[(slot * 257)..<(slot * 257 + 256)].contains { $0 != 0 } }

    /// libjpeg's `jpeg_gen_optimal_table` (T.81 K.2): code lengths by repeatedly merging the two
    /// least frequent nodes (the later symbol on ties, symbol 256 reserved so that no code is all
    /// ones), lengths over 16 folded as Figure K.3 does, symbols listed by length then value.
    func optimalTable(slot: Int) -> JPEGHuffmanSpec {
        var freq = Array(counts[(slot * 257)..<(slot * 257 + 257)])
        freq[256] = 1
        var codeSize = [Int](repeating: 0, count: 257)
        var others = [Int](repeating: -1, count: 257)
        while true {
            var c1 = -1, c2 = -1, v = Int.max
            for i in 0...256 where freq[i] != 0 && freq[i] <= v { v = freq[i]; c1 = i }
            v = Int.max
            for i in 0...256 where freq[i] != 0 && freq[i] <= v && i != c1 { v = freq[i]; c2 = i }
            if c2 < 0 { break }
            freq[c1] += freq[c2]
            freq[c2] = 0
            codeSize[c1] += 1
            while others[c1] >= 0 { c1 = others[c1]; codeSize[c1] += 1 }
            others[c1] = c2
            codeSize[c2] += 1
            while others[c2] >= 0 { c2 = others[c2]; codeSize[c2] += 1 }
        }
        var bits = [Int](repeating: 0, count: 258)
        for size in codeSize where size > 0 { bits[min(size, 257)] += 1 }
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
        if i > 0 { bits[i] -= 1 }
        var symbols: [UInt8] = []
        for length in 1...257 {
            for symbol in 0..<256 where codeSize[symbol] == length { symbols.append(UInt8(symbol)) }
        }
        return JPEGHuffmanSpec(counts: Array(bits[1...16]), symbols: symbols)
    }
}
