import CodecCore
import ImageCodecs
import TestSupport
import Testing
@testable import WebPCodec

/// Decodes a lossy WebP file with the VP8 decoder and returns "WxH sha256" of its canonical
/// bytes, or the error.
func lossyHash(_ bytes: [UInt8], limits: Limits = Limits()) -> Result<String, DecodingError> {
    wholeFileHash(bytes) { (p) throws(DecodingError) in try WebPContainer.decodeLossy(p, limits: limits) }
}

/// Rows of a WebP manifest whose bitstream column says VP8 (lossy without an ALPH chunk).
func lossyEntries(_ manifest: String) -> [ManifestEntry] {
    webpEntries(manifest, bitstreams: ["VP8"])
}

/// The project's lossy WebP fixtures (Conformance/fixtures/webp-lossy, made with cwebp from
/// ImageMagick patterns) against `dwebp -pam`; they always run.
struct VP8FixtureTests {
    static let entries = lossyEntries("fixtures-webp-lossy.tsv")

    @Test func manifestIsLoaded() {
        #expect(Self.entries.count >= 45)
    }

    @Test(arguments: entries)
    func matchesDwebp(_ entry: ManifestEntry) throws {
        expectVerdict(entry, lossyHash(try Corpus.bytes(Corpus.conformance.appendingPathComponent(entry.path))))
    }
}

/// The shared corpus' lossy stills without alpha (webp.tsv rows whose bitstream is VP8)
/// against dwebp.
@Suite(.enabled(if: Corpus.root != nil, "corpus absent: set IMAGECODECS_CORPUS or place shared/corpus beside the project"))
struct VP8CorpusTests {
    static let entries = lossyEntries("webp.tsv")

    @Test func manifestIsLoaded() {
        #expect(Self.entries.count >= 90)
    }

    @Test(arguments: entries)
    func matchesDwebp(_ entry: ManifestEntry) throws {
        expectVerdict(entry, lossyHash(try Corpus.bytes(Corpus.root!.appendingPathComponent(entry.path))))
    }
}

/// What the lossy fixtures and corpus files exercise, read from their headers: the suites must
/// keep reaching every coding tool (token partitions, both loop filters, sharpness, segment
/// maps, skip flags, B_PRED and 16×16 modes are all decoded bit-exactly above).
@Suite(.enabled(if: Corpus.root != nil, "corpus absent: set IMAGECODECS_CORPUS or place shared/corpus beside the project"))
struct VP8CoverageTests {
    @Test func corpusAndFixturesReachEveryTool() throws {
        var partitions = Set<Int>(), filters = Set<Int>(), sharpness = Set<Int>()
        var segmentMaps = 0, noSkip = 0, deltas = 0
        let files = lossyEntries("webp.tsv").map { Corpus.root!.appendingPathComponent($0.path) }
            + lossyEntries("fixtures-webp-lossy.tsv").map { Corpus.conformance.appendingPathComponent($0.path) }
        for url in files {
            let bytes = try Corpus.bytes(url)
            try bytes.withUnsafeBufferPointer { (p) throws(DecodingError) in
                let range = try WebPContainer.lossyBitstream(p)
                let d = try VP8Decoder(UnsafeBufferPointer(rebasing: p[range.lowerBound...]), chunkSize: range.count,
                                       limits: Limits())
                partitions.insert(d.header.partitions.count)
                filters.insert(d.filterType)
                sharpness.insert(d.header.filter.sharpness)
                if d.header.segmentation.updatesMap { segmentMaps += 1 }
                if !d.header.usesSkipProbability { noSkip += 1 }
                if d.header.filter.usesDeltas { deltas += 1 }
            }
        }
        #expect(partitions.isSuperset(of: [1, 2, 4, 8]), "\(partitions)")
        #expect(filters == [0, 1, 2], "\(filters)")
        #expect(sharpness.count >= 4, "\(sharpness)")
        #expect(segmentMaps > 10 && noSkip > 0 && deltas > 0, "\(segmentMaps) \(noSkip) \(deltas)")
    }
}
