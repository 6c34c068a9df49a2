import ImageCodecs
import TestSupport
import Testing

/// MPO files (CIPA DC-007): each image of the MP index is a frame, equal to djpeg's decode of
/// that image (fixtures-mpo.tsv, scripts/make_mpo_fixtures.py; counts checked against Pillow's
/// n_frames there), whole, byte by byte and in random pieces.
struct JPEGMPOTests {
    static let entries = (try? Manifest.load("fixtures-mpo.tsv")) ?? []

    @Test func manifestIsLoaded() {
        #expect(Self.entries.count == 3 && Self.entries.map(\.frames.count).reduce(0, +) == 7)
    }

    @Test(arguments: entries)
    func framesMatchDjpeg(_ entry: ManifestEntry) throws {
        let bytes = try Corpus.bytes(Corpus.conformance.appendingPathComponent(entry.path))
        let whole = Decoding.whole(bytes)
        #expect(whole.status == .complete && whole.frames == entry.frames, "\(entry.path): \(whole)")
        for sizes in [[1], Decoding.randomSizes(count: 16, max: 300, seed: 5)] {
            #expect(Decoding.chunked(bytes, sizes: sizes).result == whole, "\(entry.path) \(sizes.prefix(2))")
        }
        let source = ImageSource(bytes: bytes)
        #expect(source.format == .jpeg && source.count == entry.frames.count)
        let p = try #require(source.properties(at: 1))
        #expect(p.x == 0 && p.y == 0 && p.disposal == .none && p.blend == .source)
    }

    /// An MP index whose second offset points past the file's images: the frames stop at the
    /// first image; cut inside the second image: that frame is truncated, the first is whole.
    @Test func brokenAndCutIndex() throws {
        let url = Corpus.conformance.appendingPathComponent(try #require(Self.entries.first).path)
        let bytes = try Corpus.bytes(url)
        let secondStart = try #require(Self.secondImageOffset(bytes))
        var pointingAtNoImage = bytes
        pointingAtNoImage[secondStart] = 0x00
        let broken = ImageSource(bytes: pointingAtNoImage)
        #expect(broken.status == .complete && broken.count == 1)
        #expect(try broken.image(at: 0).isComplete)

        let firstOnly = ImageSource(bytes: Array(bytes[..<secondStart]))
        #expect(firstOnly.status == .complete && firstOnly.count == 1, "an image listed past the end is not there")
        var oneFrame = DecodingOptions()
        oneFrame.limits.maxFrames = 1
        let capped = ImageSource(bytes: bytes, options: oneFrame)
        #expect(capped.status == .complete && capped.count == 1)

        let cut = ImageSource(bytes: Array(bytes[..<(secondStart + (bytes.count - secondStart) / 2)]))
        #expect(cut.count == 2 && cut.status == .unexpectedEOF)
        #expect(try cut.image(at: 0).isComplete)
        #expect(cut.status(at: 1) == .unexpectedEOF)
    }

    /// The second SOI: the first FF D8 after the first image's EOI.
    static func secondImageOffset(_ bytes: [UInt8]) -> Int? {
        guard let eoi = (2..<(bytes.count - 1)).first(where: { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xD9 }) else { return nil }
        return eoi + 2 < bytes.count && bytes[eoi + 2] == 0xFF ? eoi + 2 : nil
    }
}
