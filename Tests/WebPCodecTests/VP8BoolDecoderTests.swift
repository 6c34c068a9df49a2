import Testing
@testable import WebPCodec

/// RFC 6386 section 7: the decoder reads back what the RFC's encoder wrote.
struct VP8BoolDecoderTests {
    /// Random booleans at random probabilities (1...255), biased so that runs of likely and
    /// unlikely values both happen; lengths that end the data at every refill alignment.
    @Test(arguments: [0, 1, 5, 7, 8, 9, 63, 64, 65, 1000, 20_000])
    func roundTrip(count: Int) {
        var rng = SplitMix64(seed: UInt64(count) &+ 1)
        var encoder = VP8BoolEncoder()
        var decisions: [(Bool, Int)] = []
        for _ in 0..<count {
            let p = Int.random(in: 1...255, using: &rng)
            // Mostly follow the probability, sometimes not.
            let bit = Int.random(in: 0..<256, using: &rng) >= p
            decisions.append((bit, p))
            encoder.write(bit, p)
        }
        let bytes = encoder.finish()
        bytes.withUnsafeBufferPointer { buf in
            var reader = VP8BoolDecoder(buf, start: 0, end: buf.count)
            for (i, (bit, p)) in decisions.enumerated() {
                let got = reader.readBit(UInt32(p), buf)
                if got != bit {
                    Issue.record("decision \(i) of \(count): got \(got), wrote \(bit) at p=\(p)")
                    return
                }
            }
            #expect(!reader.isPastEnd)
        }
    }

    /// Literals, signed literals and the coefficient sign (probability 1/2 with one shift).
    @Test func literalsAndSigns() {
        var rng = SplitMix64(seed: 42)
        var encoder = VP8BoolEncoder()
        var values: [(Int, Int, Bool)] = []
        for _ in 0..<2000 {
            let bits = Int.random(in: 1...16, using: &rng)
            let v = Int.random(in: 0..<(1 << bits), using: &rng)
            let negative = Bool.random(using: &rng)
            values.append(((negative ? -v : v), bits, negative) as (Int, Int, Bool))
            encoder.writeSignedLiteral(negative ? -v : v, bits: bits)
            // A sign as the token reader reads it, after a likely decision at p=200.
            encoder.write(false, 200)
            encoder.write(negative, 128)
        }
        let bytes = encoder.finish()
        bytes.withUnsafeBufferPointer { buf in
            var reader = VP8BoolDecoder(buf, start: 0, end: buf.count)
            for (v, bits, negative) in values {
                #expect(reader.readSignedLiteral(bits, buf) == v)
                #expect(reader.readBit(200, buf) == false)
                let magnitude = Int32(Swift.abs(v) % 2048 + 1)
                let expected = negative ? -magnitude : magnitude
                #expect(reader.readSigned(magnitude, buf) == expected)
            }
        }
    }

    /// Past the end the reader shifts in zeros once, flags it, and never traps.
    @Test func pastTheEnd() {
        let bytes: [UInt8] = [0xFF, 0x00, 0x7F]
        bytes.withUnsafeBufferPointer { buf in
            var reader = VP8BoolDecoder(buf, start: 0, end: buf.count)
            // The 8-bit window needs one byte ahead: 3 bytes give 16 decisions of one bit each.
            for _ in 0..<16 { _ = reader.readBit(128, buf) }
            #expect(!reader.isPastEnd)
            for _ in 0..<1000 { _ = reader.readBit(1, buf); _ = reader.readSigned(5, buf) }
            #expect(reader.isPastEnd)
        }
        // An empty reader.
        [UInt8]().withUnsafeBufferPointer { buf in
            var reader = VP8BoolDecoder(buf, start: 0, end: 0)
            _ = reader.readBit(128, buf)
            #expect(reader.isPastEnd)
        }
    }
}
