import ImageCodecs
import TestSupport
import Testing

/// Canonical hashes against the manifests made from libspng (PNG) and Pillow (APNG) by
/// Conformance/scripts/make_manifests.py.
@Suite(.enabled(if: Corpus.root != nil, "corpus absent: set IMAGECODECS_CORPUS or place shared/corpus beside the project"))
struct CorpusConformanceTests {
    static let pngEntries = (try? Manifest.load("png.tsv")) ?? []
    static let apngEntries = (try? Manifest.load("apng.tsv")) ?? []
    static let deviations = Deviations.kinds

    static func bytes(_ path: String) throws -> [UInt8] {
        try Corpus.bytes(#require(Corpus.root).appendingPathComponent(path))
    }

    @Test func manifestsAreLoaded() {
        #expect(Self.pngEntries.count > 300)
        #expect(Self.apngEntries.count > 60)
    }

    /// libspng decodes the static image only; APNG files are compared with Pillow below.
    @Test(arguments: pngEntries)
    func pngMatchesLibspng(_ entry: ManifestEntry) throws {
        let result = Decoding.whole(try Self.bytes(entry.path))
        if entry.isError {
            #expect(result.status == .invalidData || result.status == .unknownType || result.status == .unexpectedEOF,
                    "\(entry.path): \(result)")
        } else if Self.deviations["png.tsv"]?[entry.path] == "static-only" {
            #expect(result.status == .complete && !result.frames.isEmpty, "\(entry.path): \(result)")
        } else {
            #expect(result.status == .complete, "\(entry.path): \(result)")
            #expect(result.frames == entry.frames, "\(entry.path)")
        }
    }

    @Test(arguments: apngEntries)
    func apngMatchesPillow(_ entry: ManifestEntry) throws {
        let result = Decoding.whole(try Self.bytes(entry.path))
        switch Self.deviations["apng.tsv"]?[entry.path] {
        case nil:
            #expect(result.frames == entry.frames, "\(entry.path): \(result)")
        case "static-fallback":
            #expect(result.status == .complete && result.frames.count == 1, "\(entry.path): \(result)")
        case "frames-present":
            #expect(result.status == .complete && !result.frames.isEmpty && entry.isError, "\(entry.path): \(result)")
        default:
            let expected = Deviations.apngdisExpectation(entry)
            #expect(expected != entry.frames, "\(entry.path): no apngdis disagreement recorded")
            #expect(result.frames == expected, "\(entry.path): \(result)")
        }
    }

    /// The blend deviations, checked against the values the APNG test suite's pages describe.
    @Test func porterDuffResults() throws {
        func lastFramePixel(_ path: String) throws -> [UInt8] {
            let source = ImageSource(bytes: try Self.bytes(path))
            let image = try source.image(at: source.count - 1)
            return Array(image.pixels[0..<4])
        }
        // 50% blue over opaque black stays opaque.
        #expect(try lastFramePixel("apng/pillow/mode_16bit.png") == [0, 0, 128, 255])
        #expect(try lastFramePixel("apng/pillow/mode_palette_1bit_alpha.png") == [0, 0, 128, 255])
        #expect(try lastFramePixel("apng/pillow/mode_grayscale_alpha.png") == [128, 128, 128, 255])
        // Near-transparent green over opaque green: still opaque green.
        #expect(try lastFramePixel("apng/pillow/blend_op_over_near_transparent.png") == [0, 255, 0, 255])
    }

    @Test func pngSuiteCorruptFilesAreRefused() throws {
        let root = try #require(Corpus.root).appendingPathComponent("pngsuite")
        let corrupt = Corpus.files(in: root, suffix: ".png").filter { $0.lastPathComponent.hasPrefix("x") }
        #expect(corrupt.count == 14)
        for url in corrupt {
            let status = Decoding.whole(try Corpus.bytes(url)).status
            #expect(status == .invalidData || status == .unknownType, "\(url.lastPathComponent): \(status)")
        }
    }
}

extension ManifestEntry: CustomTestStringConvertible {
    public var testDescription: String { path }
}
