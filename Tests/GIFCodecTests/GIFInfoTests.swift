import Foundation
import ImageCodecs
import TestSupport
import Testing

/// Frame count, loop count, durations and disposal against Pillow and the block walk
/// (manifests/gif-info.tsv, fixtures-gif-info.tsv).
struct GIFInfoTests {
    struct Row: Sendable, CustomTestStringConvertible {
        let path: String
        let frameCount: Int
        let loopCount: Int
        /// Milliseconds per frame.
        let durations: [Double]
        let disposals: [String]
        var testDescription: String { path }
    }

    /// Rows Pillow could read (it refuses some files: `-`).
    static func load(_ name: String) -> [Row] {
        Manifest.rows(name).compactMap { c in
            guard c.count >= 5, let frames = Int(c[1]), let loops = Int(c[2]) else { return nil }
            return Row(path: c[0], frameCount: frames, loopCount: loops,
                       durations: c[3].split(separator: ",").compactMap { Double($0) },
                       disposals: c[4].split(separator: ",").map(String.init))
        }
    }

    /// Where this library reads the file as browsers do and Pillow does not (SPEC-NOTES.md, GIF).
    static let deviations: [String: (frameCount: Int, loopCount: Int)] = [
        "gif/pygif-test-suite/loop-animexts.gif": (1, 0),              // ANIMEXTS1.0, which Pillow does not read
        "gif/pillow/test_extents_transparency.gif": (1, 1),           // the file ends at the stray byte after frame 0
    ]

    static func check(_ row: Row, bytes: [UInt8]) {
        let source = ImageSource(bytes: bytes)
        let frames = (0..<source.count).compactMap { source.properties(at: $0) }
        if let deviation = deviations[row.path] {
            #expect(frames.count == deviation.frameCount && source.properties?.loopCount == deviation.loopCount, "\(row.path)")
            return
        }
        #expect(frames.count == row.frameCount, "\(row.path)")
        #expect(source.properties?.loopCount == row.loopCount, "\(row.path)")
        #expect(frames.map { $0.unclampedDuration * 1000 }.elementsEqual(row.durations) { abs($0 - $1) < 1e-6 }, "\(row.path)")
        #expect(frames.map { $0.duration } == row.durations.map { $0 <= 10 ? 0.1 : $0 / 1000 }, "\(row.path)")
        #expect(frames.map(\.disposal.rawValue) == row.disposals, "\(row.path)")
    }

    @Test(arguments: load("fixtures-gif-info.tsv"))
    func fixturesMatchPillow(_ row: Row) throws {
        Self.check(row, bytes: try GIFConformance.fixtureBytes(row.path))
    }

    @Test(.enabled(if: Corpus.root != nil, "corpus absent"), arguments: load("gif-info.tsv"))
    func corpusMatchesPillow(_ row: Row) throws {
        Self.check(row, bytes: try GIFConformance.corpusBytes(row.path))
    }

    @Test func manifestsAreLoaded() {
        #expect(Self.load("fixtures-gif-info.tsv").count >= 37)
    }
}
