import CodecCore
import ImageCodecs
import TestSupport
import Testing
@testable import WebPCodec

/// `DecodingOptions.maxThreads` changes nothing a caller can see in a lossy WebP decode
/// (issue 18; `VP8RowPipeline` reconstructs, filters and writes on a second thread): the same
/// hashes, statuses, errors, final rows and thumbnails at 1, 2, 3 and 8 threads, whole, fed in
/// random splits and cut short.
struct VP8ThreadTests {
    static let threadCounts = [1, 2, 3, 8]

    static func options(_ threads: Int, eager: Bool = false) -> DecodingOptions {
        Decoding.options(threads: threads, eager: eager)
    }

    /// A decode's status, error, and every frame's pixels and final rows.
    struct Frames: Equatable {
        var status: ImageSourceStatus
        var error: DecodingError?
        var frames: [[UInt8]?]
        var finalRows: [Int?]
    }

    static func frames(_ source: ImageSource) -> Frames {
        let images = (0..<source.count).map { try? source.image(at: $0) }
        return Frames(status: source.status, error: source.error, frames: images.map { $0?.pixels },
                      finalRows: images.map { $0?.finalRowCount })
    }

    static func frames(_ bytes: [UInt8], threads: Int) -> Frames {
        frames(ImageSource(bytes: bytes, options: options(threads)))
    }

    /// Whether the decoder hands this file's rows to a second thread (when it has one).
    static func pipelines(_ bytes: [UInt8]) -> Bool {
        guard let size = ImageSource(bytes: bytes).properties(at: 0).map({ $0.width * $0.height }) else { return false }
        return size >= VP8Decoder.minimumPipelinedPixels
    }

    /// The lossy fixtures (with and without ALPH) against their manifest at every thread count,
    /// whole; those large enough for the second thread also in random splits, decoded as the
    /// bytes arrive and when asked for.
    @Test func fixturesAtEveryThreadCount() throws {
        let entries = VP8FixtureTests.entries + webpEntries("fixtures-webp-lossy.tsv", bitstreams: ["VP8+ALPH"])
        #expect(entries.count >= 40)
        var pipelined = 0
        for entry in entries where !entry.isError {
            let bytes = try WebPSourceCheck.fixture(entry.path)
            for threads in Self.threadCounts {
                let whole = Decoding.whole(bytes, options: Self.options(threads))
                #expect(whole.status == .complete && whole.frames == entry.frames, "\(entry.path) at \(threads) threads")
            }
            guard Self.pipelines(bytes) else { continue }
            pipelined += 1
            for (threads, seed) in [(2, 1), (3, 2), (8, 3)] as [(Int, UInt64)] {
                let sizes = Decoding.randomSizes(count: 16, max: 400, seed: seed)
                for eager in [false, true] {
                    let fed = Decoding.chunked(bytes, sizes: sizes, options: Self.options(threads, eager: eager)).result
                    #expect(fed.frames == entry.frames, "\(entry.path) split, \(threads) threads, eager \(eager)")
                }
            }
        }
        #expect(pipelined >= 3)
    }

    /// The corpus' lossy stills (VP8 with 1–8 token partitions, odd sizes, segment maps, both
    /// filters; with ALPH) at 2, 3 and 8 threads against one; the large ones also fed in random
    /// pieces, as thumbnails, and cut short (the same status, error, final rows and pixels).
    @Test(.enabled(if: Corpus.root != nil, "corpus absent: set IMAGECODECS_CORPUS or place shared/corpus beside the project"))
    func corpusAtEveryThreadCount() throws {
        let root = try #require(Corpus.root)
        let entries = WebPLossyCorpusSourceTests.entries
        #expect(entries.count >= 120)
        for (index, entry) in entries.enumerated() {
            let bytes = try Corpus.bytes(root.appendingPathComponent(entry.path))
            let one = Self.frames(bytes, threads: 1)
            for threads in Self.threadCounts.dropFirst() {
                #expect(Self.frames(bytes, threads: threads) == one, "\(entry.path) at \(threads) threads")
            }
            guard Self.pipelines(bytes), one.status == .complete else { continue }
            let threads = index % 2 == 0 ? 3 : 8
            let sizes = Decoding.randomSizes(count: 24, max: 2000, seed: UInt64(index))
            let fed = Decoding.chunked(bytes, sizes: sizes, options: Self.options(threads, eager: true)).result
            #expect(fed == Decoding.whole(bytes, options: Self.options(1)), "\(entry.path) split, \(threads) threads")
            try expectSameThumbnails(bytes, entry.path)
            for percent in [30, 77, 99] {
                let prefix = Array(bytes[0..<bytes.count * percent / 100])
                let cut = Self.frames(prefix, threads: 1)
                #expect(Self.frames(prefix, threads: threads) == cut, "\(entry.path) cut at \(percent)%, \(threads) threads")
            }
        }
    }

    /// A 40-pixel thumbnail, whole at every thread count and fed in pieces at 3 threads.
    func expectSameThumbnails(_ bytes: [UInt8], _ name: String) throws {
        let one = try ImageSource(bytes: bytes, options: Self.options(1)).thumbnail(at: 0, maxPixelSize: 40)
        for threads in Self.threadCounts.dropFirst() {
            let whole = try ImageSource(bytes: bytes, options: Self.options(threads)).thumbnail(at: 0, maxPixelSize: 40)
            #expect(whole.pixels == one.pixels && whole.isComplete == one.isComplete, "\(name) thumbnail, \(threads) threads")
        }
        let fed = try Decoding.thumbnailFedInPieces(bytes, sizes: Decoding.randomSizes(count: 1000, max: 3000, seed: 9),
                                                    maxPixelSize: 40, options: Self.options(3))
        #expect(fed.pixels == one.pixels, "\(name) thumbnail fed in pieces")
    }

    /// Lossy animations (their frames are decoded with the same machinery) at every thread
    /// count against one.
    @Test(.enabled(if: Corpus.root != nil, "corpus absent: set IMAGECODECS_CORPUS or place shared/corpus beside the project"))
    func animationsAtEveryThreadCount() throws {
        let root = try #require(Corpus.root)
        for entry in WebPAnimationCorpusTests.entries {
            let bytes = try Corpus.bytes(root.appendingPathComponent(entry.path))
            let one = Self.frames(bytes, threads: 1)
            for threads in Self.threadCounts.dropFirst() {
                #expect(Self.frames(bytes, threads: threads) == one, "\(entry.path) at \(threads) threads")
            }
        }
    }
}
