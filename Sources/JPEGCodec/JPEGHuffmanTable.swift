import CodecCore

/// A Huffman table made ready for decoding (T.81 C.2 and F.2.2.3's MAXCODE/VALPTR), with a
/// 9-bit lookahead table for the common short codes, laid out as libjpeg-turbo's derived table.
///
/// Validity, as libjpeg-turbo checks when a scan starts to use a table: at most 256 codes, and
/// no code of all 1 bits (a length's codes must leave one value unused); a DC table's symbols
/// are magnitude categories 0–15. A bit string that is no code of the table decodes as symbol 0
/// after 17 bits (libjpeg warns "corrupt data" and goes on so).
struct JPEGHuffmanTable {
    static let lookaheadBits = 11
    /// The table as one run of Int32, so that a scan keeps all its tables in one array and the
    /// hot loop reads them through a pointer: per 9-bit prefix (512 entries) `length << 8 |
    /// symbol` when a code of `length` ≤ 9 bits starts the prefix, else `10 << 8` (decode on from
    /// 10 bits); then per code length 0…17 the largest code of that length (−1 when none;
    /// length 17 is a sentinel above every 17-bit value), then per length the offset from a code
    /// to its symbol's index, then the 256 symbols in code order padded with zeros (indices are
    /// taken modulo 256, as libjpeg-turbo masks them); then, for AC tables, per 9-bit prefix the
    /// whole coefficient when the prefix holds a code and all its appended bits (F.2.2.2): the
    /// value (EXTENDed) in the high 16 bits, the run in bits 8–15, the bits used in bits 0–7;
    /// zero when it does not (end of block, ZRL, or too long).
    private(set) var data: [Int32]

    static let maxCodeBase = 1 << lookaheadBits
    static let valueOffsetBase = maxCodeBase + 18
    static let symbolBase = valueOffsetBase + 18
    static let fastACBase = symbolBase + 256
    static let size = fastACBase + (1 << lookaheadBits)

    init(_ spec: JPEGHuffmanSpec, isDC: Bool) throws(DecodingError) {
        var lengths: [Int] = []
        for (i, n) in spec.counts.enumerated() { lengths += [Int](repeating: i + 1, count: n) }
        guard lengths.count <= 256, lengths.count <= spec.symbols.count else { throw .invalidData("JPEG Huffman table is invalid") }
        // C.2: canonical codes, increasing within a length, doubled at each longer length.
        var codes = [Int](repeating: 0, count: lengths.count)
        var code = 0, p = 0, size = lengths.first ?? 0
        while p < lengths.count {
            while p < lengths.count && lengths[p] == size { codes[p] = code; code += 1; p += 1 }
            guard code < 1 << size else { throw .invalidData("JPEG Huffman table has an all-ones code") }
            code <<= 1
            size += 1
        }
        let symbols = Array(spec.symbols.prefix(lengths.count))
        if isDC, symbols.contains(where: { $0 > 15 }) { throw .invalidData("JPEG DC Huffman table has a symbol above 15") }
        var data = [Int32](repeating: Int32(Self.lookaheadBits + 1) << 8, count: Self.size)
        for prefix in 0..<(1 << Self.lookaheadBits) { data[Self.fastACBase + prefix] = 0 }
        for length in 0..<18 { data[Self.maxCodeBase + length] = -1; data[Self.valueOffsetBase + length] = 0 }
        p = 0
        for length in 1...16 where spec.counts[length - 1] > 0 {
            data[Self.valueOffsetBase + length] = Int32(p - codes[p])
            p += spec.counts[length - 1]
            data[Self.maxCodeBase + length] = Int32(codes[p - 1])
        }
        data[Self.maxCodeBase + 17] = 0xFFFFF
        for i in 0..<256 { data[Self.symbolBase + i] = i < symbols.count ? Int32(symbols[i]) : 0 }
        for (i, length) in lengths.enumerated() where length <= Self.lookaheadBits {
            let first = codes[i] << (Self.lookaheadBits - length)
            for prefix in first..<(first + (1 << (Self.lookaheadBits - length))) {
                data[prefix] = Int32(length) << 8 | Int32(symbols[i])
                let run = Int32(symbols[i] >> 4), size = Int(symbols[i] & 15)
                guard !isDC, size != 0, length + size <= Self.lookaheadBits else { data[Self.fastACBase + prefix] = 0; continue }
                let bits = Int32((prefix >> (Self.lookaheadBits - length - size)) & ((1 << size) - 1))
                data[Self.fastACBase + prefix] = extend(bits, size) << 16 | run << 8 | Int32(length + size)
            }
        }
        self.data = data
    }

    /// Decodes one symbol with the table at `table` (a ``data`` run).
    @inline(__always)
    static func decode(_ table: UnsafePointer<Int32>, _ reader: inout MSBBitReader, _ buffer: UnsafeBufferPointer<UInt8>) -> Int {
        if reader.count < 17 { reader.refill(buffer) }
        let entry = table[reader.peekBits(lookaheadBits)]
        let length = Int(entry >> 8)
        if length <= lookaheadBits {
            reader.dropBits(length)
            return Int(entry & 0xFF)
        }
        let (codeLength, symbol) = decodeLong(table, reader.bits)
        reader.dropBits(codeLength)
        return symbol
    }

    /// F.2.2.3 DECODE for a code longer than the lookahead: the code's length and symbol, from
    /// `bits` (the next bit in bit 63, at least 17 of them valid or zero past the data). A bit
    /// string that is no code takes 17 bits and gives symbol 0.
    @inline(__always)
    static func decodeLong(_ table: UnsafePointer<Int32>, _ bits: UInt64) -> (length: Int, symbol: Int) {
        var length = lookaheadBits + 1
        var code = Int32(truncatingIfNeeded: bits &>> UInt64(truncatingIfNeeded: 64 &- length))
        while length < 17 && code > table[maxCodeBase &+ length] {
            length &+= 1
            code = Int32(truncatingIfNeeded: bits &>> UInt64(truncatingIfNeeded: 64 &- length))
        }
        guard length <= 16 else { return (length, 0) }
        return (length, Int(table[symbolBase &+ Int(code &+ table[valueOffsetBase &+ length]) & 0xFF]))
    }
}

/// F.2.2.1 EXTEND: the `s`-bit value `v` read after a magnitude category, as a signed value.
@inline(__always)
func extend(_ v: Int32, _ s: Int) -> Int32 {
    v < Int32(1) << (s - 1) ? v &- (Int32(1) << s) &+ 1 : v
}
