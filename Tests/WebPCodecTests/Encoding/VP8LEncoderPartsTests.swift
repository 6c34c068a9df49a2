import CodecCore
import Testing
@testable import WebPCodec

/// The VP8L encoder's parts against the decoder's definitions: prefix codes the decoder's
/// table builder accepts, length/distance prefixes and distance codes that decode back, and
/// the bit writer against the bit reader.
struct VP8LEncoderPartsTests {
    /// Fibonacci counts make the deepest Huffman trees: the lengths must stay within 15 (7 for
    /// the code length code) and form a complete code that the decoder builds a table for.
    @Test(arguments: [15, 7])
    func lengthLimitedCodesAreCompleteAndShort(_ maxLength: Int) throws {
        var counts: [UInt32] = [1, 1]
        while counts.count < 40 { counts.append(counts[counts.count - 1] &+ counts[counts.count - 2]) }
        let alphabet = maxLength == 7 ? 19 : 40
        let histogram = Array(counts.prefix(alphabet))
        let code = histogram.withUnsafeBufferPointer { VP8LHuffmanCode(histogram: $0, maxLength: maxLength) }
        #expect(code.lengths.allSatisfy { Int($0) <= maxLength && $0 > 0 })
        var kraft = 0
        for l in code.lengths { kraft += 1 << (maxLength - Int(l)) }
        #expect(kraft == 1 << maxLength)
        var tables: [UInt32] = []
        _ = try code.lengths.withUnsafeBufferPointer { (lengths) throws(DecodingError) -> Int in
            try VP8LPrefixCode.appendTable(codeLengths: lengths, rootBits: 8, to: &tables)
        }
        // Rarer symbols never get shorter codes.
        for s in 1..<histogram.count { #expect(code.lengths[s] <= code.lengths[s - 1]) }
    }

    /// A written symbol stream decodes to the same symbols with the decoder's tables, headers
    /// included (simple codes, normal codes with and without max_symbol).
    @Test(arguments: [[5], [3, 200], [0, 1, 2], [7, 280, 1000], Array(0..<300)])
    func headersAndSymbolsDecode(_ used: [Int]) throws {
        let alphabet = 1304
        var histogram = [UInt32](repeating: 0, count: alphabet)
        for (i, s) in used.enumerated() { histogram[s] = UInt32(1 + (i * 37) % 11) }
        let code = histogram.withUnsafeBufferPointer { VP8LHuffmanCode(histogram: $0, maxLength: 15) }
        var writer = LSBBitWriter()
        code.writeHeader(to: &writer)
        let symbols = (0..<500).map { used[($0 * 7) % used.count] }
        for s in symbols { code.write(s, to: &writer) }
        let bytes = writer.finish() + [UInt8](repeating: 0, count: 8)
        try bytes.withUnsafeBufferPointer { (buffer) throws(DecodingError) in
            var reader = LSBBitReader()
            var lengths = [UInt8](repeating: 0, count: alphabet)
            var tables: [UInt32] = []
            let start = try VP8LPrefixCode.read(alphabetSize: alphabet, &reader, buffer, lengths: &lengths, to: &tables)
            try tables.withUnsafeBufferPointer { (t) throws(DecodingError) in
                for s in symbols {
                    reader.refill(buffer)
                    let got = VP8LPrefixCode.readSymbol(t.baseAddress! + start, &reader)
                    #expect(got == s)
                }
            }
        }
    }

    /// Every length and distance value up to 2^20 round-trips through its prefix code.
    @Test func prefixCodingInvertsTheDecoders() {
        var values = Array(1...5000)
        var v = 5000
        while v < 1 << 20 { v = v * 9 / 8 + 1; values.append(min(v, 1 << 20)) }
        for value in values {
            let p = VP8LPrefixEncoding.prefix(of: value)
            var writer = LSBBitWriter()
            writer.write(UInt32(p.extra), p.extraBits)
            let bytes = writer.finish() + [UInt8](repeating: 0, count: 8)
            let decoded = bytes.withUnsafeBufferPointer { buffer in
                var reader = LSBBitReader()
                reader.refill(buffer)
                return VP8LBackwardReference.prefixValue(p.symbol, &reader)
            }
            #expect(decoded == value && p.symbol < 40)
        }
    }

    /// Distance codes decode back to their distances, narrow images included.
    @Test func distanceCodesDecodeBack() {
        let map = VP8LBackwardReference.distanceMap
        let planes = VP8LPrefixEncoding.planeCodes
        for width in [1, 2, 3, 7, 8, 9, 16, 100] {
            for distance in 1...400 {
                let code = planes.withUnsafeBufferPointer { p in
                    map.withUnsafeBufferPointer { m in
                        VP8LPrefixEncoding.distanceCode(distance, width: width, planeCodes: p.baseAddress!, map: m.baseAddress!)
                    }
                }
                let back = map.withUnsafeBufferPointer {
                    VP8LBackwardReference.distance(code: code, width: width, map: $0.baseAddress!)
                }
                #expect(back == distance, "width \(width) distance \(distance) code \(code)")
            }
        }
        // The pixel above and the pixel to the left get the two shortest codes.
        let above = planes.withUnsafeBufferPointer { p in
            map.withUnsafeBufferPointer { m in
                VP8LPrefixEncoding.distanceCode(640, width: 640, planeCodes: p.baseAddress!, map: m.baseAddress!)
            }
        }
        #expect(above == 1)
    }

    /// The bit writer's output read back by the bit reader.
    @Test func bitWriterMatchesReader() {
        var rng = SplitMix64(seed: 7)
        var items: [(UInt32, Int)] = []
        for _ in 0..<5000 {
            let n = Int.random(in: 0...32, using: &rng)
            let value = n == 32 ? UInt32(truncatingIfNeeded: rng.next()) : UInt32(truncatingIfNeeded: rng.next()) & ((1 << UInt32(n)) - 1)
            items.append((value, n))
        }
        var writer = LSBBitWriter()
        for (v, n) in items { writer.write(v, n) }
        let total = writer.bitCount
        let bytes = writer.finish() + [UInt8](repeating: 0, count: 8)
        #expect(bytes.count - 8 == (total + 7) / 8)
        bytes.withUnsafeBufferPointer { buffer in
            var reader = LSBBitReader()
            for (v, n) in items {
                var got: UInt32 = 0
                if n > 16 {
                    got = reader.read(16, buffer)
                    got |= reader.read(n - 16, buffer) << 16
                } else {
                    got = reader.read(n, buffer)
                }
                #expect(got == v)
            }
        }
    }
}
