/// The boolean entropy encoder of VP8, RFC 6386 section 7.3, the writing twin of
/// ``VP8BoolDecoder``.
///
/// The RFC's arithmetic: `split = 1 + (((range - 1) * probability) >> 8)`; a 1 adds `split` to
/// `bottom` and keeps the range above it, a 0 keeps the range below. The range is doubled until
/// it is at least 128, each doubling shifting one bit of `bottom` towards the output; a carry out
/// of `bottom` is added to the bytes already written.
struct VP8BoolEncoder: Sendable {
    private(set) var output: [UInt8] = []
    private var range: UInt32 = 255
    private var bottom: UInt32 = 0
    /// Shifts left before the next byte leaves the top of `bottom`.
    private var bitCount = 24

    /// Adds one to the bytes written so far (the carry out of `bottom`).
    private mutating func carry() {
        var i = output.count - 1
        while i >= 0 && output[i] == 255 {
            output[i] = 0
            i -= 1
        }
        if i >= 0 { output[i] &+= 1 }
    }

    /// One boolean whose probability of being 0 is `probability / 256` (RFC 6386 7.3 `write_bool`).
    @inline(__always)
    mutating func write(_ bit: Bool, _ probability: Int) {
        let split = 1 &+ (((range &- 1) &* UInt32(truncatingIfNeeded: probability)) &>> 8)
        if bit {
            bottom = bottom &+ split
            range &-= split
        } else {
            range = split
        }
        while range < 128 {
            range &<<= 1
            if bottom & (1 << 31) != 0 { carry() }
            bottom &<<= 1
            bitCount &-= 1
            if bitCount == 0 {
                output.append(UInt8(truncatingIfNeeded: bottom >> 24))
                bottom &= (1 << 24) - 1
                bitCount = 8
            }
        }
    }

    /// An `bits`-bit unsigned literal, most significant bit first (RFC 6386 9.2 `L(n)`).
    mutating func writeLiteral(_ value: Int, bits: Int) {
        for i in stride(from: bits - 1, through: 0, by: -1) { write((value >> i) & 1 == 1, 128) }
    }

    /// A magnitude of `bits` bits followed by a sign bit (RFC 6386 9.3, 9.6: the deltas).
    mutating func writeSignedLiteral(_ value: Int, bits: Int) {
        writeLiteral(abs(value), bits: bits)
        write(value < 0, 128)
    }

    /// Pads with zero bits at probability 1/2 until every decision is in the output, and
    /// returns the bytes.
    mutating func finish() -> [UInt8] {
        for _ in 0..<32 { write(false, 128) }
        return output
    }
}
