import Foundation
import ImageCodecs
import TestSupport
import Testing
@testable import GIFCodec

/// Every corpus GIF our decoder reads whole, re-encoded (small files, to keep debug test time
/// sane; Conformance/scripts/check_gif_encoder.py takes them all to giflib and Pillow): the
/// frames come back exactly when each has at most 256 colours, and the durations and loop
/// count (as `ImageDestination` passes them) too.
@Suite(.enabled(if: Corpus.root != nil, "corpus absent: set IMAGECODECS_CORPUS or place shared/corpus beside the project"))
struct GIFEncoderCorpusTests {
    @Test func corpusGIFsRoundTrip() throws {
        let folder = try #require(Corpus.root).appendingPathComponent("gif")
        var checked = 0
        for url in Corpus.files(in: folder, suffix: ".gif") {
            let bytes = try Corpus.bytes(url)
            guard bytes.count < 32 * 1024 else { continue }
            let source = ImageSource(bytes: bytes)
            guard source.status == .complete, source.count > 0,
                  let frames = try? (0..<source.count).map({ try source.image(at: $0).rgba8Raster().pixels }) else { continue }
            let destination = try ImageDestination(format: .gif)
            try destination.add(contentsOf: source)
            let back = ImageSource(bytes: try destination.finalize())
            let name = url.lastPathComponent
            #expect(back.status == .complete && back.count == frames.count, "\(name)")
            let fewColors = frames.allSatisfy { pixels in
                Set(stride(from: 0, to: pixels.count, by: 4).map { pixels[$0..<($0 + 4)] }).count <= 256
            }
            if fewColors {
                let decoded = try (0..<back.count).map { try back.image(at: $0).rgba8Raster().pixels }
                #expect(decoded == frames, "\(name)")
            }
            if source.count > 1 {
                for i in 0..<source.count {
                    let want = source.properties(at: i)?.unclampedDuration ?? -1
                    #expect(back.properties(at: i)?.unclampedDuration == want, "\(name) frame \(i)")
                }
            }
            checked += 1
        }
        #expect(checked > 100)
    }
}
