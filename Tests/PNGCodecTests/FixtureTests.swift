import Foundation
import ImageCodecs
import TestSupport
import Testing

/// The project's own fixtures (Conformance/fixtures, made by Conformance/scripts/make_fixtures.py
/// with ImageMagick, apngasm and Pillow), against libspng and Pillow; they always run.
struct FixtureTests {
    static let png = (try? Manifest.load("fixtures-png.tsv")) ?? []
    static let apng = (try? Manifest.load("fixtures-apng.tsv")) ?? []

    static func bytes(_ path: String) throws -> [UInt8] {
        try Corpus.bytes(Corpus.conformance.appendingPathComponent(path))
    }

    @Test func manifestsAreLoaded() {
        #expect(Self.png.count >= 40)
        #expect(Self.apng.count >= 5)
    }

    @Test(arguments: png + apng)
    func matchesReference(_ entry: ManifestEntry) throws {
        let bytes = try Self.bytes(entry.path)
        let whole = Decoding.whole(bytes)
        #expect(whole.status == .complete, "\(entry.path): \(whole)")
        #expect(whole.frames == entry.frames, "\(entry.path)")
        #expect(Decoding.chunked(bytes, sizes: [1]).result == whole, "\(entry.path) byte by byte")
        for seed in [7, 8] as [UInt64] {
            let (chunked, statuses) = Decoding.chunked(bytes, sizes: Decoding.randomSizes(count: 32, max: 200, seed: seed))
            #expect(chunked == whole, "\(entry.path) seed \(seed)")
            #expect(StatusOrder.isMonotone(statuses) && !statuses.contains(.invalidData), "\(entry.path): \(statuses)")
        }
    }
}
