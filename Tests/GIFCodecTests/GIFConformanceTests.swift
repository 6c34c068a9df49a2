import ImageCodecs
import TestSupport
import Testing

/// The project's GIF fixtures (Conformance/fixtures/gif, made with ImageMagick, gifsicle and a
/// byte writer) against giflib composited with browser semantics; they always run.
struct GIFFixtureTests {
    static let entries = (try? Manifest.load("fixtures-gif.tsv")) ?? []

    @Test func manifestIsLoaded() {
        #expect(Self.entries.count >= 39)
    }

    @Test(arguments: entries)
    func matchesReference(_ entry: ManifestEntry) throws {
        let bytes = try GIFConformance.fixtureBytes(entry.path)
        let whole = GIFConformance.decode(bytes)
        let count = ImageSource(bytes: bytes).count
        if entry.isError {
            #expect(GIFConformance.failed(whole, frameCount: count), "\(entry.path): \(whole)")
        } else {
            #expect(whole.status == .complete && whole.error == nil, "\(entry.path): \(whole)")
            #expect(whole.frames == entry.frames, "\(entry.path)")
        }
        let reference = ImageSource(bytes: bytes)
        #expect(GIFConformance.sameFrames(reference, GIFConformance.fed(bytes, sizes: [1], asking: true)), "\(entry.path) byte by byte")
        #expect(GIFConformance.sameFrames(reference, GIFConformance.fed(bytes, sizes: [1], asking: false)), "\(entry.path) byte by byte, decoding on arrival")
        for seed in [7, 8] as [UInt64] {
            let sizes = Decoding.randomSizes(count: 32, max: 200, seed: seed)
            #expect(GIFConformance.sameFrames(reference, GIFConformance.fed(bytes, sizes: sizes, asking: true)), "\(entry.path) seed \(seed)")
        }
    }
}

/// The shared corpus (`gif/`) against giflib composited with browser semantics (gif.tsv), the
/// pygif suite's expected frames (pygif.tsv) and the crashers.
@Suite(.enabled(if: Corpus.root != nil, "corpus absent: set IMAGECODECS_CORPUS or place shared/corpus beside the project"))
struct GIFCorpusTests {
    /// Files where this library differs from giflib on purpose (SPEC-NOTES.md, GIF;
    /// Conformance/manifests/deviations.tsv).
    static let deviations = Deviations.kinds["gif.tsv"] ?? [:]

    static let entries = (try? Manifest.load("gif.tsv")) ?? []
    static let repaired = GIFConformance.repairedFrames("gif.tsv")

    @Test func manifestIsLoaded() {
        #expect(Self.entries.count >= 198)
        #expect(Self.deviations.keys.allSatisfy { path in Self.entries.contains { $0.path == path && $0.isError } })
    }

    @Test(arguments: entries)
    func matchesGiflib(_ entry: ManifestEntry) throws {
        let bytes = try GIFConformance.corpusBytes(entry.path)
        let result = GIFConformance.decode(bytes)
        switch Self.deviations[entry.path] {
        case "repaired":
            #expect(result.status == .complete && result.frames == Self.repaired[entry.path], "\(entry.path): \(result)")
        case "empty-frame":
            #expect(result.status == .complete && result.frames.count == 1, "\(entry.path): \(result)")
        default:
            if entry.isError {
                #expect(GIFConformance.failed(result, frameCount: ImageSource(bytes: bytes).count), "\(entry.path): \(result)")
            } else {
                #expect(result.status == .complete && result.error == nil, "\(entry.path): \(result)")
                #expect(result.frames == entry.frames, "\(entry.path)")
            }
        }
    }

    /// pygif's expected frames where its frame notion is one frame per image; the four it
    /// expects that giflib and Chromium refuse (0-sized images without data, code size 11) fail.
    @Test func matchesPygif() throws {
        let text = try String(contentsOf: Corpus.conformance.appendingPathComponent("manifests/pygif.tsv"), encoding: .utf8)
        var expected: [String: [Int: String]] = [:]
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            let c = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard c.count >= 8, c[5] == "yes", let frame = Int(c[2]) else { continue }
            expected[c[1], default: [:]][frame] = "\(c[3]) \(c[4])"
        }
        #expect(expected.values.map(\.count).reduce(0, +) == 92)
        let refused = Set(["image-zero-width", "image-zero-height", "image-zero-size", "max-codes"].map { "gif/pygif-test-suite/\($0).gif" })
        for (path, frames) in expected {
            let bytes = try GIFConformance.corpusBytes(path)
            let result = GIFConformance.decode(bytes)
            if refused.contains(path) {
                #expect(GIFConformance.failed(result, frameCount: ImageSource(bytes: bytes).count), "\(path): \(result)")
                continue
            }
            for (index, hash) in frames { #expect(result.frames.indices.contains(index) && result.frames[index] == hash, "\(path) frame \(index)") }
        }
    }

    static let valid = entries.filter { !$0.isError }.map(\.path)

    /// Random splits on every file, and byte by byte on all but the largest, decoding as bytes
    /// arrive (as `imagecodecs feed` does): the same frames as the whole file. Byte by byte with
    /// a partial image asked for after every byte (each one a canvas) only where that stays cheap.
    @Test(arguments: valid)
    func splitsEqualWhole(_ path: String) throws {
        let bytes = try GIFConformance.corpusBytes(path)
        let whole = ImageSource(bytes: bytes)
        let canvas = (whole.properties?.width ?? 0) * (whole.properties?.height ?? 0)
        for seed in (bytes.count < 100_000 ? [1, 2] : [1]) as [UInt64] {
            let sizes = Decoding.randomSizes(count: 64, max: 997, seed: seed)
            #expect(GIFConformance.sameFrames(whole, GIFConformance.fed(bytes, sizes: sizes, asking: false)), "\(path) seed \(seed)")
        }
        #expect(GIFConformance.sameFrames(whole, GIFConformance.fed(bytes, sizes: [65536], asking: false)), "\(path) 64 KiB")
        if bytes.count <= 200_000 {
            #expect(GIFConformance.sameFrames(whole, GIFConformance.fed(bytes, sizes: [1], asking: false)), "\(path) byte by byte")
        }
        if bytes.count * canvas <= 4_000_000 {
            #expect(GIFConformance.sameFrames(whole, GIFConformance.fed(bytes, sizes: [1], asking: true)), "\(path) byte by byte, asking")
        }
    }

    /// Every prefix of a sample of files: never `complete`, never a crash.
    @Test(arguments: ["gif/giflib/pic/treescap-interlaced.gif", "gif/pygif-test-suite/dispose-restore-previous.gif",
                      "gif/peterdn-gif-test-suite/animated_transparent_restoreprev_loop.gif",
                      "gif/wuffs/hippopotamus.interlaced.gif", "gif/image-rs/images/anim/mixed-disposal.gif"])
    func everyTruncation(_ path: String) throws {
        let bytes = try GIFConformance.corpusBytes(path)
        for length in 0..<bytes.count {
            let source = ImageSource(bytes: bytes[0..<length])
            #expect([.unexpectedEOF, .invalidData, .unknownType].contains(source.status), "\(path) cut at \(length)")
            if source.count > 0 { _ = try? source.image(at: source.count - 1) }
        }
    }

    @Test func crashersNeverCrash() throws {
        #expect(try Robustness.exerciseCrashers("gif") > 100)
    }
}
