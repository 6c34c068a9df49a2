import ImageCodecs
@testable import JPEGCodec
import TestSupport
import Testing

/// One input of `jpegtran.tsv` (made by Conformance/scripts/make_jpegtran_fixtures.py) and its
/// expected transcodes: per option set, jpegtran's output SHA-256 and djpeg's pixels of it.
struct JPEGTranscodeCase: Sendable, CustomStringConvertible {
    let input: String
    let rows: [(options: String, sha: String, pixels: String)]
    var description: String { input }

    static func load() -> [JPEGTranscodeCase] {
        var order: [String] = []
        var rows: [String: [(String, String, String)]] = [:]
        for cols in Manifest.rows("jpegtran.tsv") where cols.count >= 4 {
            if rows[cols[0]] == nil { order.append(cols[0]) }
            rows[cols[0], default: []].append((cols[1], cols[2], cols[3]))
        }
        return order.map { JPEGTranscodeCase(input: $0, rows: rows[$0] ?? []) }
    }

    var bytes: [UInt8]? {
        if input.hasPrefix("corpus:") {
            guard let root = Corpus.root else { return nil }
            return try? Corpus.bytes(root.appendingPathComponent(String(input.dropFirst(7))))
        }
        return try? Corpus.bytes(Corpus.conformance.appendingPathComponent(input))
    }

    /// The manifest's option words as ``JPEGTranscodeOptions``.
    static func options(_ words: String) -> JPEGTranscodeOptions {
        var o = JPEGTranscodeOptions()
        for word in words.split(separator: " ") {
            switch word {
            case "trim": o.trim = true
            case "optimize": o.optimize = true
            case "progressive": o.progressive = true
            case "upright": o.upright = true
            case "copy=none": o.copy = .none
            case "copy=all": o.copy = .all
            case "rotate=90": o.transform = .rotate90
            case "rotate=180": o.transform = .rotate180
            case "rotate=270": o.transform = .rotate270
            case "flip=h": o.transform = .flipHorizontal
            case "flip=v": o.transform = .flipVertical
            case "transpose": o.transform = .transpose
            case "transverse": o.transform = .transverse
            default: break
            }
        }
        return o
    }

    /// The option sets whose output is also decoded (a debug build decodes slowly): sequential
    /// and progressive, Annex K and optimized tables, transposed and trimmed sizes.
    static let decodedOptions: Set<String> = ["-", "transpose", "rotate=90 trim progressive", "transverse optimize", "upright copy=all"]

    /// Transcodes with every option set; returns the rows whose bytes differ from jpegtran's,
    /// and those whose pixels (our decoder) differ from djpeg's.
    func check() throws -> (bytes: [String], pixels: [String]) {
        guard let source = bytes else { return (["unreadable"], []) }
        var bytesDiffer: [String] = [], pixelsDiffer: [String] = []
        for row in rows {
            guard let out = try? JPEGTranscoder.transcode(source, options: Self.options(row.options)) else {
                if row.sha != "error" { bytesDiffer.append("\(row.options): threw") }
                continue
            }
            if SHA256.hex(out) != row.sha { bytesDiffer.append(row.options) }
            if Self.decodedOptions.contains(row.options) && Decoding.whole(out).frames != [row.pixels] {
                pixelsDiffer.append(row.options)
            }
        }
        return (bytesDiffer, pixelsDiffer)
    }
}

/// Every fixture, byte for byte against jpegtran; always runs.
struct JPEGTranscodeFixtureTests {
    static let cases = JPEGTranscodeCase.load().filter { !$0.input.hasPrefix("corpus:") }

    @Test func manifestIsLoaded() {
        #expect(Self.cases.count >= 89)
        #expect(Self.cases.reduce(0) { $0 + $1.rows.count } >= 89 * 25)
    }

    @Test(arguments: cases)
    func matchesJpegtran(_ c: JPEGTranscodeCase) throws {
        let (bytes, pixels) = try c.check()
        #expect(bytes.isEmpty, "\(c.input): bytes differ for \(bytes)")
        #expect(pixels.isEmpty, "\(c.input): our decoder and djpeg differ for \(pixels)")
    }
}

/// The corpus files the script lists, byte for byte against jpegtran.
@Suite(.enabled(if: Corpus.root != nil, "corpus absent: set IMAGECODECS_CORPUS or place shared/corpus beside the project"))
struct JPEGTranscodeCorpusTests {
    static let cases = JPEGTranscodeCase.load().filter { $0.input.hasPrefix("corpus:") }

    @Test(arguments: cases)
    func matchesJpegtran(_ c: JPEGTranscodeCase) throws {
        let (bytes, pixels) = try c.check()
        #expect(bytes.isEmpty, "\(c.input): bytes differ for \(bytes)")
        #expect(pixels.isEmpty, "\(c.input): our decoder and djpeg differ for \(pixels)")
    }

    /// A file read through non-interleaved scans whose sampling factors give more than 10
    /// blocks per MCU once interleaved: jpegtran refuses it ("Sampling factors too large for
    /// interleaved scan"), and so do we, for every option set (found by FuzzJPEGTranscode,
    /// whose check that our decoder reads the output failed before).
    @Test func samplingTooLargeForAnInterleavedScanIsRefused() throws {
        let root = try #require(Corpus.root)
        let bytes = try Corpus.bytes(root.appendingPathComponent(
            "crashers/jpeg/jpeg-decoder-crashtest/imagetestsuite/39f43f280b31152f1d27df3f9d189317.jpg"))
        for words in ["", "progressive", "optimize", "rotate=90"] {
            #expect(throws: DecodingError.self, "\(words)") { try JPEGTranscoder.transcode(bytes, options: JPEGTranscodeCase.options(words)) }
        }
    }
}
