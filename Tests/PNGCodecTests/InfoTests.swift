import Foundation
import ImageCodecs
import TestSupport
import Testing

/// Frame count, loop count and durations against Pillow (manifests/*apng-info.tsv).
struct InfoTests {
    struct Row: Sendable, CustomTestStringConvertible {
        let path: String
        let frameCount: Int
        let loopCount: Int
        /// Milliseconds per frame; nil where Pillow read the file as a plain PNG.
        let durations: [Double]?
        var testDescription: String { path }
    }

    static func load(_ name: String) -> [Row] {
        Manifest.rows(name).compactMap { c in
            guard c.count >= 4, let frames = Int(c[1]), let loops = Int(c[2]) else { return nil }
            return Row(path: c[0], frameCount: frames, loopCount: loops,
                       durations: c[3] == "-" ? nil : c[3].split(separator: ",").compactMap { Double($0) })
        }
    }

    /// Files Pillow refuses or reads as plain PNGs where this library shows the static image
    /// or the frames present (SPEC-NOTES.md, APNG).
    static let fallbacks = Set((Deviations.kinds["apng.tsv"] ?? [:]).filter { $0.value != "apngdis" }.keys)

    static func check(_ row: Row, bytes: [UInt8]) {
        let source = ImageSource(bytes: bytes)
        let frames = (0..<source.count).compactMap { source.properties(at: $0) }
        #expect(frames.count == row.frameCount, "\(row.path)")
        #expect(source.properties?.loopCount == row.loopCount, "\(row.path)")
        if let durations = row.durations {
            #expect(zip(frames, durations).allSatisfy { abs($0.unclampedDuration * 1000 - $1) < 1e-5 }, "\(row.path)")
            #expect(zip(frames, durations).allSatisfy { $0.duration == ($1 <= 10 ? 0.1 : $0.unclampedDuration) }, "\(row.path)")
        }
    }

    @Test(arguments: load("fixtures-apng-info.tsv"))
    func fixturesMatchPillow(_ row: Row) throws {
        Self.check(row, bytes: try Corpus.bytes(Corpus.conformance.appendingPathComponent(row.path)))
    }

    @Test(.enabled(if: Corpus.root != nil, "corpus absent"), arguments: load("apng-info.tsv"))
    func corpusMatchesPillow(_ row: Row) throws {
        let bytes = try Corpus.bytes(#require(Corpus.root).appendingPathComponent(row.path))
        guard !Self.fallbacks.contains(row.path) else {
            #expect(ImageSource(bytes: bytes).status == .complete, "\(row.path)")
            return
        }
        if row.path.hasSuffix("syntax_num_frames_zero.png") {
            #expect(ImageSource(bytes: bytes).status == .invalidData, "no IDAT")
            return
        }
        Self.check(row, bytes: bytes)
    }
}
