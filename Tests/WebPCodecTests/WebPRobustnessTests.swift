import CodecCore
import ImageCodecs
import TestSupport
import Testing
@testable import WebPCodec

/// Cut files, hostile files and formats not decoded yet, through ``ImageSource``.
struct WebPTruncationTests {
    /// A cut still keeps the rows decoded before the cut (equal to the whole image's) and ends
    /// in `unexpectedEOF`; a cut animation keeps the frames that arrived whole.
    @Test(arguments: ["fixtures/webp/plasma-blur-z9-128x96.webp", "fixtures/webp/alpha-ramp-exact-z6-48x40.webp",
                      "fixtures/webp/plasma-blur-z6-icc-64x48.webp", "fixtures/webp-lossy/plasma-blur-q75-128x96.webp",
                      "fixtures/webp-lossy/alpha-soft-afbest-64x48.webp", "fixtures/webp-lossy/alpha-ramp-am0-48x40.webp"])
    func cutStillKeepsItsRows(_ path: String) throws {
        let bytes = try WebPSourceCheck.fixture(path)
        let full = try ImageSource(bytes: bytes).image(at: 0)
        var sawRows = false
        for fraction in [0.05, 0.3, 0.6, 0.9, 0.99] {
            let cut = Array(bytes.prefix(Int(Double(bytes.count) * fraction)))
            let source = ImageSource(bytes: cut)
            #expect(source.status == .unexpectedEOF, "\(path) cut at \(cut.count): \(source.status)")
            guard source.count > 0, let image = try? source.image(at: 0) else { continue }
            #expect(image.finalRowCount < image.height)
            let rowBytes = image.width * 4
            let final = image.finalRowCount * rowBytes
            #expect(Array(image.pixels.prefix(final)) == Array(full.pixels.prefix(final)), "\(path) cut at \(cut.count)")
            sawRows = sawRows || image.finalRowCount > 0
        }
        #expect(sawRows, "\(path): no cut kept any row")
    }

    @Test(arguments: ["fixtures/webp/anim-mux-blend-32x24.webp", "fixtures/webp/anim-img2webp-ramp-loop3-32x24.webp"])
    func cutAnimationKeepsWholeFrames(_ path: String) throws {
        let bytes = try WebPSourceCheck.fixture(path)
        let whole = Decoding.whole(bytes)
        for length in stride(from: 20, to: bytes.count, by: max(1, bytes.count / 23)) {
            let source = ImageSource(bytes: bytes.prefix(length))
            #expect(source.status == .unexpectedEOF, "cut at \(length)")
            for k in 0..<source.count where source.status(at: k) == .complete {
                let image = try source.image(at: k)
                #expect("\(image.width)x\(image.height) \(CanonicalHash.hex(image))" == whole.frames[k], "cut at \(length), frame \(k)")
            }
        }
    }
}

struct WebPHostileInputTests {
    /// The crashers never trap or hang: whole, every frame, a thumbnail, fed in pieces.
    @Test(.enabled(if: Corpus.root != nil, "corpus absent: set IMAGECODECS_CORPUS or place shared/corpus beside the project"))
    func crashersNeverTrap() throws {
        #expect(try Robustness.exerciseCrashers("webp") > 100)
    }

    /// Where dwebp decodes a crasher (VP8L, VP8 or VP8+ALPH), ImageSource gives the same
    /// pixels; where it refuses one, ImageSource does not finish it.
    @Test(.enabled(if: Corpus.root != nil, "corpus absent: set IMAGECODECS_CORPUS or place shared/corpus beside the project"))
    func crasherVerdictsMatchDwebp() throws {
        let rows = Manifest.rows("crashers-webp.tsv").filter { $0.count >= 4 && ["VP8L", "VP8", "VP8+ALPH"].contains($0[2]) }
        var options = DecodingOptions()
        options.limits.maxPixels = 1 << 24
        for row in rows {
            let result = Decoding.whole(try Corpus.bytes(Corpus.root!.appendingPathComponent(row[0])), options: options)
            if row[1] == "ok" {
                #expect(result.status == .complete && result.frames == [row[3]], "\(row[0]): \(result)")
            } else {
                #expect(result.status != .complete || result.frames.isEmpty, "\(row[0]) decoded where dwebp refuses: \(result)")
            }
        }
        #expect(rows.count >= 70)
    }

