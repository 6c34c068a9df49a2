@testable import CodecCore
@testable import JPEGCodec
import Testing

/// The staged fast path of sequential Huffman decoding against T.81 F.2.2.1–F.2.2.2 written
/// out plainly with the careful primitives (``JPEGHuffmanTable/decode(_:_:_:)`` and
/// ``MSBBitReader/read(_:_:)``), on random bit strings: every code length (short codes from
/// the lookahead tables, long ones, bit strings that are no code), runs, ZRL and end of block.
struct JPEGHuffmanStagedTests {
    /// One block by the letter of F.2.2: DC category and difference, then (run, size) symbols.
    static func referenceBlock(_ dc: UnsafePointer<Int32>, _ ac: UnsafePointer<Int32>, _ predictor: inout Int32,
                               _ reader: inout MSBBitReader, _ bytes: UnsafeBufferPointer<UInt8>) -> [Int16] {
        var block = [Int16](repeating: 0, count: 64)
        let size = JPEGHuffmanTable.decode(dc, &reader, bytes)
        if size != 0 { predictor &+= extend(Int32(reader.read(size, bytes)), size) }
        block[0] = Int16(truncatingIfNeeded: predictor)
        var k = 1
        while k < 64 {
            let rs = JPEGHuffmanTable.decode(ac, &reader, bytes)
            let r = rs >> 4, s = rs & 15
            if s == 0 {
                if r != 15 { break }
                k += 16
                continue
            }
            k += r
            block[naturalOrder[k]] = Int16(truncatingIfNeeded: extend(Int32(reader.read(s, bytes)), s))
            k += 1
        }
        return block
    }

    @Test(arguments: [0, 1, 2, 3])
    func stagedBlocksEqualTheReference(seed: Int) throws {
        var rng = SplitMix(UInt64(seed))
        // Mostly zero bytes (short codes: EOB, small values) mixed with random ones, so that
        // blocks both end early and run long.
        let bytes = (0..<40_000).map { _ in rng.next() % 3 == 0 ? UInt8(truncatingIfNeeded: rng.next()) : UInt8(truncatingIfNeeded: rng.next() & 0x0F) }
        let dcSpec = seed % 2 == 0 ? JPEGStandardTables.luminanceDC : JPEGStandardTables.chrominanceDC
        let acSpec = seed % 2 == 0 ? JPEGStandardTables.luminanceAC : JPEGStandardTables.chrominanceAC
        let tables = try JPEGHuffmanTable(dcSpec, isDC: true).data + JPEGHuffmanTable(acSpec, isDC: false).data
        var staged = MSBBitReader(), reference = MSBBitReader()
        var stagedPredictor: Int32 = 0, referencePredictor: Int32 = 0
        var blocks = 0
        var block = [Int16](repeating: 0, count: 64)
        bytes.withUnsafeBufferPointer { buffer in
            tables.withUnsafeBufferPointer { t in
                naturalOrder.withUnsafeBufferPointer { zigzag in
                    let dc = t.baseAddress!, ac = t.baseAddress! + JPEGHuffmanTable.size
                    while buffer.count - staged.position >= JPEGHuffmanScanDecoder.stagedBlockMargin {
                        block.withUnsafeMutableBufferPointer { b in
                            b.update(repeating: 0)
                            JPEGHuffmanScanDecoder.decodeStagedSequentialBlock(b.baseAddress!, dc, ac, zigzag.baseAddress!,
                                                                                &stagedPredictor, &staged, buffer.baseAddress!)
                        }
                        let expected = Self.referenceBlock(dc, ac, &referencePredictor, &reference, buffer)
                        #expect(block == expected, "block \(blocks)")
                        #expect(staged.position * 8 - staged.count == reference.position * 8 - reference.count)
                        blocks += 1
                    }
                }
            }
        }
        #expect(blocks > 100)
        #expect(stagedPredictor == referencePredictor)
    }
}
