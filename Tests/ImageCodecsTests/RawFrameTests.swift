import Foundation
import ImageCodecs
import TestSupport
import Testing

/// Raw (uncomposited) frames and per-frame alpha against the reference tools: giflib for GIF,
/// libspng on each APNG frame cut out as a PNG, webpmux and dwebp for WebP
/// (manifests/*raw-frames.tsv, made by scripts/make_raw_frame_manifests.py).
struct RawFrameTests {
    /// One file's frames as the manifest lists them.
    struct File: Sendable, CustomTestStringConvertible {
        let path: String
        /// Per frame: "x,y WxH alpha sha256".
        let frames: [String]
        var testDescription: String { path }
    }

    static func load(_ name: String) -> [File] {
        var order: [String] = []
        var frames: [String: [String]] = [:]
        for c in Manifest.rows(name) where c.count >= 7 && c[0] != "path" {
            if frames[c[0]] == nil { order.append(c[0]) }
            frames[c[0], default: []].append("\(c[2]),\(c[3]) \(c[4]) \(c[5]) \(c[6])")
        }
        return order.map { File(path: $0, frames: frames[$0] ?? []) }
    }

    /// Frame `index` of `source` in the manifest's form, after checking that it is complete.
    static func describe(_ source: ImageSource, _ index: Int) throws -> String {
        let raw = try source.rawFrame(at: index)
        let p = raw.properties
        #expect(raw.status == .complete && raw.image.isComplete)
        #expect(raw.image.width == p.width && raw.image.height == p.height)
        return "\(p.x),\(p.y) \(p.width)x\(p.height) \(p.hasAlpha ? "yes" : "no") \(CanonicalHash.hex(raw.image))"
    }

    static func check(_ file: File, bytes: [UInt8]) throws {
        let source = ImageSource(bytes: bytes)
        #expect(source.count == file.frames.count, "\(file.path): frame count")
        for (index, expected) in file.frames.enumerated() where index < source.count {
            #expect(try describe(source, index) == expected, "\(file.path) frame \(index)")
        }
    }

    /// Corpus files whose animation this library withdraws (SPEC-NOTES.md, APNG): Pillow plays
    /// them, we show their static image, and raw frame 0 is that image.
    static let staticFallbacks = Set((Deviations.kinds["apng.tsv"] ?? [:]).filter { $0.value == "static-fallback" }.keys)

    @Test(arguments: load("fixtures-raw-frames.tsv"))
    func fixturesMatchReferences(_ file: File) throws {
        try Self.check(file, bytes: Corpus.bytes(Corpus.conformance.appendingPathComponent(file.path)))
    }

    /// An MPO frame's raw pixels are its JPEG, as djpeg decodes the image cut at its offset.
    @Test(arguments: try Manifest.load("fixtures-mpo.tsv"))
    func mpoFramesAreTheirJPEGs(_ entry: ManifestEntry) throws {
        let source = ImageSource(bytes: try Corpus.bytes(Corpus.conformance.appendingPathComponent(entry.path)))
        let raw = try (0..<source.count).map { try source.rawFrame(at: $0).image }
        #expect(raw.map { "\($0.width)x\($0.height) \(CanonicalHash.hex($0))" } == entry.frames)
        #expect((0..<source.count).allSatisfy { source.properties(at: $0)?.hasAlpha == false })
    }

    @Test(.enabled(if: Corpus.root != nil, "corpus absent: set IMAGECODECS_CORPUS or place shared/corpus beside the project"))
    func corpusMatchesReferences() throws {
        let files = Self.load("raw-frames.tsv")
        #expect(files.count > 200)
        for file in files {
            let bytes = try Corpus.bytes(#require(Corpus.root).appendingPathComponent(file.path))
            guard !Self.staticFallbacks.contains(file.path) else {
                let source = ImageSource(bytes: bytes)
                #expect(try source.rawFrame(at: 0).image == source.image(at: 0), "\(file.path)")
                continue
            }
            try Self.check(file, bytes: bytes)
        }
    }
}
