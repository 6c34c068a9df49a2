import CodecCore
import Foundation
import ImageCodecs
import TestSupport
import Testing

/// `DecodingOptions.maxThreads` changes nothing a caller can see (issue 18): the same hashes,
/// statuses, errors, partial rows and thumbnails at 1, 2, 3 and 8 threads, whole, fed in random
/// splits and cut short.
struct PNGThreadTests {
    static let threadCounts = [1, 2, 3, 8]

    /// The project's fixtures (always there) against their manifests at every thread count.
    @Test func fixturesAtEveryThreadCount() throws {
        let entries = FixtureTests.png + FixtureTests.apng
        #expect(entries.count >= 45)
        for entry in entries {
            let bytes = try FixtureTests.bytes(entry.path)
            for threads in Self.threadCounts.dropFirst() {
                let result = Decoding.whole(bytes, options: Decoding.options(threads: threads))
                #expect(result.status == .complete && result.frames == entry.frames, "\(entry.path) at \(threads) threads")
            }
        }
    }

    /// PngSuite, png-extra and the APNG suites: the same statuses, errors and frames (pixels
    /// compared directly, not hashed: a debug build's SHA-256 is slow) at every thread count as
    /// at one, which `CorpusConformanceTests` holds to the manifests.
    @Test(.enabled(if: Corpus.root != nil, "corpus absent: set IMAGECODECS_CORPUS or place shared/corpus beside the project"))
    func corpusAtEveryThreadCount() throws {
        let root = try #require(Corpus.root)
        let entries = CorpusConformanceTests.pngEntries + CorpusConformanceTests.apngEntries
        #expect(entries.count > 350)
        for entry in entries {
            let bytes = try Corpus.bytes(root.appendingPathComponent(entry.path))
            let one = Self.frames(bytes, threads: 1)
            for threads in Self.threadCounts.dropFirst() {
                #expect(Self.frames(bytes, threads: threads) == one, "\(entry.path) at \(threads) threads")
            }
        }
    }

    /// A whole decode's status, error and every frame's pixels and final rows.
    struct Frames: Equatable {
        var status: ImageSourceStatus
        var error: DecodingError?
        var frames: [[UInt8]?]
        var finalRows: [Int?]
    }

    static func frames(_ bytes: [UInt8], threads: Int) -> Frames {
        let source = ImageSource(bytes: bytes, options: Decoding.options(threads: threads))
        let images = (0..<source.count).map { try? source.image(at: $0) }
        return Frames(status: source.status, error: source.error, frames: images.map { $0?.pixels },
                      finalRows: images.map { $0?.finalRowCount })
    }

