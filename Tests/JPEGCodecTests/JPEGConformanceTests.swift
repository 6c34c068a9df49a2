import ImageCodecs
import TestSupport
import Testing

/// The project's JPEG fixtures (Conformance/fixtures/jpeg, made with cjpeg and jpegtran) against
/// `djpeg -dct int` (ISLOW, fancy upsampling); they always run, whole and fed in pieces.
struct JPEGFixtureTests {
    static let entries = (try? Manifest.load("fixtures-jpeg.tsv")) ?? []

    @Test func manifestIsLoaded() {
        #expect(Self.entries.count >= 87)
    }

    @Test(arguments: entries)
    func matchesDjpeg(_ entry: ManifestEntry) throws {
        let bytes = try Corpus.bytes(Corpus.conformance.appendingPathComponent(entry.path))
        let whole = Decoding.whole(bytes)
        #expect(whole.status == .complete && whole.frames == entry.frames, "\(entry.path): \(whole)")
        var eager = DecodingOptions()
        eager.decodesImmediately = true
        // Byte by byte for the small files (a larger progressive one would be reconstructed
        // after every byte in a debug build), in random pieces for all.
        for sizes in [bytes.count <= 4096 ? [1] : [37], Decoding.randomSizes(count: 16, max: 300, seed: 3)] {
            #expect(Decoding.chunked(bytes, sizes: sizes).result == whole, "\(entry.path) \(sizes.prefix(2))")
            #expect(Decoding.chunked(bytes, sizes: sizes, options: eager).result == whole, "\(entry.path) eager")
        }
    }
}

/// The shared corpus (`jpeg/`) against djpeg (jpeg.tsv), and the crashers.
@Suite(.enabled(if: Corpus.root != nil, "corpus absent: set IMAGECODECS_CORPUS or place shared/corpus beside the project"))
struct JPEGCorpusTests {
    static let entries = (try? Manifest.load("jpeg.tsv")) ?? []
    static let deviations = Deviations.kinds["jpeg.tsv"] ?? [:]

    @Test func manifestIsLoaded() {
        #expect(Self.entries.count >= 534)
    }

    @Test(arguments: entries)
    func matchesDjpeg(_ entry: ManifestEntry) throws {
        let bytes = try Corpus.bytes(Corpus.root!.appendingPathComponent(entry.path))
        let result = Decoding.whole(bytes)
        if Self.deviations[entry.path] == "not-jpeg" {
            #expect(result.status == .complete && ImageSource(bytes: bytes).format != .jpeg, "\(entry.path)")
        } else if entry.isError {
            #expect(result.frames.isEmpty || result.status == .invalidData, "\(entry.path): \(result)")
        } else {
            #expect(result.frames == entry.frames, "\(entry.path): \(result)")
        }
    }

    @Test func crashersNeverCrash() throws {
        #expect(try Robustness.exerciseCrashers("jpeg") > 100)
    }
}
