/// Writes bits least significant first (the order ``LSBBitReader`` reads them: RFC 9649's
/// VP8L, RFC 1951's deflate): a 64-bit accumulator flushed to bytes 4 at a time.
package struct LSBBitWriter {
    /// The bytes completed so far (the bits still in the accumulator are not among them).
    package private(set) var bytes: [UInt8] = []
    private var accumulator: UInt64 = 0
    private var used: UInt64 = 0

    package init(capacity: Int = 0) {
        bytes.reserveCapacity(capacity)
    }

    /// Writes the low `count` bits of `value` (count ≤ 32; higher bits of `value` must be 0).
    @inline(__always)
    package mutating func write(_ value: UInt32, _ count: Int) {
        accumulator |= UInt64(value) &<< used
        used &+= UInt64(truncatingIfNeeded: count)
        if used >= 32 { flush32() }
    }

    private mutating func flush32() {
        let word = UInt32(truncatingIfNeeded: accumulator)
        bytes.append(UInt8(truncatingIfNeeded: word))
        bytes.append(UInt8(truncatingIfNeeded: word &>> 8))
        bytes.append(UInt8(truncatingIfNeeded: word &>> 16))
        bytes.append(UInt8(truncatingIfNeeded: word &>> 24))
        accumulator &>>= 32
        used &-= 32
    }

    /// Bits written so far.
    package var bitCount: Int { bytes.count * 8 + Int(used) }

    /// The bytes written, the last one padded with zero bits.
    package mutating func finish() -> [UInt8] {
        while used > 0 {
            bytes.append(UInt8(truncatingIfNeeded: accumulator))
            accumulator &>>= 8
            used = used > 8 ? used - 8 : 0
        }
        return bytes
    }
}
