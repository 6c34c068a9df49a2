import CodecCore

/// Canonical prefix codes (RFC 9649 section 3.7.2.1.1) as lookup tables for decoding.
///
/// A code's table is a run of `UInt32` entries in a shared array: `symbol << 16 | length`.
/// The root level is indexed by the next `rootBits` bits of the stream (bits come least
/// significant first, so entries are indexed by bit-reversed codes). A code no longer than
/// `rootBits` fills every root entry whose low bits are its reversed code. Longer codes live in
/// second-level tables: their root entry holds `offset << 16 | (rootBits + tableBits)`, where
/// `offset` is the second-level table's start from the beginning of this code's table and
/// `tableBits` its index width; the second-level entries hold `length - rootBits`.
///
/// Only two kinds of code lengths are accepted, as libwebp accepts them: exactly one used
/// symbol (whatever its length: it then takes zero bits), or a complete code (Kraft sum exactly
/// one). Incomplete and over-subscribed codes, and codes with no symbol, are refused before any
/// table entry is written. The table's size is computed exactly from the code lengths before it
/// is filled (no fixed-size second-level budget exists that hostile lengths could overrun, the
/// CVE-2023-4863 shape), and each code's table holds at most 256 + 256 × 128 entries.
enum VP8LPrefixCode {
    /// RFC 9649 3.7.2.1.2: code lengths are 0…15.
    static let maxCodeLength = 15
    /// The root level's index width for the five codes of a prefix code group.
    static let rootBits = 8
    /// The root level's index width for the code length code (19 symbols, lengths ≤ 7).
    static let codeLengthRootBits = 7

    /// Appends the lookup table of the code with `codeLengths` (one per symbol, 0 = unused) to
    /// `tables` and returns where it starts. Throws `invalidData` for a code that has no symbol,
    /// is over-subscribed, or is incomplete with more than one symbol.
    static func appendTable(codeLengths: UnsafeBufferPointer<UInt8>, rootBits: Int,
                            to tables: inout [UInt32]) throws(DecodingError) -> Int {
        var count = [Int](repeating: 0, count: maxCodeLength + 1)
        for length in codeLengths {
            guard length <= maxCodeLength else { throw .invalidData("VP8L code length exceeds 15") }
            count[Int(length)] += 1
        }
        let used = codeLengths.count - count[0]
        guard used > 0 else { throw .invalidData("VP8L prefix code has no symbol") }
        let start = tables.count
        let rootSize = 1 << rootBits
        if used == 1 {
            // A single symbol is coded with zero bits.
            let symbol = codeLengths.firstIndex { $0 != 0 } ?? 0
            tables.append(contentsOf: repeatElement(UInt32(truncatingIfNeeded: symbol) << 16, count: rootSize))
            return start
        }
        // Kraft: the open branches at each depth never go negative and end at zero.
        var open = 1
        for length in 1...maxCodeLength {
            open = open * 2 - count[length]
            guard open >= 0 else { throw .invalidData("VP8L prefix code is over-subscribed") }
        }
        guard open == 0 else { throw .invalidData("VP8L prefix code is incomplete") }

        // Symbols sorted by length, then by value: the canonical order.
        var offset = [Int](repeating: 0, count: maxCodeLength + 2)
        for length in 1...maxCodeLength { offset[length + 1] = offset[length] + count[length] }
        var sorted = [UInt16](repeating: 0, count: used)
        for (symbol, length) in codeLengths.enumerated() where length != 0 {
            sorted[offset[Int(length)]] = UInt16(truncatingIfNeeded: symbol)
            offset[Int(length)] += 1
        }
        let size = layout(count: count, sorted: sorted, rootBits: rootBits, table: nil, capacity: 0)
        tables.append(contentsOf: repeatElement(0, count: size))
        let filled = tables.withUnsafeMutableBufferPointer { all in
            layout(count: count, sorted: sorted, rootBits: rootBits,
                   table: all.baseAddress.map { $0 + start }, capacity: size)
        }
        guard filled == size else { throw .invalidData("VP8L prefix code table size mismatch") }
        return start
    }

