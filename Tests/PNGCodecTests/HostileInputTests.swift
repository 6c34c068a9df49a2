import ImageCodecs
import TestSupport
import Testing

/// Inputs built to exhaust memory or time must end in a typed error or a bounded decode.
struct HostileInputTests {
    @Test func hugeDimensionsAreRefusedBeforeAllocation() throws {
        var b = PNGBuilder()
        b.chunk("IHDR", PNGBuilder.ihdr(width: 0x7FFF_FFFF, height: 0x7FFF_FFFF))
        b.chunk("IDAT", PNGBuilder.deflate([0, 0, 0, 0, 0]))
        b.chunk("IEND", [])
        let source = ImageSource(bytes: b.bytes)
        #expect(source.properties?.width == 0x7FFF_FFFF)
        #expect(throws: DecodingError.limitExceeded("pixel count exceeds Limits.maxPixels")) { try source.image(at: 0) }
        #expect(source.status == .invalidData)
    }

    @Test func dimensionsAboveTwoToThe31AreInvalid() {
        var b = PNGBuilder()
        b.chunk("IHDR", PNGBuilder.be32(0x8000_0000) + PNGBuilder.be32(1) + [8, 6, 0, 0, 0])
        #expect(ImageSource(bytes: b.bytes).status == .invalidData)
    }

    /// 64 MiB of zeros in the IDAT of a 16 × 16 image: inflation stops once the rows are done.
    @Test func idatBombStopsAtTheImageSize() throws {
        var b = PNGBuilder()
        b.chunk("IHDR", PNGBuilder.ihdr(width: 16, height: 16))
        b.chunk("IDAT", PNGBuilder.deflate([UInt8](repeating: 0, count: 64 << 20)))
        b.chunk("IEND", [])
        let source = ImageSource(bytes: b.bytes)
        let image = try source.image(at: 0)
        #expect(image.isComplete && image.width == 16)
        #expect(source.status == .complete)
    }

    /// A zTXt chunk inflating to 64 MiB is left out of the properties; the image still decodes.
    @Test func zTXtBombIsCapped() throws {
        var b = PNGBuilder()
        b.chunk("IHDR", PNGBuilder.ihdr(width: 1, height: 1))
        b.chunk("zTXt", Array("Comment".utf8) + [0, 0] + PNGBuilder.deflate([UInt8](repeating: 65, count: 64 << 20)))
        b.chunk("tEXt", Array("Title".utf8) + [0] + Array("small".utf8))
        b.chunk("IDAT", PNGBuilder.deflate([0, 1, 2, 3, 4]))
        b.chunk("IEND", [])
        let source = ImageSource(bytes: b.bytes)
        let properties = try #require(source.properties)
        #expect(properties.text == [TextEntry(keyword: "Title", text: "small")])
        #expect(try source.image(at: 0).pixels == [1, 2, 3, 4])
    }

    @Test func criticalCRCErrorIsFatalAncillaryIsIgnored() throws {
        var good = PNGBuilder()
        good.chunk("IHDR", PNGBuilder.ihdr(width: 1, height: 1))
        good.chunk("gAMA", PNGBuilder.be32(45455), corruptCRC: true)
        good.chunk("IDAT", PNGBuilder.deflate([0, 9, 8, 7, 6]))
        good.chunk("IEND", [])
        let source = ImageSource(bytes: good.bytes)
        #expect(source.status == .complete)
        #expect(source.properties?.color.gamma == nil)
        #expect(try source.image(at: 0).pixels == [9, 8, 7, 6])

        var bad = PNGBuilder()
        bad.chunk("IHDR", PNGBuilder.ihdr(width: 1, height: 1))
        bad.chunk("IDAT", PNGBuilder.deflate([0, 9, 8, 7, 6]), corruptCRC: true)
        bad.chunk("IEND", [])
        #expect(ImageSource(bytes: bad.bytes).status == .invalidData)
    }

    @Test func unknownChunks() {
        var ancillary = PNGBuilder()
        ancillary.chunk("IHDR", PNGBuilder.ihdr(width: 1, height: 1))
        ancillary.chunk("prIv", [1, 2, 3])
        ancillary.chunk("IDAT", PNGBuilder.deflate([0, 1, 1, 1, 1]))
        ancillary.chunk("IEND", [])
        #expect(Decoding.whole(ancillary.bytes).status == .complete)

        var critical = PNGBuilder()
        critical.chunk("IHDR", PNGBuilder.ihdr(width: 1, height: 1))
        critical.chunk("CRIT", [1, 2, 3])
        #expect(ImageSource(bytes: critical.bytes).error?.kind == .unsupported)
    }

    @Test func shortImageDataIsAnError() {
        var b = PNGBuilder()
        b.chunk("IHDR", PNGBuilder.ihdr(width: 4, height: 4))
        b.chunk("IDAT", PNGBuilder.deflate([0, 1, 2, 3]))
        b.chunk("IEND", [])
        let result = Decoding.whole(b.bytes)
        #expect(result.status == .invalidData && result.error?.kind == .invalidData)
    }
}
