/// A VP8 boolean encoder (RFC 6386 7.3), for tests: writes what ``VP8BoolDecoder`` must read.
struct VP8BoolEncoder {
    var output: [UInt8] = []
    var range: UInt32 = 255
    var bottom: UInt32 = 0
    /// Shifts left before the next byte is written out of the top of `bottom`.
    var bitCount = 24

    /// Adds one to the bytes written so far (the carry out of `bottom`).
    mutating func carry() {
        var i = output.count - 1
        while i >= 0 && output[i] == 255 {
            output[i] = 0
            i -= 1
        }
        if i >= 0 { output[i] += 1 }
    }

    mutating func write(_ bit: Bool, _ probability: Int) {
        let split = 1 + (((range - 1) * UInt32(probability)) >> 8)
        if bit {
            bottom = bottom &+ split
            range -= split
        } else {
            range = split
        }
        while range < 128 {
            range <<= 1
            if bottom & (1 << 31) != 0 { carry() }
            bottom = bottom &<< 1
            bitCount -= 1
            if bitCount == 0 {
                output.append(UInt8(truncatingIfNeeded: bottom >> 24))
                bottom &= (1 << 24) - 1
                bitCount = 8
            }
        }
    }

    mutating func writeLiteral(_ value: Int, bits: Int) {
        for i in stride(from: bits - 1, through: 0, by: -1) { write((value >> i) & 1 == 1, 128) }
    }

    mutating func writeSignedLiteral(_ value: Int, bits: Int) {
        writeLiteral(abs(value), bits: bits)
        write(value < 0, 128)
    }

    /// Pads with enough zero bits at probability 1/2 that every decision is in the output.
    mutating func finish() -> [UInt8] {
        for _ in 0..<32 { write(false, 128) }
        return output
    }
}
