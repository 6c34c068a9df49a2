import CodecCore
import ImageCodecs
import TestSupport
import Testing
@testable import GIFCodec

/// GIF on two threads (issue 18): the LZW stream split at a clear code found by search
/// (`LZWSplitPoint`), decoded in two pieces (`LZWSplitDecoding`) and drawn in bands. Nothing a
/// caller can see changes with `maxThreads`: the same pixels, statuses, errors and thumbnails at
/// 1, 2, 3 and 8 threads, for whole, interlaced, broken and cut-short images.
struct GIFThreadTests {
    static let threadCounts = [1, 2, 3, 8]

    /// Indices with runs and noise, so that strings of every length occur, below `colors`.
    static func indices(width: Int, height: Int, colors: Int, seed: UInt64) -> [UInt8] {
        let noise = LZWTests.pseudoRandom(width * height, seed: seed, below: 4)
        return (0..<(width * height)).map { i in
            let (x, y) = (i % width, i / width)
            return UInt8((x / 7 + y / 5 + Int(noise[i]) * (x % 3)) % colors)
        }
    }

    /// The input bits just past each clear code of `stream`, found by walking every code.
    static func clearCodeEnds(_ stream: [UInt8], minimumCodeSize: Int) -> [Int] {
        let clear = 1 << minimumCodeSize
        var ends: [Int] = [], bit = 0, size = minimumCodeSize + 1, next = clear + 2, previous = false
        while bit + size <= stream.count * 8 {
            var code = 0
            for k in 0..<size where stream[(bit + k) >> 3] >> UInt8((bit + k) & 7) & 1 == 1 { code |= 1 << k }
            bit += size
            if code == clear {
                ends.append(bit)
                (size, next, previous) = (minimumCodeSize + 1, clear + 2, false)
                continue
            }
            if code == clear + 1 { break }
            if previous && next < 4096 { next += 1 }
            previous = true
            if next >= 1 << size && size < 12 { size += 1 }
        }
        return ends
    }

    /// The search finds the first real clear code at or after the bit it starts from, for
    /// every code size, never one a few bits off (whose low bits match a narrower clear code).
    @Test(arguments: [2, 4, 8])
    func splitPointIsTheNextClearCode(_ minimumCodeSize: Int) throws {
        let stream = ReferenceLZWEncoder.encode(Self.indices(width: 400, height: 300, colors: 1 << minimumCodeSize, seed: 5),
                                                minimumCodeSize: minimumCodeSize)
        let ends = Self.clearCodeEnds(stream, minimumCodeSize: minimumCodeSize)
        #expect(ends.count >= 3)
        for share in [0.2, 0.5, 0.7] {
            let from = Int(Double(stream.count * 8) * share)
            let found = stream.withUnsafeBufferPointer {
                LZWSplitPoint.candidate(in: $0, minimumCodeSize: minimumCodeSize, fromBit: from)
            }
            #expect(found == ends.first { $0 >= from }, "from bit \(from)")
        }
    }

    /// Two pieces give the one-piece output; a stream without a clear code past the middle
    /// (deferred clear) gives the one-piece output or nothing. A pool of its own, with a thread
    /// for each stream, so that other suites busy on the shared pool cannot take the second
    /// piece's thread.
    @Test func splitDecodingEqualsOnePiece() throws {
        let pool = WorkerPool(capacity: 4)
        for (size, deferred) in [(8, false), (4, false), (2, false), (8, true)] {
            let pixels = Self.indices(width: 520, height: 510, colors: 1 << size, seed: UInt64(size))
            let stream = ReferenceLZWEncoder.encode(pixels, minimumCodeSize: size, deferredClear: deferred)
            let (one, _) = LZWTests.decode(stream, minimumCodeSize: size, count: pixels.count)
            #expect(one == pixels)
            let pieces = LZWSplitDecoding.decode(stream, minimumCodeSize: size, pixelCount: pixels.count, pool: pool)
            let joined = pieces.map { Array($0.joined()[0..<pixels.count]) }
            if deferred {
                #expect(joined.map { $0 == one } ?? true)
            } else {
                #expect(joined == one, "code size \(size)")
                #expect(pieces.map { $0.split > 0 && $0.split < pixels.count } == true, "code size \(size): two pieces")
                // Every run of indices read through the pieces, across the split too.
                var row = [UInt8](repeating: 0, count: 999)
                for start in stride(from: 0, to: pixels.count - 999, by: 997) {
                    pieces?.withIndices(from: start, count: 999, row: &row) { p in
                        #expect(Array(UnsafeBufferPointer(start: p, count: 999)) == Array(one[start..<(start + 999)]))
                    }
                }
            }
        }
    }

    /// A GIF of `width × height` whose image data is `stream`, or the LZW encoding of `pixels`.
    static func gif(width: Int, height: Int, pixels: [UInt8], interlaced: Bool = false, stream: [UInt8]? = nil) -> [UInt8] {
        let palette = (0..<256).map { [UInt8($0), UInt8(255 - $0), UInt8($0 / 2)] }
        var builder = GIFBuilder(width: width, height: height, globalTable: palette)
        builder.image(width: width, height: height, indices: pixels, interlaced: interlaced, data: stream)
        builder.trailer()
        return builder.bytes
    }

