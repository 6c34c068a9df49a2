import Foundation
import ImageCodecs
import TestSupport
import Testing

/// Per-frame `hasAlpha`: the frame's own pixels can be non-opaque. Checked on fixtures whose
/// transparency is known, against the still image's own flag, and for soundness: a frame that
/// says it has no alpha is opaque in every pixel of its raw frame. (The references' values for
/// every frame of every animation are in the raw-frame manifests: RawFrameTests.)
struct FrameAlphaTests {
    static func alphas(_ name: String) throws -> [Bool] {
        let source = ImageSource(bytes: try ImageSourceTests.fixture(name))
        return (0..<source.count).compactMap { source.properties(at: $0)?.hasAlpha }
    }

    /// GIF: a transparent index in the frame's GCE; APNG: the colour type or tRNS; WebP: ALPH
    /// or VP8L's alpha bit, frame by frame (webpmux -info's alpha column).
    @Test func knownFixtures() throws {
        #expect(try Self.alphas("gif/im-trns-pal16-33x17.gif") == [true])
        #expect(try Self.alphas("gif/im-pal16-24x16.gif") == [false])
        #expect(try Self.alphas("gif/gs-dispose-background-32x24.gif") == [false, true, true, true])
        #expect(try Self.alphas("apng/pil-rgb-30x20.png") == [false, false, false])
        #expect(try Self.alphas("apng/asm-partial-alpha-24x24.png") == [true, true, true, true])
        #expect(try Self.alphas("webp/anim-gif2webp-lossy-dispose-background-32x24.webp") == [false, false, true, true])
        #expect(try Self.alphas("webp/anim-img2webp-mixed-ramp-32x24.webp") == [true, true, true, true, false, false])
    }

    /// A still image's frame has the image's alpha, whatever the format.
    @Test func stillFramesHaveTheImagesAlpha() throws {
        let fixtures = Corpus.conformance.appendingPathComponent("fixtures")
        var seen: [Bool: Int] = [:]
        for folder in ["png", "jpeg", "webp", "webp-lossy"] {
            for url in Corpus.files(in: fixtures.appendingPathComponent(folder), suffix: "") where !url.lastPathComponent.hasSuffix(".tsv") {
                let source = ImageSource(bytes: try Corpus.bytes(url))
                guard source.count == 1, source.status == .complete, let p = source.properties else { continue }
                #expect(source.properties(at: 0)?.hasAlpha == p.hasAlpha, "\(url.lastPathComponent)")
                seen[p.hasAlpha, default: 0] += 1
            }
        }
        #expect(seen[true, default: 0] > 20 && seen[false, default: 0] > 20)
    }

    /// Every frame of every animated fixture (and of the corpus animations, when present) whose
    /// `hasAlpha` is false is opaque in its raw pixels.
    @Test func framesWithoutAlphaAreOpaque() throws {
        var files = RawFramePropertyTests.animations.map { Corpus.conformance.appendingPathComponent("fixtures/\($0)") }
        if let root = Corpus.root {
            files += RawFrameTests.load("raw-frames.tsv").map { root.appendingPathComponent($0.path) }
        }
        var opaque = 0
        for url in files {
            let source = ImageSource(bytes: try Corpus.bytes(url))
            for index in 0..<source.count where source.properties(at: index)?.hasAlpha == false {
                guard let raw = try? source.rawFrame(at: index) else { continue }
                let alpha = stride(from: 3, to: raw.image.pixels.count, by: 4).map { raw.image.pixels[$0] }
                #expect(alpha.allSatisfy { $0 == 255 }, "\(url.lastPathComponent) frame \(index)")
                opaque += 1
            }
        }
        #expect(opaque > 100)
    }
}
