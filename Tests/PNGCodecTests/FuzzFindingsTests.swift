import Foundation
import ImageCodecs
import TestSupport
import Testing

/// Replays every input the PNG fuzz target found (Fuzz/findings) with the target's options:
/// the same result whole and fed in chunks, and no trap. `slow-unit-*` files record the fuzz
/// harness's own cost on a 16-megapixel canvas, not library behaviour, and are left out.
struct FuzzFindingsTests {
    static let files = Corpus.files(in: Corpus.projectRoot.appendingPathComponent("Fuzz/findings"), suffix: "")
        .map(\.lastPathComponent).filter { !$0.hasSuffix(".md") && !$0.hasPrefix("slow-unit-") }

    static var options: DecodingOptions {
        var o = DecodingOptions()
        o.limits.maxPixels = 1 << 24
        o.limits.maxFrames = 100
        o.limits.maxBytesHeld = 256 << 20
        o.limits.maxMetadataBytes = 1 << 20
        o.ignoresChecksums = true
        return o
    }

    @Test func findingsArePresent() { #expect(Self.files.count >= 4) }

    @Test(arguments: files)
    func wholeEqualsChunked(_ name: String) throws {
        let bytes = try Corpus.bytes(Corpus.projectRoot.appendingPathComponent("Fuzz/findings/\(name)"))
        let whole = Decoding.whole(bytes, options: Self.options)
        var eager = Self.options
        eager.decodesImmediately = true
        for sizes in [[7, 4096], [1000], Decoding.randomSizes(count: 16, max: 3000, seed: 5)] {
            #expect(Decoding.chunked(bytes, sizes: sizes, options: Self.options).result == whole, "\(name) \(sizes.prefix(3))")
            #expect(Decoding.chunked(bytes, sizes: sizes, options: eager).result == whole, "\(name) eager")
        }
    }
}