    static func frames(_ bytes: [UInt8], threads: Int) -> (ImageSourceStatus, DecodingError?, [UInt8]?) {
        let source = ImageSource(bytes: bytes, options: Decoding.options(threads: threads))
        let image = try? source.image(at: 0)
        return (source.status, source.error, image?.pixels)
    }

    static func expectSameAtEveryThreadCount(_ bytes: [UInt8], _ what: String) {
        let one = Self.frames(bytes, threads: 1)
        for threads in Self.threadCounts.dropFirst() {
            #expect(Self.frames(bytes, threads: threads) == one, "\(what) at \(threads) threads")
        }
    }

    /// Large images, plain and interlaced, whole and fed in random splits, and their thumbnails.
    @Test(arguments: [false, true])
    func largeImages(_ interlaced: Bool) throws {
        let (width, height) = (640, 450)
        let pixels = Self.indices(width: width, height: height, colors: 256, seed: 9)
        let bytes = Self.gif(width: width, height: height, pixels: pixels, interlaced: interlaced)
        let one = Decoding.whole(bytes, options: Decoding.options(threads: 1))
        #expect(one.status == .complete && one.frames.count == 1)
        for threads in Self.threadCounts.dropFirst() {
            #expect(Decoding.whole(bytes, options: Decoding.options(threads: threads)) == one, "\(threads) threads")
        }
        let sizes = Decoding.randomSizes(count: 16, max: 60_000, seed: 3)
        #expect(Decoding.chunked(bytes, sizes: sizes, options: Decoding.options(threads: 2, eager: true)).result == one)
        let thumbnail = try ImageSource(bytes: bytes, options: Decoding.options(threads: 1)).thumbnail(at: 0, maxPixelSize: 40)
        for threads in Self.threadCounts.dropFirst() {
            let other = try ImageSource(bytes: bytes, options: Decoding.options(threads: threads)).thumbnail(at: 0, maxPixelSize: 40)
            #expect(other.pixels == thumbnail.pixels, "thumbnail at \(threads) threads")
        }
    }

    /// Broken streams: a code outside the table or an end code in the second half, data that
    /// stops early, too few pixels, a clear code whose bits are damaged (the search's guess
    /// then fails), and files cut short: the same status, error and pixels at every count.
    @Test func brokenStreams() throws {
        let (width, height) = (600, 480)
        let pixels = Self.indices(width: width, height: height, colors: 256, seed: 21)
        let stream = ReferenceLZWEncoder.encode(pixels, minimumCodeSize: 8)
        let ends = Self.clearCodeEnds(stream, minimumCodeSize: 8)
        let middle = try #require(ends.first { $0 >= stream.count * 4 })
        let late = try #require(ends.first { $0 > stream.count * 5 })
        var damaged: [(String, [UInt8])] = []
        var invalid = stream
        invalid[late / 8 + 300] = 0xFF
        invalid[late / 8 + 301] = 0xFF
        damaged.append(("code outside the table", invalid))
        var ended = stream
        ended.replaceSubrange((late / 8 + 200)..<(late / 8 + 204), with: [0x01, 0x01, 0x01, 0x01])
        damaged.append(("end code or worse late", ended))
        damaged.append(("stream stops early", Array(stream[0..<(stream.count * 3 / 4)])))
        var clearHit = stream
        clearHit[(middle - 1) / 8] ^= 0x10
        damaged.append(("clear code damaged", clearHit))
        for (what, data) in damaged {
            Self.expectSameAtEveryThreadCount(Self.gif(width: width, height: height, pixels: pixels, stream: data), what)
        }
        let tooFew = Array(pixels[0..<(pixels.count - 5000)])
        Self.expectSameAtEveryThreadCount(
            Self.gif(width: width, height: height, pixels: [], stream: ReferenceLZWEncoder.encode(tooFew, minimumCodeSize: 8)),
            "too few pixels")
        let bytes = Self.gif(width: width, height: height, pixels: pixels)
        for cut in stride(from: bytes.count / 4, to: bytes.count, by: bytes.count / 4) {
            Self.expectSameAtEveryThreadCount(Array(bytes[0..<cut]), "cut at \(cut)")
        }
    }

    /// Random damage anywhere in the stream (a few bytes set to seeded values): one thread and
    /// two give the same status, error and pixels, whichever way each decode goes.
    @Test func randomDamage() {
        let (width, height) = (560, 480)
        let pixels = Self.indices(width: width, height: height, colors: 256, seed: 33)
        let stream = ReferenceLZWEncoder.encode(pixels, minimumCodeSize: 8)
        let noise = LZWTests.pseudoRandom(64, seed: 77, below: 256)
        for trial in 0..<16 {
            var damaged = stream
            for k in 0..<(1 + trial % 3) {
                let at = (Int(noise[trial * 3 + k]) * 7919 + trial * 104_729) % stream.count
                damaged[at] = noise[(trial * 3 + k + 1) % noise.count]
            }
            let bytes = Self.gif(width: width, height: height, pixels: pixels, stream: damaged)
            #expect(Self.frames(bytes, threads: 2) == Self.frames(bytes, threads: 1), "trial \(trial)")
        }
    }
}
