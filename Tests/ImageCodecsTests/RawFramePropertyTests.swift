import Foundation
import ImageCodecs
import TestSupport
import Testing

/// Where a raw frame and the composed canvas must agree: a frame that covers the whole canvas
/// with `source` replaces every pixel, so the canvas after it is the frame itself, whatever
/// came before (and a file made only of such frames, disposing nothing, is its raw frames).
struct RawFramePropertyTests {
    /// Every animated fixture: GIF, APNG and animated WebP.
    static let animations: [String] = {
        let fixtures = Corpus.conformance.appendingPathComponent("fixtures")
        let gifs = Corpus.files(in: fixtures.appendingPathComponent("gif"), suffix: ".gif")
        let apngs = Corpus.files(in: fixtures.appendingPathComponent("apng"), suffix: ".png")
        let webps = Corpus.files(in: fixtures.appendingPathComponent("webp"), suffix: ".webp")
            .filter { $0.lastPathComponent.hasPrefix("anim-") }
        return (gifs + apngs + webps).map { "\($0.deletingLastPathComponent().lastPathComponent)/\($0.lastPathComponent)" }
    }()

    static func coversWithSource(_ p: FrameProperties, _ canvas: ImageProperties) -> Bool {
        p.x == 0 && p.y == 0 && p.width == canvas.width && p.height == canvas.height && p.blend == .source
    }

    /// Frames that cover the canvas with `source` equal their composed canvas (or throw the
    /// same error: a broken frame is broken both ways), in every file.
    @Test func fullCanvasSourceFramesAreTheirCanvas() throws {
        var checked: [String: Int] = [:]
        for name in Self.animations {
            let source = ImageSource(bytes: try ImageSourceTests.fixture(name))
            let canvas = try #require(source.properties)
            for index in 0..<source.count {
                guard let p = source.properties(at: index), Self.coversWithSource(p, canvas) else { continue }
                let raw = Result { () throws(DecodingError) in try source.rawFrame(at: index).image }
                let composed = Result { () throws(DecodingError) in try source.image(at: index) }
                #expect(raw == composed, "\(name) frame \(index)")
                checked[String(name.prefix { $0 != "/" }), default: 0] += 1
            }
        }
        #expect(checked["gif", default: 0] > 30 && checked["apng", default: 0] > 20 && checked["webp", default: 0] > 30)
    }

    /// Files whose every frame covers the canvas with `source` and disposes nothing: every raw
    /// frame is the composed frame (GIF, APNG and WebP files among them).
    @Test func filesOfReplacingFramesAreTheirRawFrames() throws {
        var files: Set<String> = []
        for name in Self.animations {
            let source = ImageSource(bytes: try ImageSourceTests.fixture(name))
            let canvas = try #require(source.properties)
            let frames = (0..<source.count).compactMap { source.properties(at: $0) }
            guard frames.count > 1, frames.allSatisfy({ Self.coversWithSource($0, canvas) && $0.disposal == .none }) else {
                continue
            }
            let composed = Decoding.whole(try ImageSourceTests.fixture(name)).frames
            let raw = try (0..<source.count).map { i -> String in
                let image = try source.rawFrame(at: i).image
                return "\(image.width)x\(image.height) \(CanonicalHash.hex(image))"
            }
            #expect(raw == composed, "\(name)")
            files.insert(String(name.prefix { $0 != "/" }))
        }
        #expect(files == ["gif", "apng", "webp"])
    }
}
