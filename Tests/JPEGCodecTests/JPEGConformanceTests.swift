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
        if JPEGKnownGaps.isArithmetic(entry.path) {
            #expect(whole.error?.kind == .unsupported, "\(entry.path): \(whole)")
            return
        }
        #expect(whole.status == .complete && whole.frames == entry.frames, "\(entry.path): \(whole)")
        var eager = DecodingOptions()
        eager.decodesImmediately = true
        for sizes in [[1], Decoding.randomSizes(count: 16, max: 300, seed: 3)] {
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
        } else if JPEGKnownGaps.isArithmetic(entry.path) || (entry.isError == false && JPEGKnownGaps.usesArithmetic(bytes)) {
            #expect(result.error?.kind == .unsupported, "\(entry.path): \(result)")
        } else if entry.isError {
            #expect(result.frames.isEmpty || result.status == .invalidData, "\(entry.path): \(result)")
        } else if JPEGKnownGaps.blockSmoothing.contains(entry.path) {
            // Pixels differ until libjpeg-turbo's block smoothing is implemented; the size must not.
            #expect(result.frames.first?.split(separator: " ").first == entry.frames.first?.split(separator: " ").first, "\(entry.path)")
        } else {
            #expect(result.frames == entry.frames, "\(entry.path): \(result)")
        }
    }

    @Test func crashersNeverCrash() throws {
        #expect(try Robustness.exerciseCrashers("jpeg") > 100)
    }
}

/// What the decoder does not do yet (issue 7), named so that the tests pin today's behaviour.
enum JPEGKnownGaps {
    /// Arithmetic-coded frames (SOF9/SOF10) are refused as unsupported for now.
    static func isArithmetic(_ path: String) -> Bool { path.contains("arith") }

    /// Whether the frame header is SOF9–SOF15 with arithmetic coding.
    static func usesArithmetic(_ bytes: [UInt8]) -> Bool {
        var i = 2
        while i + 3 < bytes.count {
            guard bytes[i] == 0xFF else { i += 1; continue }
            let code = bytes[i + 1]
            if code == 0xC9 || code == 0xCA { return true }
            if code == 0xC0 || code == 0xC1 || code == 0xC2 || code == 0xDA { return false }
            i += 2 + (Int(bytes[i + 2]) << 8 | Int(bytes[i + 3]))
        }
        return false
    }

    /// Progressive files whose last scans are missing or cut: libjpeg-turbo 2.1.5 smooths their
    /// blocks (jdcoefct.c `decompress_smooth_data`), which is not implemented yet.
    static let blockSmoothing: Set<String> = Set((0...8).map { "jpeg/wuffs/peacock.progressive.scan00\($0).jpeg" }
        + ["jpeg/wuffs/peacock.progressive.truncated.jpeg"])
}
