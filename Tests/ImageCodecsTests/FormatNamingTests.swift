import Foundation
import ImageCodecs
import TestSupport
import Testing

/// Files of formats this library recognises but does not decode (Conformance/fixtures/named, made
/// by scripts/make_named_fixtures.sh with ImageMagick and Pillow) are refused as `unsupported`
/// with their format's name, whole and byte by byte; `ImageFormat.identify` names them without a
/// source.
struct FormatNamingTests {
    static let folder = Corpus.conformance.appendingPathComponent("fixtures/named")
    static let names: [(file: String, format: String)] = {
        let text = (try? String(contentsOf: folder.appendingPathComponent("NAMES.tsv"), encoding: .utf8)) ?? ""
        return text.split(separator: "\n").filter { !$0.hasPrefix("#") }.map {
            let columns = $0.split(separator: "\t")
            return (String(columns[0]), String(columns[1]))
        }
    }()

    @Test func everyNamedFormatHasAFixture() {
        let formats = Set(Self.names.map(\.format))
        #expect(formats == ["tiff", "bmp", "ico", "cur", "heic", "avif", "jpeg2000", "psd", "pdf", "svg"])
    }

    @Test(arguments: names.map(\.file))
    func refusedByName(_ file: String) throws {
        let expected = ImageFormat(rawValue: try #require(Self.names.first { $0.file == file }).format)
        let bytes = try Corpus.bytes(Self.folder.appendingPathComponent(file))
        #expect(ImageFormat.identify(bytes) == expected)
        let whole = ImageSource(bytes: bytes)
        #expect(whole.format == expected)
        #expect(whole.status == .invalidData)
        #expect(whole.error?.kind == .unsupported)
        #expect(whole.error?.detail.description == "\(expected.name) is not supported")
        #expect(throws: DecodingError.self) { try whole.image(at: 0) }
        let trickled = ImageSource(incremental: .init())
        for byte in bytes { trickled.append([byte], final: false) }
        trickled.append([], final: true)
        #expect(trickled.format == expected && trickled.error == whole.error)
    }

    /// ISO/IEC 18181-1 §9.1 (a bare codestream: FF 0A, then the size header) and 18181-2 §3
    /// (the container's signature box, then `ftyp` with brand `jxl `).
    @Test func jpegXLSignatures() {
        let codestream: [UInt8] = [0xFF, 0x0A, 0xFA, 0x7F, 0x01, 0x90, 0x08]
        let container: [UInt8] = [0, 0, 0, 0x0C, 0x4A, 0x58, 0x4C, 0x20, 0x0D, 0x0A, 0x87, 0x0A,
                                  0, 0, 0, 0x14, 0x66, 0x74, 0x79, 0x70, 0x6A, 0x78, 0x6C, 0x20]
        for bytes in [codestream, container] {
            #expect(ImageFormat.identify(bytes) == .jpegXL)
            let source = ImageSource(bytes: bytes)
            #expect(source.format == .jpegXL && source.error == .unsupported("JPEG XL is not supported"))
        }
    }

    @Test func lookalikesAreNotNamed() {
        let mp4: [UInt8] = [0, 0, 0, 0x18] + Array("ftypisom".utf8) + [0, 0, 2, 0] + Array("isomiso2".utf8)
        let xml = Array("<?xml version=\"1.0\"?>\n<html><svg/></html>".utf8)
        let svgLike = Array("<svgx/>".utf8)
        let bm = Array("BM plain text, not a bitmap".utf8)
        let emptyIcon: [UInt8] = [0, 0, 1, 0, 0, 0, 0, 0]
        for bytes in [mp4, xml, svgLike, bm, emptyIcon, [0x49, 0x49, 0x2A]] {
            #expect(ImageFormat.identify(bytes) == nil, "\(bytes.prefix(8))")
            #expect(ImageSource(bytes: bytes).status == .unknownType, "\(bytes.prefix(8))")
        }
    }

    /// A prolog longer than the sniffing window is not read past it: not named, no hang.
    @Test func svgPrologIsBounded() {
        let comment = Array("<!--".utf8) + [UInt8](repeating: 0x2D, count: 10_000)
        #expect(ImageFormat.identify(comment) == nil)
        #expect(ImageSource(bytes: comment).status == .unknownType)
        let waiting = ImageSource(incremental: .init())
        waiting.append(comment.prefix(100), final: false)
        #expect(waiting.status == .readingHeader)
    }

    @Test func catalogue() {
        #expect(ImageFormat.png.mimeType == "image/png" && ImageFormat.png.uniformTypeIdentifier == "public.png")
        #expect(ImageFormat.jpeg.fileExtensions.first == "jpg")
        #expect(ImageFormat.webp.uniformTypeIdentifier == "org.webmproject.webp")
        #expect(ImageFormat.heic.mimeType == "image/heic" && ImageFormat.avif.fileExtensions == ["avif"])
        #expect(ImageFormat(rawValue: "plugin").mimeType == nil && ImageFormat(rawValue: "plugin").fileExtensions.isEmpty)
        let all: [ImageFormat] = [.png, .gif, .jpeg, .webp, .tiff, .bmp, .ico, .cur, .heic, .heif, .avif,
                                  .jpeg2000, .jpegXL, .psd, .pdf, .svg]
        #expect(all.allSatisfy { $0.mimeType != nil && $0.uniformTypeIdentifier != nil && !$0.fileExtensions.isEmpty })
        #expect(Set(all.map(\.uniformTypeIdentifier)).count == all.count)
    }

    @Test func decodedFormatsAreIdentifiedToo() {
        #expect(ImageFormat.identify([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) == .png)
        #expect(ImageFormat.identify(Array("GIF89a".utf8)) == .gif)
        #expect(ImageFormat.identify([0xFF, 0xD8, 0xFF, 0xE0]) == .jpeg)
    }
}
