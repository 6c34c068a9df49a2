import CodecCore
import ImageCodecs
@testable import JPEGCodec
import TestSupport
import Testing

/// The pixels of a JPEG are the same whatever `maxThreads` is: 1 (the caller's thread only),
/// 2, 3 and 8 (more threads than the pool has, so some offers are refused and the caller does
/// that work). Every path is covered: the row pipeline of sequential scans, restart intervals
/// decoded in bands, buffered scans decoded at once, buffered images rendered in bands,
/// thumbnails, and incremental feeding.
enum JPEGThreads {
    static let counts = [1, 2, 3, 8]

    static func options(_ threads: Int) -> DecodingOptions {
        var options = DecodingOptions()
        options.maxThreads = threads
        return options
    }

    /// The canonical hashes and status of `bytes` decoded whole on `threads` threads.
    static func whole(_ bytes: [UInt8], _ threads: Int) -> DecodeResult {
        Decoding.whole(bytes, options: options(threads))
    }

    /// A thumbnail's pixels on `threads` threads.
    static func thumbnail(_ bytes: [UInt8], _ maxPixelSize: Int, _ threads: Int) -> [UInt8]? {
        try? ImageSource(bytes: bytes, options: options(threads)).thumbnail(at: 0, maxPixelSize: maxPixelSize,
                                                                             applyOrientation: false).pixels
    }
}

/// The project's fixtures (every sampling, progressive, arithmetic, restart intervals, gray)
/// against djpeg at every thread count: whole, as thumbnails, and fed in random pieces.
struct JPEGThreadFixtureTests {
    @Test(arguments: JPEGFixtureTests.entries)
    func everyThreadCountMatchesDjpeg(_ entry: ManifestEntry) throws {
        let bytes = try Corpus.bytes(Corpus.conformance.appendingPathComponent(entry.path))
        for threads in JPEGThreads.counts {
            let whole = JPEGThreads.whole(bytes, threads)
            #expect(whole.status == .complete && whole.frames == entry.frames, "\(entry.path) threads \(threads)")
        }
        for size in [4, 23] {
            let one = JPEGThreads.thumbnail(bytes, size, 1)
            for threads in JPEGThreads.counts.dropFirst() {
                #expect(JPEGThreads.thumbnail(bytes, size, threads) == one, "\(entry.path) thumbnail \(size) threads \(threads)")
            }
        }
        for threads in [3, 8] {
            let fed = Decoding.chunked(bytes, sizes: Decoding.randomSizes(count: 16, max: 400, seed: UInt64(threads)),
                                       options: JPEGThreads.options(threads))
            #expect(fed.result.frames == entry.frames, "\(entry.path) fed, threads \(threads)")
        }
    }

    /// libjpeg's scales (1/2, 1/4, 1/8) on 3 and 8 threads equal `djpeg -scale`, as on one
    /// (``JPEGScaledTests``): buffered files then keep coefficient subsets, which scans decoded at
    /// once must not share.
    @Test(arguments: JPEGScaledTests.rows)
    func scaledMatchesDjpeg(_ row: JPEGScaledTests.Row) throws {
        let bytes = try Corpus.bytes(Corpus.conformance.appendingPathComponent(row.path))
        for threads in [3, 8] {
            let decoder = JPEGDecoder(options: JPEGThreads.options(threads))
            let input = InputBuffer(bytes, isFinal: true)
            try decoder.advance(input)
            let usesSubset = decoder.format.container.frame.map { frame in
                JPEGOutputGeometry(frame: frame, scaledSize: row.scaledSize).idctSizes.contains { $0 <= 2 }
            } ?? false
            if row.smoothed && usesSubset { return }
            let image = try decoder.format.scaledImage(scaledSize: row.scaledSize, input: input)
            #expect("\(image.width)x\(image.height) \(CanonicalHash.hex(image))" == row.expected, "\(row) threads \(threads)")
        }
    }
}

/// Images large enough for bands and a pipeline of many rows, made by the encoder: sequential
/// 4:2:0, 4:2:2, 4:4:4 and gray with and without restart intervals (whole MCU rows, and MCU
/// counts that end intervals mid-row), progressive ones, and the same files with a restart
/// marker out of order, cut short, or fed in pieces.
struct JPEGThreadGeneratedTests {
    static let settings: [JPEGEncoderSettings] = [
        JPEGEncoderSettings(quality: 90),
        JPEGEncoderSettings(quality: 80, restart: .rows(1)),
        JPEGEncoderSettings(quality: 85, lumaSampling: (1, 1), restart: .mcus(7)),
        JPEGEncoderSettings(quality: 70, lumaSampling: (2, 1), restart: .mcus(40)),
        JPEGEncoderSettings(quality: 75, grayscale: true, restart: .rows(2)),
        JPEGEncoderSettings(quality: 75, lumaSampling: (1, 2)),
        JPEGEncoderSettings(quality: 90, progressive: true),
        JPEGEncoderSettings(quality: 60, lumaSampling: (1, 1), progressive: true, restart: .mcus(9)),
    ]

    static func encoded(_ settings: JPEGEncoderSettings) throws -> [UInt8] {
        let image = try JPEGEncoderThreadTests.fixture("kodim01-333x177.ppm")
        return try encodeJPEG(image, settings)
    }

