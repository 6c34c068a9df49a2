import CodecCore
import Foundation
import ImageCodecs
import TestSupport
import Testing
@testable import WebPCodec

/// Thumbnails of lossy stills are shrunk as the VP8 decoder's rows come out (with their alpha)
/// and equal the full decode shrunk by the same resampler; the decoder holds a band of rows.
/// (Lossless stills: `VP8LWindowTests`.)
struct WebPThumbnailTests {
    static let fixtures = Corpus.files(in: Corpus.conformance.appendingPathComponent("fixtures/webp-lossy"),
                                       suffix: ".webp")

    @Test func fixturesAreThere() {
        #expect(Self.fixtures.count >= 60)
    }

    @Test(arguments: fixtures)
    func streamedThumbnailEqualsShrunkFullDecode(_ url: URL) throws {
        let bytes = try Corpus.bytes(url)
        let full = try ImageSource(bytes: bytes).image(at: 0).rgba8Raster()
        for maxPixelSize in [1, 7, max(1, max(full.width, full.height) / 2)] {
            try Self.checkStreamedThumbnail(bytes, full: full, maxPixelSize: maxPixelSize, url.lastPathComponent)
        }
    }

    /// The thumbnail of `bytes` that fits `maxPixelSize`, streamed by a fresh decoder (so the
    /// streaming path is the one measured), equals `full` shrunk by the same resampler.
    static func checkStreamedThumbnail(_ bytes: [UInt8], full: Raster, maxPixelSize: Int, _ name: String) throws {
        let size = StreamingResampler.fittedSize(width: full.width, height: full.height, maxPixelSize: maxPixelSize)
        let expected = StreamingResampler.resample(full, toWidth: size.width, height: size.height)
        let decoder = WebPDecoder(options: .init())
        let input = InputBuffer(bytes, isFinal: true)
        try decoder.advance(input)
        let streamed = try #require(try decoder.streamingThumbnail(at: 0, width: size.width, height: size.height,
                                                                   input: input))
        #expect(streamed.raster.pixels == expected.pixels, "\(name) at \(maxPixelSize)")
        #expect(streamed.isComplete)
    }

    /// A thumbnail of a file still arriving shows the rows decoded so far, and they are final.
    @Test func partialThumbnailRowsAreFinal() throws {
        let url = Corpus.conformance.appendingPathComponent("fixtures/webp-lossy/plasma-blur-q75-128x96.webp")
        let bytes = try Corpus.bytes(url)
        let whole = try ImageSource(bytes: bytes).thumbnail(at: 0, maxPixelSize: 32)
        let source = ImageSource(incremental: .init())
        source.append(bytes[0..<(bytes.count * 2 / 3)], final: false)
        let partial = try source.thumbnail(at: 0, maxPixelSize: 32)
        #expect(partial.finalRowCount > 0 && partial.finalRowCount < whole.height)
        let rows = partial.finalRowCount * partial.bytesPerRow
        #expect(partial.pixels[0..<rows] == whole.pixels[0..<rows])
    }

    /// The band: a decoder holds a few rows of planes, not the frame's.
    @Test func decoderHoldsABandOfPlanes() throws {
        let url = Corpus.conformance.appendingPathComponent("fixtures/webp-lossy/plasma-blur-q75-128x96.webp")
        let bytes = try Corpus.bytes(url)
        let range = try bytes.withUnsafeBufferPointer { (p) throws(DecodingError) in try WebPContainer.lossyBitstream(p) }
        let payload = Array(bytes[range])
        let decoder = try payload.withUnsafeBufferPointer { (p) throws(DecodingError) in
            try VP8Decoder(p, chunkSize: payload.count, limits: Limits(), output: .thumbnail(width: 8, height: 6))
        }
        // Y: 24 lines of 128; U and V: 12 lines of 64 (the frame's would be 96 and 48 lines).
        #expect(decoder.job.planes.count == 128 * 24 + 2 * 64 * 12)
        #expect(decoder.sink.pixels.isEmpty && decoder.sink.isThumbnail)
    }
}