    /// Walks the canonical codes of a complete code in order and returns the table size they
    /// need; when `table` is given (with exactly that `capacity`), writes the entries. Every
    /// write is checked against `capacity`; a write that would fall outside is skipped and the
    /// returned size then differs from `capacity`, which the caller treats as an error.
    private static func layout(count: [Int], sorted: [UInt16], rootBits: Int,
                               table: UnsafeMutablePointer<UInt32>?, capacity: Int) -> Int {
        var remaining = count
        var total = 1 << rootBits
        let rootMask = total - 1
        var code = 0            // the canonical code (most significant bit first) of the next symbol
        var index = 0           // into sorted
        var subStart = 0, subBits = 0, currentLow = -1
        var overflow = false
        for length in 1...maxCodeLength {
            for _ in 0..<count[length] {
                let symbol = UInt32(sorted[index])
                index += 1
                let reversed = reverseBits(code, length)
                if length <= rootBits {
                    if let table {
                        let step = 1 << length
                        var i = reversed
                        while i <= rootMask {
                            if i < capacity { table[i] = symbol << 16 | UInt32(length) } else { overflow = true }
                            i += step
                        }
                    }
                } else {
                    let low = reversed & rootMask
                    if low != currentLow {
                        currentLow = low
                        subBits = nextTableBits(remaining, length: length, rootBits: rootBits)
                        subStart = total
                        total += 1 << subBits
                        if let table {
                            if low < capacity {
                                table[low] = UInt32(subStart) << 16 | UInt32(rootBits + subBits)
                            } else { overflow = true }
                        }
                    }
                    if let table {
                        let subLength = length - rootBits
                        let step = 1 << subLength
                        var i = reversed >> rootBits
                        while i < 1 << subBits {
                            if subStart + i < capacity {
                                table[subStart + i] = symbol << 16 | UInt32(subLength)
                            } else { overflow = true }
                            i += step
                        }
                    }
                }
                remaining[length] -= 1
                code += 1
            }
            code <<= 1
        }
        return overflow ? -1 : total
    }

    /// The index width of the second-level table that starts with a code of `length`: wide
    /// enough for every remaining code sharing its root prefix.
    private static func nextTableBits(_ remaining: [Int], length: Int, rootBits: Int) -> Int {
        var length = length
        var left = 1 << (length - rootBits)
        while length < maxCodeLength {
            left -= remaining[length]
            if left <= 0 { break }
            length += 1
            left <<= 1
        }
        return length - rootBits
    }

    /// `code`'s low `length` bits in reverse order.
    @inline(__always)
    static func reverseBits(_ code: Int, _ length: Int) -> Int {
        var value = 0, code = code
        for _ in 0..<length {
            value = value << 1 | (code & 1)
            code >>= 1
        }
        return value
    }

    /// Decodes one symbol with the table at `table`; the reader holds at least 15 bits.
    @inline(__always)
    static func readSymbol(_ table: UnsafePointer<UInt32>, _ reader: inout LSBBitReader) -> Int {
        let bits = reader.nextWord()
        var entry = table[Int(bits & 0xFF)]
        var length = Int(entry & 0xFF)
        if length > rootBits {
            reader.drop(rootBits)
            let mask = (UInt32(1) << UInt32(length - rootBits)) &- 1
            entry = table[Int(entry >> 16) + Int((bits >> 8) & mask)]
            length = Int(entry & 0xFF)
        }
        reader.drop(length)
        return Int(entry >> 16)
    }

    /// Decodes one symbol of a single-level table of `rootBits` (the code length code).
    @inline(__always)
    static func readShortSymbol(_ table: UnsafePointer<UInt32>, rootBits: Int, _ reader: inout LSBBitReader) -> Int {
        let entry = table[Int(reader.nextBits(rootBits))]
        reader.drop(Int(entry & 0xFF))
        return Int(entry >> 16)
    }
}
