import Foundation
import ImageCodecs
@testable import JPEGCodec
import TestSupport
import Testing

/// The encoder against cjpeg: every (input, flags) of fixtures-jpeg-encoder.tsv (made by
/// Conformance/scripts/make_jpeg_encoder_fixtures.py) must give cjpeg's bytes exactly, and our
/// decoder must read our file to the pixels djpeg reads from cjpeg's.
struct JPEGEncoderConformanceTests {
    struct Entry: Sendable, CustomTestStringConvertible {
        let input: String
        let flags: String
        let size: Int
        let sha256: String
        /// "WxH sha256": djpeg's pixels, canonical hash.
        let decoded: String
        var testDescription: String { "\(input) \(flags)" }
    }

    static let entries: [Entry] = Manifest.rows("fixtures-jpeg-encoder.tsv").compactMap { cols in
        guard cols.count == 5, let size = Int(cols[2]) else { return nil }
        return Entry(input: cols[0], flags: cols[1], size: size, sha256: cols[3], decoded: cols[4])
    }

    @Test func manifestIsLoaded() {
        #expect(Self.entries.count >= 1400)
    }

    static let inputs = Array(Set(entries.map(\.input))).sorted()

    /// Every entry of one input (inputs run in parallel), with a count of the byte-exact ones
    /// per kind of setting.
    @Test(arguments: inputs) func byteExactWithCjpeg(input: String) throws {
        let image = try #require(PNMImage(try Corpus.bytes(Corpus.conformance.appendingPathComponent("fixtures/jpeg-encoder/\(input)"))))
        var exact: [String: (Int, Int)] = [:]
        for (n, entry) in Self.entries.filter({ $0.input == input }).enumerated() {
            let settings = try #require(encoderSettings(cjpegFlags: entry.flags))
            // Every other entry with a second thread (baseline encodes code on it).
            let bytes = try encodeJPEG(image, settings, maxThreads: n % 2 == 0 ? 1 : 2)
            let same = bytes.count == entry.size && SHA256.hex(bytes) == entry.sha256
            #expect(same, "\(entry.input) \(entry.flags): \(bytes.count) bytes, cjpeg \(entry.size)")
            if n % 4 == 0 { #expect(Decoding.whole(bytes).frames == [entry.decoded], "\(entry.input) \(entry.flags): decoded") }
            var kind = settings.progressive ? "progressive" : settings.optimizeHuffman ? "optimize" : "baseline"
            if settings.grayscale || image.components == 1 { kind += " gray" }
            if settings.restart != nil { kind += " restart" }
            exact[kind, default: (0, 0)].0 += same ? 1 : 0
            exact[kind, default: (0, 0)].1 += 1
        }
        print("JPEG encoder byte-exact with cjpeg, \(input):", exact.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value.0)/\($0.value.1)" }.joined(separator: ", "))
    }
}
