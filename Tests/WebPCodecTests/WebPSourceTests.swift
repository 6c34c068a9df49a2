import CodecCore
import ImageCodecs
import TestSupport
import Testing
@testable import WebPCodec

/// WebP through ``ImageSource``: the manifests' files decoded whole and fed in pieces.
enum WebPSourceCheck {
    /// Whole, then fed in pieces of 1, 7 and 4096 bytes: each must give `entry`'s frames.
    static func check(_ entry: ManifestEntry, _ bytes: [UInt8], pieces: [Int] = [1, 7, 4096]) {
        let whole = Decoding.whole(bytes)
        if entry.isError {
            #expect(whole.status != .complete || whole.frames.isEmpty, "\(entry.path): \(whole)")
            return
        }
        #expect(whole.status == .complete && whole.frames == entry.frames, "\(entry.path) whole: \(whole)")
        for size in pieces {
            let fed = Decoding.chunked(bytes, sizes: [size]).result
            #expect(fed.status == .complete && fed.frames == entry.frames, "\(entry.path) in pieces of \(size): \(fed)")
        }
        var eager = DecodingOptions()
        eager.decodesImmediately = true
        let random = Decoding.chunked(bytes, sizes: Decoding.randomSizes(count: 32, max: 300, seed: 11), options: eager).result
        #expect(random.frames == entry.frames, "\(entry.path) random pieces, decoding on arrival: \(random)")
    }

    static func fixture(_ path: String) throws -> [UInt8] {
        try Corpus.bytes(Corpus.conformance.appendingPathComponent(path))
    }
}

/// The still fixtures, lossless (fixtures-webp.tsv) and lossy with or without alpha
/// (fixtures-webp-lossy.tsv), against dwebp through ImageSource.
struct WebPSourceFixtureTests {
    static let entries = ((try? Manifest.load("fixtures-webp.tsv")) ?? []) + ((try? Manifest.load("fixtures-webp-lossy.tsv")) ?? [])

    @Test(arguments: entries)
    func matchesDwebp(_ entry: ManifestEntry) throws {
        WebPSourceCheck.check(entry, try WebPSourceCheck.fixture(entry.path))
    }
}

/// The animated fixtures (fixtures-webp-anim.tsv): every composited frame equal to libwebp's
/// WebPAnimDecoder, whole and fed in pieces.
struct WebPAnimationFixtureTests {
    static let entries = (try? Manifest.load("fixtures-webp-anim.tsv")) ?? []

    @Test func manifestIsLoaded() {
        #expect(Self.entries.count >= 13)
    }

    @Test(arguments: entries)
    func matchesWebPAnimDecoder(_ entry: ManifestEntry) throws {
        WebPSourceCheck.check(entry, try WebPSourceCheck.fixture(entry.path))
    }

    /// Random access: frame k asked for first, then the frames before it, gives the same canvases.
    @Test(arguments: entries)
    func randomAccess(_ entry: ManifestEntry) throws {
        let source = ImageSource(bytes: try WebPSourceCheck.fixture(entry.path))
        let order = Array((0..<source.count).reversed())
        var hashes = [String](repeating: "", count: source.count)
        for k in order {
            let image = try source.image(at: k)
            hashes[k] = "\(image.width)x\(image.height) \(CanonicalHash.hex(image))"
        }
        #expect(hashes == entry.frames, "\(entry.path)")
    }
}

/// The corpus' lossy stills, with and without ALPH (webp.tsv rows whose bitstream is VP8 or
/// VP8+ALPH), against dwebp through ImageSource: whole, in 4096-byte pieces and random pieces.
@Suite(.enabled(if: Corpus.root != nil, "corpus absent: set IMAGECODECS_CORPUS or place shared/corpus beside the project"))
struct WebPLossyCorpusSourceTests {
    static let entries = webpEntries("webp.tsv", bitstreams: ["VP8", "VP8+ALPH"])

    @Test func manifestIsLoaded() {
        #expect(Self.entries.count >= 120)
    }

    @Test(arguments: entries)
    func matchesDwebp(_ entry: ManifestEntry) throws {
        WebPSourceCheck.check(entry, try Corpus.bytes(Corpus.root!.appendingPathComponent(entry.path)), pieces: [4096])
    }
}

/// The corpus' animations (webp-anim.tsv: lossless, lossy and with ALPH frames) equal to
/// WebPAnimDecoder.
@Suite(.enabled(if: Corpus.root != nil, "corpus absent: set IMAGECODECS_CORPUS or place shared/corpus beside the project"))
struct WebPAnimationCorpusTests {
    static let entries = (try? Manifest.load("webp-anim.tsv")) ?? []

    @Test func manifestIsLoaded() {
        #expect(Self.entries.count >= 5)
    }

    @Test(arguments: entries)
    func matchesWebPAnimDecoder(_ entry: ManifestEntry) throws {
        let bytes = try Corpus.bytes(Corpus.root!.appendingPathComponent(entry.path))
        WebPSourceCheck.check(entry, bytes, pieces: [4096])
    }
}

/// Frame count, loop count and durations against Pillow (fixtures-webp-anim-info.tsv, webp-anim-info.tsv).
struct WebPInfoTests {
    struct Row: Sendable, CustomTestStringConvertible {
        let path: String
        let frameCount: Int
        let loopCount: Int
        let durations: [Double]
        var testDescription: String { path }
    }

    static func load(_ name: String) -> [Row] {
        Manifest.rows(name).compactMap { c in
            guard c.count >= 4, let frames = Int(c[1]), let loops = Int(c[2]) else { return nil }
            return Row(path: c[0], frameCount: frames, loopCount: loops,
                       durations: c[3].split(separator: ",").compactMap { Double($0) })
        }
    }

    static func check(_ row: Row, _ bytes: [UInt8]) {
        let source = ImageSource(bytes: bytes)
        let frames = (0..<source.count).compactMap { source.properties(at: $0) }
        #expect(source.format == .webp)
        #expect(frames.count == row.frameCount, "\(row.path)")
        #expect(source.properties?.loopCount == row.loopCount, "\(row.path)")
        #expect(frames.map { $0.unclampedDuration * 1000 }.elementsEqual(row.durations) { abs($0 - $1) < 1e-6 }, "\(row.path)")
        #expect(frames.map { $0.duration } == row.durations.map { $0 <= 10 ? 0.1 : $0 / 1000 }, "\(row.path)")
    }

    @Test(arguments: load("fixtures-webp-anim-info.tsv"))
    func fixturesMatchPillow(_ row: Row) throws {
        Self.check(row, try WebPSourceCheck.fixture(row.path))
    }

    @Test(.enabled(if: Corpus.root != nil, "corpus absent"), arguments: load("webp-anim-info.tsv"))
    func corpusMatchesPillow(_ row: Row) throws {
        Self.check(row, try Corpus.bytes(Corpus.root!.appendingPathComponent(row.path)))
    }

    @Test func manifestsAreLoaded() {
        #expect(Self.load("fixtures-webp-anim-info.tsv").count >= 13)
    }
}
