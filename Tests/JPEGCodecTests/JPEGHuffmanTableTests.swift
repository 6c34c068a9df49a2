@testable import CodecCore
@testable import JPEGCodec
import Testing

struct JPEGHuffmanTableTests {
    /// Annex K's luminance DC table (Table K.3): category 0 is 00, 5 is 110, 11 is 111111110.
    @Test func decodesTheAnnexKCodes() throws {
        let table = try JPEGHuffmanTable(JPEGStandardTables.luminanceDC, isDC: true)
        // 00 | 110 | 111111110 | 1111111110 (no code: 10 ones are not a DC code of K.3)
        let bits = "00" + "110" + "111111110" + String(repeating: "1", count: 17)
        let bytes = stride(from: 0, to: bits.count, by: 8).map { i -> UInt8 in
            let chunk = String(bits.dropFirst(i).prefix(8))
            return UInt8(chunk + String(repeating: "0", count: 8 - chunk.count), radix: 2) ?? 0
        }
        var reader = MSBBitReader()
        bytes.withUnsafeBufferPointer { buffer in
            table.data.withUnsafeBufferPointer { t in
                #expect(JPEGHuffmanTable.decode(t.baseAddress!, &reader, buffer) == 0)
                #expect(JPEGHuffmanTable.decode(t.baseAddress!, &reader, buffer) == 5)
                #expect(JPEGHuffmanTable.decode(t.baseAddress!, &reader, buffer) == 11)
                // A bit string that is no code decodes as 0 after 17 bits, as libjpeg does.
                #expect(JPEGHuffmanTable.decode(t.baseAddress!, &reader, buffer) == 0)
            }
        }
    }

    /// Tables libjpeg-turbo refuses: an all-ones code (over-subscribed lengths), a DC symbol above 15.
    @Test func refusesInvalidTables() {
        #expect(throws: DecodingError.self) {
            try JPEGHuffmanTable(JPEGHuffmanSpec(counts: [2] + [Int](repeating: 0, count: 15), symbols: [0, 1]), isDC: false)
        }
        #expect(throws: DecodingError.self) {
            try JPEGHuffmanTable(JPEGHuffmanSpec(counts: [1] + [Int](repeating: 0, count: 15), symbols: [16]), isDC: true)
        }
        #expect(throws: Never.self) {
            try JPEGHuffmanTable(JPEGHuffmanSpec(counts: [1] + [Int](repeating: 0, count: 15), symbols: [16]), isDC: false)
        }
    }

    /// EXTEND (F.2.2.1): the low half of each category is negative.
    @Test func extendsMagnitudes() {
        #expect(extend(0, 1) == -1 && extend(1, 1) == 1)
        #expect(extend(0, 3) == -7 && extend(3, 3) == -4 && extend(4, 3) == 4 && extend(7, 3) == 7)
    }
}
