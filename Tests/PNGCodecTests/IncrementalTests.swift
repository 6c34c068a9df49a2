import ImageCodecs
import TestSupport
import Testing

/// The same pixels whatever the splits, statuses that only move forward, and no crash on
/// any truncation or on the crashers.
@Suite(.enabled(if: Corpus.root != nil, "corpus absent: set IMAGECODECS_CORPUS or place shared/corpus beside the project"))
struct CorpusIncrementalTests {
    static let valid: [String] = {
        ((try? Manifest.load("png.tsv")) ?? []).filter { !$0.isError && $0.path.hasPrefix("pngsuite/") }.map(\.path)
            + ((try? Manifest.load("apng.tsv")) ?? []).filter { !$0.isError }.map(\.path)
    }()

    static func bytes(_ path: String) throws -> [UInt8] {
        try Corpus.bytes(#require(Corpus.root).appendingPathComponent(path))
    }

    @Test(arguments: valid)
    func randomSplitsEqualWhole(_ path: String) throws {
        let bytes = try Self.bytes(path)
        let whole = Decoding.whole(bytes)
        for seed in [1, 2, 3] as [UInt64] {
            let (chunked, statuses) = Decoding.chunked(bytes, sizes: Decoding.randomSizes(count: 64, max: 97, seed: seed))
            #expect(chunked == whole, "\(path) seed \(seed)")
            #expect(!statuses.contains(.invalidData), "\(path): \(statuses)")
            #expect(StatusOrder.isMonotone(statuses), "\(path): \(statuses)")
        }
    }

    /// Byte by byte on the smaller files (every split point).
    @Test(arguments: valid)
    func byteByByteEqualsWhole(_ path: String) throws {
        let bytes = try Self.bytes(path)
        guard bytes.count <= 2500 else { return }
        #expect(Decoding.chunked(bytes, sizes: [1]).result == Decoding.whole(bytes), "\(path)")
    }

    /// Every prefix of a sample of files: a status that is not a crash, and never `complete`.
    @Test(arguments: ["pngsuite/basn6a16.png", "pngsuite/basi3p02.png", "pngsuite/oi9n0g16.png",
                      "pngsuite/ctzn0g04.png", "apng/pillow/dispose_op_previous_region.png"])
    func everyTruncation(_ path: String) throws {
        let bytes = try Self.bytes(path)
        for length in 0..<bytes.count {
            let result = Decoding.whole(Array(bytes[0..<length]))
            #expect([.unexpectedEOF, .invalidData, .unknownType].contains(result.status), "\(path) cut at \(length): \(result)")
        }
    }

    @Test func crashersNeverCrash() throws {
        #expect(try Robustness.exerciseCrashers("png") > 100)
    }
}

/// Statuses move forward only: readingHeader → incomplete → complete (or a final error).
enum StatusOrder {
    static func rank(_ s: ImageSourceStatus) -> Int {
        switch s {
        case .readingHeader: 0
        case .incomplete: 1
        default: 2
        }
    }

    static func isMonotone(_ statuses: [ImageSourceStatus]) -> Bool {
        zip(statuses, statuses.dropFirst()).allSatisfy { rank($0) <= rank($1) }
    }
}
