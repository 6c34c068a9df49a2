import CodecCore
import Foundation
import ImageCodecs
@testable import PNGCodec
import TestSupport
import Testing

/// Still PNGs: every generated fixture comes back exactly through our decoder, in the layout
/// the reductions should pick, with every effort and with Adam7; pngcheck accepts them.
struct PNGEncoderTests {
    @Test(arguments: EncoderFixtures.cases)
    func roundTripsInTheSmallestLayout(_ fixture: EncoderFixtures.Case) throws {
        let bytes = try EncoderFixtures.encode([fixture.raster])
        let header = EncoderFixtures.header(bytes)
        #expect(header.colorType == fixture.colorType && header.bitDepth == fixture.bitDepth,
                "\(fixture.name): colour type \(header.colorType), depth \(header.bitDepth)")
        let back = try EncoderFixtures.decode(bytes, sixteen: fixture.raster.bytesPerPixel == 8)
        #expect(EncoderFixtures.same(back, [fixture.raster]), "\(fixture.name)")
        if let accepted = try EncoderFixtures.pngcheck(bytes) { #expect(accepted, "pngcheck refuses \(fixture.name)") }
    }

    @Test(arguments: [0, 1, 2, 3, 5, 7, 8, 9])
    func everyEffortRoundTrips(_ effort: Int) throws {
        var options = EncodingOptions()
        options.effort = effort
        for fixture in EncoderFixtures.cases {
            let bytes = try EncoderFixtures.encode([fixture.raster], options: options)
            let back = try EncoderFixtures.decode(bytes, sixteen: fixture.raster.bytesPerPixel == 8)
            #expect(EncoderFixtures.same(back, [fixture.raster]), "\(fixture.name) at effort \(effort)")
        }
    }

    @Test func adam7RoundTripsAndIsMarked() throws {
        var options = EncodingOptions()
        options.interlace = true
        for fixture in EncoderFixtures.cases {
            let bytes = try EncoderFixtures.encode([fixture.raster], options: options)
            #expect(EncoderFixtures.header(bytes).interlace == 1)
            let back = try EncoderFixtures.decode(bytes, sixteen: fixture.raster.bytesPerPixel == 8)
            #expect(EncoderFixtures.same(back, [fixture.raster]), "\(fixture.name) Adam7")
            if let accepted = try EncoderFixtures.pngcheck(bytes) { #expect(accepted, "pngcheck refuses \(fixture.name) Adam7") }
        }
    }

    @Test func oddSizesRoundTrip() throws {
        for (w, h) in [(1, 1), (1, 65535), (16384, 1), (3, 2), (7, 9)] {
            var r = EncoderFixtures.Random(state: UInt64(w * 31 + h))
            let raster = EncoderFixtures.raster8(w, h) { _, _ in [r.byte(), r.byte(), r.byte(), r.byte()] }
            for interlace in [false, true] {
                var options = EncodingOptions()
                options.interlace = interlace
                let bytes = try EncoderFixtures.encode([raster], options: options)
                #expect(EncoderFixtures.same(try EncoderFixtures.decode(bytes, sixteen: false), [raster]), "\(w)x\(h) interlace \(interlace)")
            }
        }
    }

    @Test func metadataChunksAreWrittenAndReadBack() throws {
        var metadata = ImageMetadata()
        metadata.iccProfile = Array(repeating: 7, count: 300)
        metadata.orientation = 6
        metadata.physicalPixelDimensions = PhysicalPixelDimensions(pixelsPerUnitX: 2835, pixelsPerUnitY: 2834, unitIsMetre: true)
        metadata.xmp = Array("<x:xmpmeta/>".utf8)
        let bytes = try EncoderFixtures.encode([EncoderFixtures.cases[0].raster], metadata: metadata)
        let types = EncoderFixtures.chunkTypes(bytes)
        #expect(types.first == "IHDR" && types.last == "IEND")
        for type in ["iCCP", "eXIf", "pHYs", "iTXt"] {
            #expect((types.firstIndex(of: type) ?? .max) < (types.firstIndex(of: "IDAT") ?? -1), "\(type) before IDAT")
        }
        let properties = ImageSource(bytes: bytes).properties
        #expect(properties?.iccProfile == metadata.iccProfile)
        #expect(properties?.orientation == 6)
        #expect(properties?.physicalPixelDimensions == metadata.physicalPixelDimensions)
        if let accepted = try EncoderFixtures.pngcheck(bytes) { #expect(accepted) }
    }

    @Test func callsOutOfOrderAreErrors() throws {
        var encoder = PNGEncoder()
        var sink = ByteArraySink()
        let frame = try EncodingFrame(raster: EncoderFixtures.cases[0].raster)
        #expect(throws: EncodingError.self) { try encoder.add(frame, to: &sink) }
        #expect(throws: EncodingError.self) { try encoder.finish(to: &sink) }
        #expect(throws: EncodingError.self) {
            try encoder.begin(EncodingCanvas(width: 0, height: 5, frameCount: 1), to: &sink)
        }
        try encoder.begin(EncodingCanvas(width: frame.width + 1, height: frame.height, frameCount: 1), to: &sink)
        #expect(throws: EncodingError.self) { try encoder.add(frame, to: &sink) }
        #expect(throws: EncodingError.self) { try encoder.finish(to: &sink) }
    }
}
