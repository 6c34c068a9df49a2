@testable import WebPCodec

/// Writes bits least significant first, as VP8L packs them, for hand-built bitstreams.
struct VP8LBitWriter {
    var bytes: [UInt8] = []
    var bitCount = 0

    /// Writes `value`'s low `n` bits, lowest first (RFC 9649 ReadBits order).
    mutating func write(_ value: Int, _ n: Int) {
        for i in 0..<n { writeBit((value >> i) & 1) }
    }

    mutating func writeBit(_ bit: Int) {
        if bitCount % 8 == 0 { bytes.append(0) }
        bytes[bytes.count - 1] |= UInt8(bit & 1) << UInt8(bitCount % 8)
        bitCount += 1
    }

    /// Writes a prefix code's `code` of `length` bits, its first (most significant) bit first.
    mutating func writeCode(_ code: Int, _ length: Int) {
        for i in stride(from: length - 1, through: 0, by: -1) { writeBit((code >> i) & 1) }
    }

    /// RFC 9649 3.2: signature, width − 1, height − 1, alpha hint, version.
    mutating func header(width: Int, height: Int, alpha: Bool = false, version: Int = 0) {
        write(0x2f, 8)
        write(width - 1, 14)
        write(height - 1, 14)
        write(alpha ? 1 : 0, 1)
        write(version, 3)
    }

    /// RFC 9649 3.7.2.1.1: a simple code of one or two symbols (the first may be < 2 in 1 bit).
    mutating func simpleCode(_ symbols: [Int]) {
        write(1, 1)
        write(symbols.count - 1, 1)
        if symbols[0] < 2 {
            write(0, 1)
            write(symbols[0], 1)
        } else {
            write(1, 1)
            write(symbols[0], 8)
        }
        if symbols.count == 2 { write(symbols[1], 8) }
    }

    /// The start of a normal code (RFC 9649 3.7.2.1.2): the code length code's lengths,
    /// given per code length symbol (0…18), written in the storage order, trimmed to the last
    /// non-zero one (at least 4).
    mutating func codeLengthCode(_ lengths: [Int: Int]) {
        let order = VP8LPrefixCode.codeLengthCodeOrder
        var count = 4
        for (i, symbol) in order.enumerated() where lengths[symbol, default: 0] != 0 { count = max(count, i + 1) }
        write(0, 1)    // a normal code, not a simple one
        write(count - 4, 4)
        for i in 0..<count { write(lengths[order[i], default: 0], 3) }
    }

    /// A normal code in which `symbols` (two of them) have length 1 and the rest of the
    /// alphabet length 0, coded with a code length code of symbols 0 → "0" and 1 → "1".
    mutating func twoSymbolNormalCode(_ symbols: [Int], alphabetSize: Int) {
        codeLengthCode([0: 1, 1: 1])
        write(0, 1)                                   // no max_symbol: every length is coded
        for s in 0..<alphabetSize { writeCode(symbols.contains(s) ? 1 : 0, 1) }
    }
}
