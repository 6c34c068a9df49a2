import Testing
@testable import CodecCore

struct LSBBitReaderTests {
    /// Bits come out least significant first, across byte and 8-byte refill boundaries, in any
    /// widths from 0 to 32, and the values equal a bit-by-bit reading of the bytes.
    @Test(arguments: [UInt64(1), 2, 3, 4, 5])
    func readsLeastSignificantBitFirst(seed: UInt64) {
        var rng = SeededGenerator(seed: seed)
        let bytes = (0..<203).map { _ in UInt8.random(in: 0...255, using: &rng) }
        let bits = bytes.flatMap { b in (0..<8).map { Int(b >> $0) & 1 } }
        var reader = LSBBitReader()
        var at = 0
        bytes.withUnsafeBufferPointer { buffer in
            while at + 32 <= bits.count {
                let n = Int.random(in: 0...32, using: &rng)
                let expected = bits[at..<(at + n)].reversed().reduce(UInt32(0)) { $0 << 1 | UInt32($1) }
                #expect(reader.read(n, buffer) == expected, "at bit \(at), \(n) bits")
                at += n
            }
        }
        // Refills may load zeros past the end ahead of need; none of them was read.
        #expect(!reader.isOverrun)
    }

    /// Reads that straddle the 8-byte loads: every width at every starting offset of the first
    /// 72 bits matches the bit-by-bit value.
    @Test func readsEveryWidthAtEveryOffset() {
        let bytes: [UInt8] = (0..<24).map { UInt8(truncatingIfNeeded: $0 &* 0x9D &+ 0x3B) }
        let bits = bytes.flatMap { b in (0..<8).map { UInt64(b >> $0) & 1 } }
        bytes.withUnsafeBufferPointer { buffer in
            for offset in 0..<72 {
                for n in 0...32 {
                    var reader = LSBBitReader()
                    var skipped = 0
                    while skipped < offset {
                        let step = min(offset - skipped, 13)
                        _ = reader.read(step, buffer)
                        skipped += step
                    }
                    let expected = (0..<n).reduce(UInt64(0)) { $0 | bits[offset + $1] << UInt64($1) }
                    #expect(UInt64(reader.read(n, buffer)) == expected, "offset \(offset) width \(n)")
                }
            }
        }
    }

    /// The bytes of a buffer handed over in growing prefixes read the same as the whole buffer,
    /// as long as no zero past a prefix's end was consumed.
    @Test func growingBufferReadsTheSame() {
        let bytes: [UInt8] = (0..<40).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
        var whole = LSBBitReader(), grown = LSBBitReader()
        var values: [UInt32] = [], grownValues: [UInt32] = []
        bytes.withUnsafeBufferPointer { buffer in
            for _ in 0..<20 { values.append(whole.read(13, buffer)) }
        }
        var available = 9
        while grownValues.count < 20 {
            let snapshot = grown
            let value = bytes[0..<available].withUnsafeBufferPointer { grown.read(13, $0) }
            if grown.zeroBitsRead > 0 && available < bytes.count {
                // Zeros were loaded past this prefix: roll back and retry with more bytes.
                grown = snapshot
                available = min(bytes.count, available + 5)
                continue
            }
            grownValues.append(value)
        }
        #expect(grownValues == values)
    }

    /// Past the end come zero bits, counted; a read that uses them sets the overrun flag.
    @Test func suppliesZerosPastTheEnd() {
        var reader = LSBBitReader()
        [UInt8]([0xFF, 0x01]).withUnsafeBufferPointer { buffer in
            #expect(reader.read(9, buffer) == 0x1FF)
            #expect(!reader.isOverrun)
            #expect(reader.read(7, buffer) == 0)
            #expect(!reader.isOverrun)
            #expect(reader.bytesConsumed == 2)
            #expect(reader.read(1, buffer) == 0)
            #expect(reader.isOverrun)
            #expect(reader.read(32, buffer) == 0)
        }
        #expect(reader.zeroBitsRead > 0 && reader.isOverrun)
    }

    /// An empty buffer supplies only zeros; a zero-width read consumes nothing.
    @Test func emptyBuffer() {
        var reader = LSBBitReader()
        [UInt8]().withUnsafeBufferPointer { buffer in
            #expect(reader.read(0, buffer) == 0)
            #expect(!reader.isOverrun)
            #expect(reader.read(5, buffer) == 0)
        }
        #expect(reader.isOverrun)
    }
}

/// xorshift64*: reproducible random numbers for the tests.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed &* 0x9E37_79B9_7F4A_7C15 | 1 }
    mutating func next() -> UInt64 {
        state ^= state >> 12
        state ^= state << 25
        state ^= state >> 27
        return state &* 0x2545_F491_4F6C_DD1D
    }
}
