import CodecCore
@testable import PNGCodec
import Testing

/// The reductions and filters as pure functions.
struct PNGReductionTests {
    @Test func greyDepthIsTheSmallestExact() {
        func depth(_ levels: [Int]) -> Int {
            var seen = [Bool](repeating: false, count: 256)
            for l in levels { seen[l] = true }
            return PNGReduction.grayDepth(seen)
        }
        #expect(depth([0, 255]) == 1)
        #expect(depth([0, 85, 170]) == 2)
        #expect(depth([17, 34, 255]) == 4)
        #expect(depth([0, 1]) == 8)
        #expect(depth([85, 17]) == 4)
    }

    @Test func paletteDepthHoldsTheCount() {
        #expect([1, 2, 3, 4, 5, 16, 17, 256].map(PNGReduction.paletteDepth) == [1, 1, 2, 2, 4, 4, 8, 8])
    }

    @Test func paletteOrderPutsTransparentEntriesFirst() {
        let order = PNGReduction.paletteOrder([0xFF00_0001, 0x0000_0002, 0xFF00_0003, 0x8000_0004])
        #expect(order == [0x0000_0002, 0x8000_0004, 0xFF00_0001, 0xFF00_0003])
        let layout = PNGPixelLayout(colorType: .indexed, bitDepth: 2, palette: order)
        #expect(layout.transparencyChunk == [0x00, 0x80])
    }

    @Test func sixteenBitStaysSixteenUnlessItFits() throws {
        var wide = PNGColorAnalysis()
        wide.add(try EncodingFrame(raster: EncoderFixtures.raster16(3, 1) { x, _ in [UInt16(x) * 257, 0x1234, 0, 0xFFFF] }))
        #expect(!wide.fitsEightBits)
        #expect(PNGReduction.candidates(wide, keyIsFree: false).first?.bitDepth == 16)
        var narrow = PNGColorAnalysis()
        narrow.add(try EncodingFrame(raster: EncoderFixtures.raster16(3, 1) { x, _ in [UInt16(x) * 257, 0x1212, 0, 0xFFFF] }))
        #expect(narrow.fitsEightBits)
        #expect(PNGReduction.candidates(narrow, keyIsFree: false).allSatisfy { $0.bitDepth <= 8 })
    }

    /// The decoder's unfilter inverts every forward filter, for every stride.
    @Test func forwardFiltersInvertTheDecodersUnfilter() throws {
        var r = EncoderFixtures.Random(state: 11)
        for stride in [1, 2, 3, 4, 6, 8] {
            let count = 61
            let previous = (0..<(count + PNGFilter.rowPadding)).map { _ in r.byte() }
            let row = (0..<count).map { _ in r.byte() }
            for type in 0..<5 {
                var filtered = [UInt8](repeating: 0, count: count + PNGFilter.rowPadding)
                row.withUnsafeBufferPointer { cur in
                    previous.withUnsafeBufferPointer { prev in
                        filtered.withUnsafeMutableBufferPointer { out in
                            _ = PNGForwardFilter.filterAndScore(type, row: cur.baseAddress!, previous: prev.baseAddress!, count: count,
                                                                stride: stride, into: out.baseAddress!)
                        }
                    }
                }
                try filtered.withUnsafeMutableBufferPointer { out in
                    try previous.withUnsafeBufferPointer { prev in
                        try PNGFilter.unfilter(type: UInt8(type), row: out.baseAddress!, previous: prev.baseAddress!,
                                               count: count, stride: stride)
                    }
                }
                #expect(Array(filtered[0..<count]) == row, "type \(type) stride \(stride)")
            }
        }
    }

    @Test func delaysKeepCentisecondsAndMilliseconds() {
        #expect(APNGWriter.delay(.zero) == (0, 100))
        #expect(APNGWriter.delay(.milliseconds(650_350)) == (65035, 100))
        #expect(APNGWriter.delay(.milliseconds(655_350)) == (65535, 100))
        #expect(APNGWriter.delay(.milliseconds(33)) == (33, 1000))
        #expect(APNGWriter.delay(.seconds(100_000)) == (65535, 100))
    }
}