    /// A lossy still's size is known from its VP8 frame header, before any pixel is decoded.
    @Test(.enabled(if: Corpus.root != nil, "corpus absent"))
    func lossySizeFromHeader() throws {
        let row = try #require(Manifest.rows("webp.tsv").first { $0.count >= 5 && $0[4] == "VP8" && $0[3] != "error" })
        let source = ImageSource(bytes: try Corpus.bytes(Corpus.root!.appendingPathComponent(row[0])))
        #expect(source.format == .webp && source.count == 1)
        #expect("\(source.properties?.width ?? 0)x\(source.properties?.height ?? 0)" == row[2])
    }

    /// Container rules on hand-made files: odd chunk sizes are padded, a chunk past the RIFF
    /// end is invalid, unknown chunks are skipped, a frame outside the canvas is invalid.
    @Test func containerRules() throws {
        let still = try WebPSourceCheck.fixture("fixtures/webp/plasma-z6-3x5.webp")
        let vp8l = Array(still[12...])                      // "VP8L" chunk, padded
        // An unknown odd-sized chunk before the image in an extended file: skipped.
        let vp8x: [UInt8] = Array("VP8X".utf8) + [10, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 4, 0, 0]
        let unknown: [UInt8] = Array("ABCD".utf8) + [3, 0, 0, 0, 1, 2, 3, 0]
        let extended = riff(vp8x + unknown + vp8l)
        #expect(Decoding.whole(extended).frames == Decoding.whole(still).frames)
        #expect(Decoding.whole(extended).status == .complete)
        // A chunk whose size passes the RIFF end.
        var overflow = riff(vp8x + unknown + vp8l)
        overflow[12 + 18 + 4] = 0xFF
        #expect(Decoding.whole(overflow).status == .invalidData)
        // Wrong canvas size for a still.
        var canvas = extended
        canvas[12 + 8 + 4] = 9
        #expect(Decoding.whole(canvas).status == .invalidData)
    }

    /// EXIF (orientation), XMP and ICCP chunks of an extended file become properties, as PNG and
    /// JPEG expose them; a leading "Exif\0\0" is dropped from the EXIF payload.
    @Test func metadataChunks() throws {
        let still = try WebPSourceCheck.fixture("fixtures/webp/plasma-z6-3x5.webp")
        let vp8x: [UInt8] = Array("VP8X".utf8) + [10, 0, 0, 0, 0x2C, 0, 0, 0, 2, 0, 0, 4, 0, 0]
        // TIFF, little-endian, IFD0 with one entry: Orientation (274), SHORT, 1, value 6.
        let tiff: [UInt8] = [0x49, 0x49, 42, 0, 8, 0, 0, 0, 1, 0, 0x12, 0x01, 3, 0, 1, 0, 0, 0, 6, 0, 0, 0, 0, 0, 0, 0]
        let exifPayload = Array("Exif\0\0".utf8) + tiff
        let exif = Array("EXIF".utf8) + [UInt8(exifPayload.count), 0, 0, 0] + exifPayload
        let xmpText = Array("<x:xmpmeta/>".utf8)
        let xmp = Array("XMP ".utf8) + [UInt8(xmpText.count), 0, 0, 0] + xmpText
        let icc = Array("ICCP".utf8) + [3, 0, 0, 0, 7, 8, 9, 0]
        let file = riff(vp8x + icc + Array(still[12...]) + exif + xmp)
        let source = ImageSource(bytes: file)
        #expect(source.status == .complete)
        let p = try #require(source.properties)
        #expect(p.orientation == 6)
        #expect(p.exif == tiff)
        #expect(p.iccProfile == [7, 8, 9])
        #expect(p.text == [TextEntry(keyword: "XML:com.adobe.xmp", text: "<x:xmpmeta/>")])
        #expect(Decoding.whole(file).frames == Decoding.whole(still).frames)
    }

    private func riff(_ chunks: [UInt8]) -> [UInt8] {
        let size = UInt32(4 + chunks.count)
        return Array("RIFF".utf8) + [UInt8(size & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size >> 16 & 0xFF), UInt8(size >> 24)]
            + Array("WEBP".utf8) + chunks
    }
}