    @Test(arguments: settings)
    func sameForEveryThreadCount(_ settings: JPEGEncoderSettings) throws {
        let bytes = try Self.encoded(settings)
        let one = JPEGThreads.whole(bytes, 1)
        #expect(one.status == .complete && one.frames.count == 1)
        for threads in JPEGThreads.counts.dropFirst() {
            #expect(JPEGThreads.whole(bytes, threads) == one, "\(settings) threads \(threads)")
            #expect(JPEGThreads.thumbnail(bytes, 40, threads) == JPEGThreads.thumbnail(bytes, 40, 1), "\(settings) thumbnail")
        }
        for (threads, seed) in [(2, 5), (3, 6), (8, 7)] {
            let sizes = Decoding.randomSizes(count: 16, max: 2000, seed: UInt64(seed))
            #expect(Decoding.chunked(bytes, sizes: sizes, options: JPEGThreads.options(threads)).result == one,
                    "\(settings) fed, threads \(threads)")
        }
    }

    /// A restart marker out of order makes libjpeg resynchronise, which only decoding the
    /// intervals in turn follows; a file cut short leaves intervals without data. Every thread
    /// count gives what one does.
    @Test(arguments: settings.filter { $0.restart != nil && !$0.progressive })
    func damagedRestartsAndCuts(_ settings: JPEGEncoderSettings) throws {
        let bytes = try Self.encoded(settings)
        var swapped = bytes
        let markers = swapped.indices.dropLast().filter { swapped[$0] == 0xFF && (0xD0...0xD7).contains(swapped[$0 + 1]) }
        try #require(markers.count >= 4)
        swapped[markers[2] + 1] = 0xD0 + (swapped[markers[2] + 1] - 0xD0 + 3) % 8
        var variants = [swapped]
        for fraction in [0.3, 0.77, 0.99] { variants.append(Array(bytes.prefix(Int(Double(bytes.count) * fraction)))) }
        for (i, variant) in variants.enumerated() {
            let one = JPEGThreads.whole(variant, 1)
            for threads in JPEGThreads.counts.dropFirst() {
                #expect(JPEGThreads.whole(variant, threads) == one, "\(settings) variant \(i) threads \(threads)")
            }
        }
    }

    /// The interval starts are found only for RST0, RST1, … in order, skipping stuffed bytes.
    @Test func intervalStarts() {
        let data: [UInt8] = [1, 0xFF, 0x00, 2, 0xFF, 0xD0, 3, 0xFF, 0xFF, 0xD1, 4, 5, 0xFF, 0xD9]
        let input = InputBuffer(data, isFinal: true)
        #expect(JPEGRestartIntervals.starts(in: input, from: 0, to: 12, count: 3) == [0, 6, 10])
        #expect(JPEGRestartIntervals.starts(in: input, from: 0, to: 12, count: 2) == [0, 6])
        #expect(JPEGRestartIntervals.starts(in: input, from: 0, to: 12, count: 4) == nil)
        var wrong = data
        wrong[9] = 0xD2
        #expect(JPEGRestartIntervals.starts(in: InputBuffer(wrong, isFinal: true), from: 0, to: 12, count: 3) == nil)
    }
}

/// The JPEG fuzz findings (Fuzz/findings/jpeg-*.jpg) at every thread count, whole and fed in
/// pieces: the same pixels and status as on one thread.
struct JPEGThreadFindingsTests {
    static let files = Corpus.files(in: Corpus.projectRoot.appendingPathComponent("Fuzz/findings"), suffix: ".jpg")
        .map(\.lastPathComponent).filter { $0.hasPrefix("jpeg-") }

    @Test(arguments: files)
    func sameOnEveryThreadCount(_ name: String) throws {
        let bytes = try Corpus.bytes(Corpus.projectRoot.appendingPathComponent("Fuzz/findings/\(name)"))
        let one = JPEGThreads.whole(bytes, 1)
        for threads in JPEGThreads.counts.dropFirst() {
            #expect(JPEGThreads.whole(bytes, threads) == one, "\(name) threads \(threads)")
            let sizes = Decoding.randomSizes(count: 16, max: 700, seed: UInt64(threads))
            #expect(Decoding.chunked(bytes, sizes: sizes, options: JPEGThreads.options(threads)).result == one, "\(name) fed, threads \(threads)")
        }
    }
}

/// The shared corpus (CMYK and YCCK, restart intervals from cameras, progressive scripts of
/// every kind, corrupt and truncated files): every file djpeg decodes, on 3 or on 8 threads, by
/// turns (once each, to keep the debug run near 40 s: more threads than the pool gives make
/// refused offers, and more bands). The other corpus tests decode each at the default, the
/// processors online; ``JPEGThreadFixtureTests`` runs the fixtures at 1, 2, 3 and 8.
@Suite(.enabled(if: Corpus.root != nil, "corpus absent: set IMAGECODECS_CORPUS or place shared/corpus beside the project"))
struct JPEGThreadCorpusTests {
    static let entries = JPEGCorpusTests.entries.filter { !$0.isError && JPEGCorpusTests.deviations[$0.path] == nil }

    @Test(arguments: entries.indices)
    func matchesDjpegOnMoreThreads(_ index: Int) throws {
        let entry = Self.entries[index]
        let bytes = try Corpus.bytes(Corpus.root!.appendingPathComponent(entry.path))
        let threads = index % 2 == 0 ? 8 : 3
        #expect(JPEGThreads.whole(bytes, threads).frames == entry.frames, "\(entry.path) threads \(threads)")
    }
}
