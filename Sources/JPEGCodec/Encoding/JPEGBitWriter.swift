/// Writes entropy-coded data MSB first, stuffing a zero byte after every 0xFF (T.81
/// B.1.1.5), into a growing byte array; padding to a byte boundary is with 1 bits (F.1.2.3,
/// as libjpeg's `flush_bits`).
struct JPEGBitWriter {
    var bytes: [UInt8] = []
    /// Bits not yet written, right-aligned in `buffer`; `count` of them (< 32 between calls).
    private var buffer: UInt64 = 0
    private var count: Int = 0

    init(capacity: Int = 0) { bytes.reserveCapacity(capacity) }

    /// Appends the low `length` bits of `value` (length ≤ 32; `value` has no higher bits set).
    @inline(__always)
    mutating func write(_ value: UInt32, _ length: Int) {
        buffer = buffer &<< UInt64(length) | UInt64(value)
        count &+= length
        if count >= 32 { drain32() }
    }

    /// Writes the top 32 pending bits as four bytes, stuffed.
    @inline(__always)
    private mutating func drain32() {
        count &-= 32
        let word = UInt32(truncatingIfNeeded: buffer &>> UInt64(count))
        // A byte is 0xFF when its bits are all set: test the four at once.
        let notWord = ~word
        let hasFF = (notWord &- 0x0101_0101) & ~notWord & 0x8080_8080 != 0
        if hasFF {
            for shift in stride(from: 24, through: 0, by: -8) {
                let byte = UInt8(truncatingIfNeeded: word &>> UInt32(shift))
                bytes.append(byte)
                if byte == 0xFF { bytes.append(0) }
            }
        } else {
            bytes.append(UInt8(truncatingIfNeeded: word &>> 24))
            bytes.append(UInt8(truncatingIfNeeded: word &>> 16))
            bytes.append(UInt8(truncatingIfNeeded: word &>> 8))
            bytes.append(UInt8(truncatingIfNeeded: word))
        }
    }

    /// Pads with 1 bits to a byte boundary and writes every pending byte.
    mutating func flush() {
        let pad = (8 - count % 8) % 8
        if pad > 0 { write((1 << UInt32(pad)) - 1, pad) }
        while count >= 8 {
            count -= 8
            let byte = UInt8(truncatingIfNeeded: buffer &>> UInt64(count))
            bytes.append(byte)
            if byte == 0xFF { bytes.append(0) }
        }
    }

    /// Writes a marker (after `flush`): 0xFF and its code, unstuffed.
    mutating func marker(_ code: UInt8) {
        bytes.append(0xFF)
        bytes.append(code)
    }

    /// Hands over the bytes written so far.
    mutating func take() -> [UInt8] {
        defer { bytes.removeAll(keepingCapacity: true) }
        return bytes
    }
}
