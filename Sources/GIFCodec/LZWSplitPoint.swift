/// Where a second LZW decoder (GIF89a Appendix F) can probably start in a complete stream: just
/// after a clear code, found without decoding what comes before it.
///
/// After a clear code the table is back to its first state, so the codes that follow decode on
/// their own; only their place in the output depends on what came before. Finding a clear code
/// exactly would take walking every code from the start (the code width depends on the codes
/// counted since the last clear), which costs half as much as decoding them. Instead the bits
/// are searched from a position on for the clear code's value at any width it can have, each
/// match taken only when the codes after it, up to the next clear or end code, are what a
/// fresh table accepts (each at most the next free entry; ``startsFreshTable(_:bit:minimumCodeSize:)``).
/// Random bits pass that with a probability far below 2⁻¹⁰⁰, but bits a few places off a real
/// clear code are not random: the low bits of a wide clear code match it at a narrower width,
/// and the small codes after a clear, read out of step, stay small for a while. Reading on to
/// the next clear code, which a stream out of step does not meet at the width and place it
/// expects, rules those out. A match is still a guess: the first decoder confirms it when it
/// reads a clear code that ends at exactly that bit (``LZWSplitDecoding``).
enum LZWSplitPoint {
    /// Codes read after a candidate clear code, at most, to validate it (a table fills in fewer).
    static let validatedCodes = LZWDecoder.tableSize
    /// Codes that must come before a clear or end code that ends the validation.
    static let minimumValidatedCodes = 256
    /// Bits searched past the start before giving up (128 KiB of data: encoders that clear
    /// when the table is full do so every 4,000 codes or so).
    static let searchedBits = 1 << 20

    /// The first bit at or after `fromBit` that ends a probable clear code, or nil.
    static func candidate(in data: UnsafeBufferPointer<UInt8>, minimumCodeSize: Int, fromBit: Int) -> Int? {
        guard LZWDecoder.accepts(minimumCodeSize: minimumCodeSize) else { return nil }
        let clear = UInt64(1 << minimumCodeSize), totalBits = data.count * 8
        let widths = (minimumCodeSize + 1)...12
        var bit = max(fromBit, 12)
        let last = min(totalBits, fromBit + searchedBits)
        while bit < last {
            let window = load(data, bit: bit - 12)
            for width in widths where (window >> UInt64(12 - width)) & ((1 << UInt64(width)) - 1) == clear {
                if startsFreshTable(data, bit: bit, minimumCodeSize: minimumCodeSize) { return bit }
            }
            bit += 1
        }
        return nil
    }

    /// The 64 bits from `bit` on (LSB first), zeros past the end of `data`.
    private static func load(_ data: UnsafeBufferPointer<UInt8>, bit: Int) -> UInt64 {
        let byte = bit >> 3, shift = UInt64(bit & 7)
        var word: UInt64, ninth: UInt64
        if byte + 9 <= data.count {
            word = UInt64(littleEndian: UnsafeRawPointer(data.baseAddress!).loadUnaligned(fromByteOffset: byte, as: UInt64.self))
            ninth = UInt64(data[byte + 8])
        } else {
            word = 0
            for k in 0..<8 where byte + k < data.count { word |= UInt64(data[byte + k]) << UInt64(8 * k) }
            ninth = byte + 8 < data.count ? UInt64(data[byte + 8]) : 0
        }
        return shift == 0 ? word : word >> shift | ninth << (64 - shift)
    }

    /// Whether the codes from `bit` on decode with a fresh table up to the next clear or end
    /// code, which must come after ``minimumValidatedCodes`` codes and no later than when the
    /// table is full (a stream that keeps a full table cannot be told from noise: every code is
    /// in it), and before the end of the data.
    private static func startsFreshTable(_ data: UnsafeBufferPointer<UInt8>, bit: Int, minimumCodeSize: Int) -> Bool {
        let clear = 1 << minimumCodeSize
        var size = minimumCodeSize + 1, next = clear + 2, previous = -1, position = bit
        for index in 0..<validatedCodes {
            guard position + size <= data.count * 8 else { return false }
            let code = Int(truncatingIfNeeded: load(data, bit: position)) & ((1 << size) - 1)
            position += size
            if code == clear || code == clear + 1 { return index >= minimumValidatedCodes }
            guard next < LZWDecoder.tableSize, code < clear || code < next || (code == next && previous >= 0)
            else { return false }
            if previous >= 0 && next < LZWDecoder.tableSize { next += 1 }
            if next > (1 << size) - 1 && size < 12 { size += 1 }
            previous = code
        }
        return true
    }
}
