import CodecCore
import ImageCodecs
import TestSupport
import Testing
@testable import WebPCodec

/// "WxH sha256" of the canonical bytes that a whole-file decoder (`decode`) gives for `bytes`,
/// or the error.
func wholeFileHash(_ bytes: [UInt8], _ decode: (UnsafeBufferPointer<UInt8>) throws(DecodingError)
                   -> (width: Int, height: Int, pixels: [UInt8])) -> Result<String, DecodingError> {
    do throws(DecodingError) {
        let decoded = try bytes.withUnsafeBufferPointer { (p) throws(DecodingError) in try decode(p) }
        let image = DecodedImage(width: decoded.width, height: decoded.height, pixelFormat: .rgba8,
                                 isPremultiplied: false, pixels: decoded.pixels, finalRowCount: decoded.height)
        return .success("\(decoded.width)x\(decoded.height) \(CanonicalHash.hex(image))")
    } catch {
        return .failure(error)
    }
}

/// Rows of a WebP manifest whose bitstream column is one of `bitstreams` (VP8L, VP8, VP8+ALPH).
func webpEntries(_ manifest: String, bitstreams: Set<String>) -> [ManifestEntry] {
    let kept = Set(Manifest.rows(manifest).filter { $0.count >= 5 && bitstreams.contains($0[4]) }.map { $0[0] })
    return ((try? Manifest.load(manifest)) ?? []).filter { kept.contains($0.path) }
}

/// Decodes a lossless WebP file with the VP8L decoder and returns "WxH sha256" of its canonical
/// bytes, or the error.
func losslessHash(_ bytes: [UInt8], limits: Limits = Limits()) -> Result<String, DecodingError> {
    wholeFileHash(bytes) { (p) throws(DecodingError) in try WebPContainer.decodeLossless(p, limits: limits) }
}

/// A decoder's verdict (`result`, from ``losslessHash`` or ``lossyHash``) is the manifest's:
/// the same hash, or an error.
func expectVerdict(_ entry: ManifestEntry, _ result: Result<String, DecodingError>) {
    if entry.isError {
        #expect(throws: DecodingError.self, "\(entry.path)") { try result.get() }
    } else {
        #expect((try? result.get()) == entry.frames.first, "\(entry.path): \(result)")
    }
}

/// Rows of a WebP manifest whose bitstream column says VP8L.
func losslessEntries(_ manifest: String) -> [ManifestEntry] {
    webpEntries(manifest, bitstreams: ["VP8L"])
}

/// The project's lossless WebP fixtures (Conformance/fixtures/webp, made with cwebp from
/// ImageMagick patterns) against `dwebp -pam`; they always run.
struct WebPLosslessFixtureTests {
    static let entries = losslessEntries("fixtures-webp.tsv")

    @Test func manifestIsLoaded() {
        #expect(Self.entries.count >= 30)
    }

    @Test(arguments: entries)
    func matchesDwebp(_ entry: ManifestEntry) throws {
        expectVerdict(entry, losslessHash(try Corpus.bytes(Corpus.conformance.appendingPathComponent(entry.path))))
    }
}

/// The shared corpus' lossless stills (webp.tsv rows whose bitstream is VP8L) against dwebp.
@Suite(.enabled(if: Corpus.root != nil, "corpus absent: set IMAGECODECS_CORPUS or place shared/corpus beside the project"))
struct WebPLosslessCorpusTests {
    static let entries = losslessEntries("webp.tsv")

    @Test func manifestIsLoaded() {
        #expect(Self.entries.count >= 65)
    }

    @Test(arguments: entries)
    func matchesDwebp(_ entry: ManifestEntry) throws {
        expectVerdict(entry, losslessHash(try Corpus.bytes(Corpus.root!.appendingPathComponent(entry.path))))
    }
}

/// The corpus' WebP crashers (crashers-webp.tsv) through the VP8L and VP8 decoders.
@Suite(.enabled(if: Corpus.root != nil, "corpus absent: set IMAGECODECS_CORPUS or place shared/corpus beside the project"))
struct WebPCrasherTests {
    static let rows = Manifest.rows("crashers-webp.tsv").filter { $0.count >= 4 && $0[0] != "path" }

    @Test func manifestIsLoaded() {
        #expect(Self.rows.count >= 100)
    }

    /// Every file through both still decoders: no trap, no unbounded allocation; where dwebp
    /// decodes a VP8L or VP8 file, that decoder gives the same pixels; where it refuses one, an error.
    @Test func crashersNeverTrap() throws {
        var limits = Limits()
        limits.maxPixels = 1 << 24
        var checked: [String: Int] = [:]
        for row in Self.rows {
            let bytes = try Corpus.bytes(Corpus.root!.appendingPathComponent(row[0]))
            let results = ["VP8L": losslessHash(bytes, limits: limits), "VP8": lossyHash(bytes, limits: limits)]
            guard let result = results[row[2]] else { continue }
            checked[row[2], default: 0] += 1
            if row[1] == "ok" {
                #expect((try? result.get()) == row[3], "\(row[0]): \(result)")
            } else {
                #expect(throws: DecodingError.self, "\(row[0]) decoded where dwebp refuses") { try result.get() }
            }
        }
        #expect(checked["VP8L", default: 0] >= 40)
        #expect(checked["VP8", default: 0] >= 30)
    }
}
