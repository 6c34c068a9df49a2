import CodecCore
import ImageCodecs
import TestSupport
import Testing
@testable import WebPCodec

/// WebP through ``ImageSource``: the manifests' files decoded whole and fed in pieces.
enum WebPSourceCheck {
    /// Whole, then fed in pieces of 1, 7 and 4096 bytes: each must equal `entry` (an error row
    /// must not decode completely).
    static func check(_ entry: ManifestEntry, _ bytes: [UInt8]) {
        let whole = Decoding.whole(bytes)
        if entry.isError {
            #expect(whole.status != .complete || whole.frames.isEmpty, "\(entry.path): \(whole)")
            return
        }
        #expect(whole.status == .complete && whole.frames == entry.frames, "\(entry.path) whole: \(whole)")
        for size in [1, 7, 4096] {
            let fed = Decoding.chunked(bytes, sizes: [size]).result
            #expect(fed.status == .complete && fed.frames == entry.frames, "\(entry.path) in pieces of \(size): \(fed)")
        }
    }
}

/// The lossless fixtures (fixtures-webp.tsv, dwebp) through ImageSource.
struct WebPSourceFixtureTests {
    static let entries = (try? Manifest.load("fixtures-webp.tsv")) ?? []

    @Test(arguments: entries)
    func matchesDwebp(_ entry: ManifestEntry) throws {
        WebPSourceCheck.check(entry, try Corpus.bytes(Corpus.conformance.appendingPathComponent(entry.path)))
    }
}
