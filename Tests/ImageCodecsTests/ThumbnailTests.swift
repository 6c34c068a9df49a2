import Foundation
import GIFCodec
import ImageCodecs
import PNGCodec
import TestSupport
import Testing

/// Thumbnails of every still image and of the first frame of every animation are shrunk while
/// decoding — Adam7 passes, interlaced GIF rows, frames placed on the canvas — and equal the
/// full decode shrunk by the same resampler.
struct ThumbnailTests {
    static let fixtures = ["png", "gif", "apng"].flatMap {
        Corpus.files(in: Corpus.conformance.appendingPathComponent("fixtures/\($0)"), suffix: ".\($0 == "gif" ? "gif" : "png")")
    }

    /// A decoder of the file's format over all of its bytes.
    static func decoder(_ bytes: [UInt8]) throws -> (any ImageDecoding, InputBuffer) {
        let decoder: any ImageDecoding = bytes.starts(with: PNGFormat.signature)
            ? PNGDecoder(options: .init()) : GIFDecoder(options: .init())
        let input = InputBuffer(bytes, isFinal: true)
        try decoder.advance(input)
        return (decoder, input)
    }

    @Test(arguments: fixtures)
    func streamedThumbnailEqualsShrunkFullDecode(_ url: URL) throws {
        let bytes = try Corpus.bytes(url)
        let source = ImageSource(bytes: bytes)
        guard let p = source.properties, let full = try? source.image(at: 0) else { return }
        for maxPixelSize in [1, 7, max(1, max(p.width, p.height) / 2)] {
            let size = StreamingResampler.fittedSize(width: p.width, height: p.height, maxPixelSize: maxPixelSize)
            let expected = StreamingResampler.resample(full.rgba8Raster(), toWidth: size.width, height: size.height)
            // Straight from a fresh decoder, so the streaming path is the one measured.
            let (decoder, input) = try Self.decoder(bytes)
            let streamed = try decoder.streamingThumbnail(at: 0, width: size.width, height: size.height, input: input)
            #expect(streamed?.raster.pixels == expected.pixels, "\(url.lastPathComponent) at \(maxPixelSize)")
            #expect(streamed?.isComplete == true)
            // A size the image already fits is the image itself, not shrunk.
            let unchanged = size.width == p.width && size.height == p.height
            #expect(try ImageSource(bytes: bytes).thumbnail(at: 0, maxPixelSize: maxPixelSize, applyOrientation: false).pixels
                    == (unchanged ? full.pixels : expected.pixels))
        }
    }

    /// A thumbnail of a file still arriving shows the rows decoded so far, and they are final.
    @Test func partialThumbnailRowsAreFinal() throws {
        let bytes = try Corpus.bytes(Corpus.conformance.appendingPathComponent("fixtures/png/rgba8-64x64.png"))
        let whole = try ImageSource(bytes: bytes).thumbnail(at: 0, maxPixelSize: 16)
        let source = ImageSource(incremental: .init())
        source.append(bytes[0..<(bytes.count / 2)], final: false)
        let partial = try source.thumbnail(at: 0, maxPixelSize: 16)
        #expect(partial.finalRowCount > 0 && partial.finalRowCount < 16)
        let rows = partial.finalRowCount * partial.bytesPerRow
        #expect(partial.pixels[0..<rows] == whole.pixels[0..<rows])
    }

    /// Fuzz finding: a thumbnail of a PNG 536 million pixels wide allocated its column map before
    /// any limit was checked. The frame's pixel count is checked first, as for a full decode.
    @Test func hugeFrameIsRefusedBeforeAllocating() throws {
        let bytes = try Corpus.bytes(Corpus.projectRoot.appendingPathComponent("Fuzz/findings/thumbnail-wide-frame-oom.png"))
        var options = DecodingOptions()
        options.ignoresChecksums = true   // as the fuzz target decodes
        let source = ImageSource(bytes: bytes, options: options)
        #expect(source.properties?.width == 0x2000_0020)
        #expect(throws: DecodingError.self) { try source.thumbnail(at: 0, maxPixelSize: 32) }
        #expect(source.error?.kind == .limitExceeded)
    }

    /// Pixels stay straight RGBA through shrinking and are converted to the caller's layout once,
    /// at the end: a premultiplied BGRA thumbnail is the straight one converted, on the streaming
    /// path (frame 0) and on the shrink-the-full-image path (a later animation frame), with no
    /// round trip through premultiplied values.
    @Test func layoutIsAppliedOnceAfterShrinking() throws {
        let destination = try ImageDestination(format: .png)
        for seed in 0..<2 {
            var pixels: [UInt8] = []
            for i in 0..<(40 * 30) {
                pixels += [UInt8(truncatingIfNeeded: i &* 13 &+ seed), UInt8(truncatingIfNeeded: i &* 5), 200, UInt8(truncatingIfNeeded: i &* 3 | 1)]
            }
            try destination.add(DecodedImage(width: 40, height: 30, pixelFormat: .rgba8, isPremultiplied: false,
                                             pixels: pixels, finalRowCount: 30), duration: .milliseconds(50))
        }
        let apng = try destination.finalize()
        var options = DecodingOptions()
        options.premultipliedAlpha = true
        options.byteOrder = .bgra8
        for index in 0..<2 {
            let straight = try ImageSource(bytes: apng).thumbnail(at: index, maxPixelSize: 7)
            let converted = try ImageSource(bytes: apng, options: options).thumbnail(at: index, maxPixelSize: 7)
            var expected = straight.pixels
            PixelConversion.premultiplyRGBA8(&expected)
            PixelConversion.swapRedBlue(&expected)
            #expect(converted.pixelFormat == .bgra8 && converted.isPremultiplied)
            #expect(converted.pixels == expected, "frame \(index)")
        }
    }
}
