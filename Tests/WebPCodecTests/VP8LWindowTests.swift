import CodecCore
import ImageCodecs
import TestSupport
import Testing
@testable import WebPCodec

/// Images larger than the VP8L decoder's window of the coded image (fixtures-webp-window.tsv,
/// made by make_webp_window_fixtures.py: content repeating just under the farthest LZ77
/// distance): a lossless still and two lossy ones, whose ALPH streams are predictor-coded and
/// colour-indexed (libwebp's 8-bit path, its indices in a byte-wide window). Their full
/// decodes equal dwebp's, whole and fed in pieces; their thumbnails, shrunk as the rows come
/// out, equal the full decode shrunk, whole and over a download in small appends.
struct VP8LWindowTests {
    static let entries = (try? Manifest.load("fixtures-webp-window.tsv")) ?? []
    static let lossless = "fixtures/webp-window/blocks-lossless-1536x1400.webp"
    static let alpha = "fixtures/webp-window/blocks-alpha-lossy-1536x1400.webp"
    static let alphaIndexed = "fixtures/webp-window/blocks-alpha8-lossy-1536x1400.webp"

    @Test func manifestIsLoaded() {
        #expect(Self.entries.map(\.path).sorted() == [Self.alpha, Self.alphaIndexed, Self.lossless])
        #expect(Self.entries.allSatisfy { !$0.isError })
    }

    /// Whole, and fed in pieces of 16 KiB with the image asked for after each (each batch
    /// that runs out of bytes is retried from its checkpoint).
    @Test(arguments: entries)
    func matchesDwebp(_ entry: ManifestEntry) throws {
        let bytes = try WebPSourceCheck.fixture(entry.path)
        let whole = Decoding.whole(bytes)
        #expect(whole.status == .complete && whole.frames == entry.frames, "\(entry.path) whole: \(whole)")
        let fed = Decoding.chunked(bytes, sizes: [16384]).result
        #expect(fed.status == .complete && fed.frames == entry.frames, "\(entry.path) in pieces: \(fed)")
    }

    /// The fixtures do what they are for: the coded image is larger than the window.
    @Test func windowIsSmallerThanTheImage() throws {
        let bytes = try WebPSourceCheck.fixture(Self.lossless)
        let payload = Array(bytes[20...])
        let decoder = try payload.withUnsafeBufferPointer { (p) throws(DecodingError) in
            try VP8LDecoder(p, limits: Limits())
        }
        #expect(decoder.coded.pixels.count == VP8LCodedWindow<UInt32>.slidingCapacity)
        #expect(decoder.codedWidth * decoder.height > VP8LCodedWindow<UInt32>.slidingCapacity)
    }

    /// The ALPH stream is not on libwebp's 8-bit path (which keeps a byte per pixel): its coded
    /// image goes through the window.
    @Test func alphaStreamUsesTheWindow() throws {
        let bytes = try WebPSourceCheck.fixture(Self.alpha)
        let chunk = try #require(Self.chunk("ALPH", in: bytes))
        let header = VP8LHeader(width: 1536, height: 1400, alphaIsUsed: false)
        let decoder = try bytes[chunk.dropFirst()].withUnsafeBufferPointer { (p) throws(DecodingError) in
            try VP8LDecoder(p, header: header, imageStreamAt: 0, limits: Limits(), outputsGreen: true)
        }
        #expect(!decoder.usesEightBitAlphaPath)
        #expect(decoder.coded.pixels.count == VP8LCodedWindow<UInt32>.slidingCapacity)
    }

    /// The other ALPH stream is on the 8-bit path, its colour indices (not bundled) larger than
    /// their window.
    @Test func indexedAlphaStreamUsesTheIndexWindow() throws {
        let bytes = try WebPSourceCheck.fixture(Self.alphaIndexed)
        let chunk = try #require(Self.chunk("ALPH", in: bytes))
        let header = VP8LHeader(width: 1536, height: 1400, alphaIsUsed: false)
        let decoder = try bytes[chunk.dropFirst()].withUnsafeBufferPointer { (p) throws(DecodingError) in
            try VP8LDecoder(p, header: header, imageStreamAt: 0, limits: Limits(), outputsGreen: true)
        }
        #expect(decoder.usesEightBitAlphaPath)
        #expect(decoder.codedWidth * decoder.height > VP8LCodedWindow<UInt8>.slidingCapacity)
        #expect(decoder.indices.pixels.count == VP8LCodedWindow<UInt8>.slidingCapacity)
        #expect(decoder.coded.pixels.isEmpty)
    }

    @Test(arguments: [lossless, alpha, alphaIndexed])
    func thumbnailEqualsShrunkFullDecode(_ path: String) throws {
        let bytes = try WebPSourceCheck.fixture(path)
        let full = try ImageSource(bytes: bytes).image(at: 0).rgba8Raster()
        try WebPThumbnailTests.checkStreamedThumbnail(bytes, full: full, maxPixelSize: 300, path)
    }

    /// A thumbnail asked for after every small append resumes the same job; the rows it calls
    /// final are, and the last one equals the thumbnail of the whole file.
    @Test(arguments: [lossless, alpha, alphaIndexed])
    func thumbnailOverADownload(_ path: String) throws {
        let bytes = try WebPSourceCheck.fixture(path)
        let whole = try ImageSource(bytes: bytes).thumbnail(at: 0, maxPixelSize: 300)
        let source = ImageSource(incremental: .init())
        var offset = 0
        var sawPartialRows = false
        while offset < bytes.count {
            let end = min(bytes.count, offset + 8192)
            source.append(bytes[offset..<end], final: end == bytes.count)
            offset = end
            guard let partial = try? source.thumbnail(at: 0, maxPixelSize: 300) else { continue }
            let rows = partial.finalRowCount * partial.bytesPerRow
            #expect(partial.pixels[0..<rows] == whole.pixels[0..<rows], "\(path) at \(end) bytes")
            if partial.finalRowCount > 0 && partial.finalRowCount < whole.height { sawPartialRows = true }
        }
        let last = try source.thumbnail(at: 0, maxPixelSize: 300)
        #expect(last.pixels == whole.pixels)
        #expect(last.finalRowCount == whole.height)
        if path == Self.lossless { #expect(sawPartialRows) }
    }

    /// The payload range of the first chunk named `fourcc` of an extended WebP file.
    static func chunk(_ fourcc: String, in bytes: [UInt8]) -> Range<Int>? {
        var offset = 12
        while offset + 8 <= bytes.count {
            let size = Int(bytes[offset + 4]) | Int(bytes[offset + 5]) << 8 | Int(bytes[offset + 6]) << 16
                | Int(bytes[offset + 7]) << 24
            if String(decoding: bytes[offset..<(offset + 4)], as: UTF8.self) == fourcc {
                return (offset + 8)..<min(bytes.count, offset + 8 + size)
            }
            offset += 8 + size + (size & 1)
        }
        return nil
    }
}
