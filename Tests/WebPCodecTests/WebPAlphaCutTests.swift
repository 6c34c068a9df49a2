import CodecCore
import ImageCodecs
import TestSupport
import Testing
@testable import WebPCodec

/// Lossy files whose compressed ALPH payload is cut short (fixtures-webp-alpha-cut.tsv, made by
/// make_webp_alpha_cut_fixtures.py): libwebp decodes a last symbol read partly past the end from
/// its last 64-bit window and accepts the image if that symbol completes it; every other cut
/// fails the whole image. Each file against dwebp through ImageSource, whole and in pieces.
struct WebPAlphaCutTests {
    static let entries = (try? Manifest.load("fixtures-webp-alpha-cut.tsv")) ?? []

    @Test func manifestIsLoaded() {
        #expect(Self.entries.filter { !$0.isError }.count >= 15)
        #expect(Self.entries.filter(\.isError).count >= 15)
    }

    @Test(arguments: entries)
    func matchesDwebp(_ entry: ManifestEntry) throws {
        WebPSourceCheck.check(entry, try WebPSourceCheck.fixture(entry.path))
    }
}
