import CodecCore

extension VP8LPrefixCode {
    /// RFC 9649 3.7.2.1.2: the order in which the code length code's lengths are stored.
    static let codeLengthCodeOrder: [Int] = [17, 18, 0, 1, 2, 3, 4, 5, 16, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]
    /// Code length code symbols 16, 17, 18: extra bits of the repeat count, and its offset.
    static let repeatExtraBits = [2, 3, 7]
    static let repeatOffsets = [3, 3, 11]
    /// RFC 9649 3.7.2.1.2: a code length of 16 repeats the previous non-zero length, 8 at first.
    static let initialPreviousLength: UInt8 = 8

    /// Reads one prefix code of `alphabetSize` symbols (RFC 9649 3.7.2.1: a simple code or a
    /// normal code) and appends its table to `tables`; returns where it starts. `lengths` is
    /// scratch space of at least `alphabetSize` entries.
    static func read(alphabetSize: Int, _ reader: inout LSBBitReader, _ buffer: UnsafeBufferPointer<UInt8>,
                     lengths: inout [UInt8], to tables: inout [UInt32]) throws(DecodingError) -> Int {
        for i in 0..<alphabetSize { lengths[i] = 0 }
        reader.refill(buffer)
        if reader.read(1, buffer) == 1 {
            readSimpleCodeLengths(alphabetSize: alphabetSize, &reader, buffer, lengths: &lengths)
        } else {
            try readNormalCodeLengths(alphabetSize: alphabetSize, &reader, buffer, lengths: &lengths)
        }
        try reader.checkNotOverrun()
        return try lengths.withUnsafeBufferPointer { (all) throws(DecodingError) -> Int in
            try appendTable(codeLengths: UnsafeBufferPointer(rebasing: all[0..<alphabetSize]),
                            rootBits: rootBits, to: &tables)
        }
    }

    /// RFC 9649 3.7.2.1.1, the simple code length code: one or two symbols of length 1, the
    /// first in 1 or 8 bits, the second in 8 bits. A symbol outside the alphabet is not used
    /// (as libwebp counts only the alphabet's lengths), so it may leave one symbol or none.
    static func readSimpleCodeLengths(alphabetSize: Int, _ reader: inout LSBBitReader,
                                      _ buffer: UnsafeBufferPointer<UInt8>, lengths: inout [UInt8]) {
        let symbolCount = Int(reader.read(1, buffer)) + 1
        let firstBits = reader.read(1, buffer) == 0 ? 1 : 8
        let first = Int(reader.read(firstBits, buffer))
        if first < alphabetSize { lengths[first] = 1 }
        if symbolCount == 2 {
            let second = Int(reader.read(8, buffer))
            if second < alphabetSize { lengths[second] = 1 }
        }
    }

    /// RFC 9649 3.7.2.1.2, the normal code length code: up to 19 code length code lengths of 3
    /// bits, an optional count of code length symbols to read (`max_symbol`), then the code
    /// lengths, with 16 (repeat the previous non-zero length 3–6 times), 17 (3–10 zeros) and 18
    /// (11–138 zeros). A repeat that would pass the alphabet's end is refused.
    static func readNormalCodeLengths(alphabetSize: Int, _ reader: inout LSBBitReader,
                                      _ buffer: UnsafeBufferPointer<UInt8>, lengths: inout [UInt8]) throws(DecodingError) {
        var codeLengthCodeLengths = [UInt8](repeating: 0, count: codeLengthCodeOrder.count)
        let numCodes = Int(reader.read(4, buffer)) + 4
        for i in 0..<numCodes {
            codeLengthCodeLengths[codeLengthCodeOrder[i]] = UInt8(truncatingIfNeeded: reader.read(3, buffer))
        }
        try reader.checkNotOverrun()
        var table: [UInt32] = []
        table.reserveCapacity(1 << codeLengthRootBits)
        _ = try codeLengthCodeLengths.withUnsafeBufferPointer { (lengths) throws(DecodingError) -> Int in
            try appendTable(codeLengths: lengths, rootBits: codeLengthRootBits, to: &table)
        }
        var maxSymbol = alphabetSize
        if reader.read(1, buffer) == 1 {
            let lengthBits = 2 + 2 * Int(reader.read(3, buffer))
            maxSymbol = 2 + Int(reader.read(lengthBits, buffer))
            try reader.checkNotOverrun()
            guard maxSymbol <= alphabetSize else { throw .invalidData("VP8L max_symbol exceeds the alphabet size") }
        }
        var symbol = 0
        var previous = initialPreviousLength
        try table.withUnsafeBufferPointer { (t) throws(DecodingError) in
            guard let table = t.baseAddress else { return }
            while symbol < alphabetSize && maxSymbol > 0 {
                maxSymbol -= 1
                reader.refill(buffer)
                let codeLength = readShortSymbol(table, rootBits: codeLengthRootBits, &reader)
                if codeLength < 16 {
                    lengths[symbol] = UInt8(truncatingIfNeeded: codeLength)
                    symbol += 1
                    if codeLength != 0 { previous = UInt8(truncatingIfNeeded: codeLength) }
                } else {
                    let slot = codeLength - 16
                    let repeatCount = Int(reader.read(repeatExtraBits[slot], buffer)) + repeatOffsets[slot]
                    try reader.checkNotOverrun()
                    guard repeatCount <= alphabetSize - symbol else {
                        throw .invalidData("VP8L code length repeat passes the alphabet's end")
                    }
                    let value = slot == 0 ? previous : 0
                    for i in symbol..<(symbol + repeatCount) { lengths[i] = value }
                    symbol += repeatCount
                }
                try reader.checkNotOverrun()
            }
        }
    }
}

extension LSBBitReader {
    /// Throws `truncated` if bits past the end were consumed. Every check of a value read from
    /// the bitstream comes after this one, so that a stream cut short (zeros read past its end)
    /// is reported as cut short, whatever the zeros would have meant, and an incremental caller
    /// can wait for more bytes instead of failing.
    func checkNotOverrun() throws(DecodingError) {
        if isOverrun { throw .truncated("VP8L bitstream ends before the image data") }
    }
}
