import CodecCore

/// A Huffman table made ready for decoding (T.81 C.2 and F.2.2.3's MAXCODE/VALPTR), with a
/// 9-bit lookahead table for the common short codes, laid out as libjpeg-turbo's derived table.
///
/// Validity, as libjpeg-turbo checks when a scan starts to use a table: at most 256 codes, and
/// no code of all 1 bits (a length's codes must leave one value unused); a DC table's symbols
/// are magnitude categories 0–15. A bit string that is no code of the table decodes as symbol 0
/// after 17 bits (libjpeg warns "corrupt data" and goes on so).
struct JPEGHuffmanTable {
    static let lookaheadBits = 9
    /// Per 9-bit prefix: `length << 8 | symbol` when a code of `length` ≤ 9 bits starts the
    /// prefix, else `10 << 8` (decode on from 10 bits).
    private(set) var lookup: [UInt16]
    /// Per code length 1…17: the largest code of that length (−1 when none; length 17 is a
    /// sentinel above every 17-bit value), and the offset from a code to its symbol's index.
    private(set) var maxCode: [Int32]
    private(set) var valueOffset: [Int32]
    /// The symbols in code order, padded to 256 with zeros (indices are taken modulo 256, as
    /// libjpeg-turbo masks them).
    private(set) var symbols: [UInt8]

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
        maxCode = [Int32](repeating: -1, count: 18)
        valueOffset = [Int32](repeating: 0, count: 18)
        p = 0
        for length in 1...16 where spec.counts[length - 1] > 0 {
            valueOffset[length] = Int32(p - codes[p])
            p += spec.counts[length - 1]
            maxCode[length] = Int32(codes[p - 1])
        }
        maxCode[17] = 0xFFFFF
        symbols = Array(spec.symbols.prefix(lengths.count)) + [UInt8](repeating: 0, count: 256 - lengths.count)
        if isDC, symbols.prefix(lengths.count).contains(where: { $0 > 15 }) {
            throw .invalidData("JPEG DC Huffman table has a symbol above 15")
        }
        lookup = [UInt16](repeating: UInt16(Self.lookaheadBits + 1) << 8, count: 1 << Self.lookaheadBits)
        for (i, length) in lengths.enumerated() where length <= Self.lookaheadBits {
            let first = codes[i] << (Self.lookaheadBits - length)
            for prefix in first..<(first + (1 << (Self.lookaheadBits - length))) {
                lookup[prefix] = UInt16(length) << 8 | UInt16(symbols[i])
            }
        }
    }

    /// Decodes one symbol; the reader holds at least 16 bits or has been refilled from `buffer`.
    @inline(__always)
    func decode(_ reader: inout MSBBitReader, _ buffer: UnsafeBufferPointer<UInt8>) -> Int {
        if reader.count < 17 { reader.refill(buffer) }
        let entry = lookup.withUnsafeBufferPointer { $0[Int(reader.peek(Self.lookaheadBits))] }
        var length = Int(entry >> 8)
        if length <= Self.lookaheadBits {
            reader.skip(length)
            return Int(entry & 0xFF)
        }
        var code = Int32(reader.peek(length))
        while length < 17 && code > maxCode[length] {
            length += 1
            code = Int32(reader.peek(length))
        }
        reader.skip(length)
        guard length <= 16 else { return 0 }
        return Int(symbols[Int(code + valueOffset[length]) & 0xFF])
    }
}

/// F.2.2.1 EXTEND: the `s`-bit value `v` read after a magnitude category, as a signed value.
@inline(__always)
func extend(_ v: Int32, _ s: Int) -> Int32 {
    v < Int32(1) << (s - 1) ? v &- (Int32(1) << s) &+ 1 : v
}