    /// Images large enough to go through the second thread, whole and in random splits (asking
    /// for the image after every append, and decoding as bytes arrive).
    @Test(arguments: ThreadFixture.kinds)
    func largeImagesWholeAndSplit(_ kind: ThreadFixture) {
        let bytes = kind.bytes()
        let one = Decoding.whole(bytes, options: Decoding.options(threads: 1))
        #expect(one.status == .complete && one.frames.count == 1, "\(kind)")
        for threads in Self.threadCounts.dropFirst() {
            #expect(Decoding.whole(bytes, options: Decoding.options(threads: threads)) == one, "\(kind) at \(threads) threads")
        }
        for (threads, seed) in [(2, 11), (8, 12)] as [(Int, UInt64)] {
            let sizes = Decoding.randomSizes(count: 24, max: 40_000, seed: seed)
            #expect(Decoding.chunked(bytes, sizes: sizes, options: Decoding.options(threads: threads)).result == one,
                    "\(kind) split, \(threads) threads")
            #expect(Decoding.chunked(bytes, sizes: sizes, options: Decoding.options(threads: threads, eager: true)).result == one,
                    "\(kind) split and decoded as it arrives, \(threads) threads")
        }
    }

    /// Thumbnails shrink the rows as the second thread writes them: the same pixels whole, and
    /// when asked for after every append (each request resuming the last).
    @Test(arguments: ThreadFixture.kinds.prefix(4))
    func thumbnails(_ kind: ThreadFixture) throws {
        let bytes = kind.bytes(seed: 3)
        let one = try ImageSource(bytes: bytes, options: Decoding.options(threads: 1)).thumbnail(at: 0, maxPixelSize: 48)
        #expect(one.isComplete)
        for threads in Self.threadCounts.dropFirst() {
            let whole = try ImageSource(bytes: bytes, options: Decoding.options(threads: threads)).thumbnail(at: 0, maxPixelSize: 48)
            #expect(whole.pixels == one.pixels && whole.isComplete, "\(kind) at \(threads) threads")
        }
        let fed = try Decoding.thumbnailFedInPieces(bytes, sizes: Decoding.randomSizes(count: 1000, max: 30_000, seed: 4),
                                                    maxPixelSize: 48, options: Decoding.options(threads: 3))
        #expect(fed.pixels == one.pixels, "\(kind) fed in pieces")
    }

    /// Cut short: the same status, error, final rows and pixels at every thread count.
    @Test(arguments: ThreadFixture.kinds.prefix(4))
    func truncatedInputs(_ kind: ThreadFixture) throws {
        let bytes = kind.bytes(seed: 5)
        for cut in stride(from: bytes.count / 5, to: bytes.count, by: bytes.count / 5) {
            let prefix = Array(bytes[0..<cut])
            let one = Self.frames(prefix, threads: 1)
            #expect(one.status == .unexpectedEOF && one.frames.first??.isEmpty == false, "\(kind) cut at \(cut)")
            for threads in Self.threadCounts.dropFirst() {
                #expect(Self.frames(prefix, threads: threads) == one, "\(kind) cut at \(cut), \(threads) threads")
            }
        }
    }

    /// A filter type above 4 in a row far down: the same error at every thread count, whole and
    /// fed in pieces.
    @Test func badFilterTypeLateInTheImage() {
        var kind = ThreadFixture.kinds[0]
        kind.badFilterRow = 120
        let bytes = kind.bytes()
        let one = Decoding.whole(bytes, options: Decoding.options(threads: 1))
        #expect(one.status == .invalidData && one.error == .invalidData("filter type is above 4"))
        for threads in Self.threadCounts.dropFirst() {
            #expect(Decoding.whole(bytes, options: Decoding.options(threads: threads)) == one, "\(threads) threads")
            let sizes = Decoding.randomSizes(count: 8, max: 50_000, seed: 9)
            #expect(Decoding.chunked(bytes, sizes: sizes, options: Decoding.options(threads: threads)).result == one, "\(threads) threads, split")
        }
    }

    /// Corrupt deflate data past the middle (the CRCs made to match): the same error at every
    /// thread count.
    @Test func corruptImageDataLateInTheImage() {
        var bytes = ThreadFixture.kinds[1].bytes(seed: 2)
        let chunkStart = Self.chunkStart(before: bytes.count * 2 / 3, in: bytes)
        for i in (chunkStart + 108)..<(chunkStart + 172) { bytes[i] = 0xFF }
        Self.fixCRC(chunkAt: chunkStart, in: &bytes)
        let one = Decoding.whole(bytes, options: Decoding.options(threads: 1))
        #expect(one.status == .invalidData, "\(one)")
        for threads in Self.threadCounts.dropFirst() {
            #expect(Decoding.whole(bytes, options: Decoding.options(threads: threads)) == one, "\(threads) threads")
        }
    }

    /// The start of the chunk holding byte `offset` (chunks walked from the signature).
    static func chunkStart(before offset: Int, in bytes: [UInt8]) -> Int {
        var position = 8
        while true {
            let length = bytes[position..<(position + 4)].reduce(0) { $0 << 8 | Int($1) }
            if position + 12 + length > offset { return position }
            position += 12 + length
        }
    }

    static func fixCRC(chunkAt position: Int, in bytes: inout [UInt8]) {
        let length = bytes[position..<(position + 4)].reduce(0) { $0 << 8 | Int($1) }
        let crc = Int(Array(bytes[(position + 4)..<(position + 8 + length)]).withUnsafeBufferPointer { CRC32.checksum($0) })
        bytes.replaceSubrange((position + 8 + length)..<(position + 12 + length), with: PNGBuilder.be32(crc))
    }
}
