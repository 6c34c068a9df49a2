import CodecCore
import ImageCodecs
import TestSupport
import Testing

/// Lossless files whose prefix codes have the shape of CVE-2023-4863 (fixtures-webp-cve.tsv, made
/// by make_webp_cve_fixtures.py): incomplete codes whose second-level tables old libwebp filled
/// past its fixed buffer, over-subscribed codes, codes with no symbol, the same inside a meta
/// prefix code group and in a colour-cache-enlarged green alphabet, and legal controls. Where
/// dwebp refuses a file the source must end in a clean `invalidData`; where it decodes one, the
/// same pixels, whole and fed in pieces.
struct WebPPrefixCodeFixtureTests {
    static let entries = (try? Manifest.load("fixtures-webp-cve.tsv")) ?? []

    @Test func manifestIsLoaded() {
        #expect(Self.entries.count >= 8)
        #expect(Self.entries.filter(\.isError).count >= 6)
        #expect(Self.entries.filter { !$0.isError }.count >= 2)
    }

    @Test(arguments: entries)
    func matchesDwebp(_ entry: ManifestEntry) throws {
        let bytes = try WebPSourceCheck.fixture(entry.path)
        let source = ImageSource(bytes: bytes)
        if entry.isError {
            #expect(throws: DecodingError.self, "\(entry.path) decoded where dwebp refuses") { try source.image(at: 0) }
            #expect(source.status == .invalidData, "\(entry.path): \(source.status)")
            #expect(source.error?.kind == .invalidData, "\(entry.path): \(String(describing: source.error))")
        } else {
            let image = try source.image(at: 0)
            #expect(["\(image.width)x\(image.height) \(CanonicalHash.hex(image))"] == entry.frames, "\(entry.path)")
        }
        WebPSourceCheck.check(entry, bytes)
    }
}
