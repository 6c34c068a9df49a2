import CodecCore
import Foundation
import ImageCodecs
import TestSupport
import Testing

/// Every PngSuite file and corpus APNG our decoder reads, re-encoded through ImageDestination,
/// reads back to the same pixels (16-bit sources at 16 bits); skipped without the corpus.
struct PNGCorpusRoundTripTests {
    static let files: [URL] = {
        guard let root = Corpus.root else { return [] }
        return Corpus.files(in: root.appendingPathComponent("pngsuite"), suffix: ".png")
            + Corpus.files(in: root.appendingPathComponent("apng"), suffix: ".png").filter {
                ((try? FileManager.default.attributesOfItem(atPath: $0.path)[.size] as? Int) ?? 0) < 1 << 20
            }
    }()

    @Test func corpusIsPresentOrSkipped() {
        if Corpus.root == nil { print("PNGCorpusRoundTripTests: no corpus, skipped") } else { #expect(Self.files.count > 150) }
    }

    @Test(arguments: files)
    func roundTrips(_ url: URL) throws {
        var options = DecodingOptions()
        options.prefersSixteenBitOutput = true
        let source = ImageSource(bytes: try Corpus.bytes(url), options: options)
        guard source.status == .complete, source.count > 0, (try? source.image(at: 0)) != nil else { return }
        let destination = try ImageDestination(format: .png)
        try destination.add(contentsOf: source)
        let bytes = try destination.finalize()
        let back = ImageSource(bytes: bytes, options: options)
        #expect(back.status == .complete, "\(url.lastPathComponent)")
        #expect(back.count == source.count, "\(url.lastPathComponent)")
        #expect(back.properties?.loopCount == source.properties?.loopCount || source.count == 1)
        for i in 0..<min(back.count, source.count) {
            let a = try source.image(at: i), b = try back.image(at: i)
            let expected = Raster(width: a.width, height: a.height, bytesPerPixel: a.pixelFormat.bytesPerPixel, pixels: a.pixels)
            let decoded = Raster(width: b.width, height: b.height, bytesPerPixel: b.pixelFormat.bytesPerPixel, pixels: b.pixels)
            #expect(EncoderFixtures.same([decoded], [expected]), "\(url.lastPathComponent) frame \(i)")
            // An 8-bit file for a 16-bit source only when every sample fits in 8 bits (v = 257 × (v >> 8)).
            if a.pixelFormat == .rgba16, b.pixelFormat != .rgba16, source.count == 1 {
                let fits = a.pixels.withUnsafeBytes { $0.bindMemory(to: UInt16.self).allSatisfy { $0 >> 8 == $0 & 0xFF } }
                #expect(fits, "\(url.lastPathComponent) lost 16-bit information")
            }
            let da = source.properties(at: i)?.unclampedDuration ?? 0, db = back.properties(at: i)?.unclampedDuration ?? 0
            #expect(source.count == 1 || abs(da - db) < 0.0005 || da > 655.35, "\(url.lastPathComponent) frame \(i) duration")
        }
    }
}
