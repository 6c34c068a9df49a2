@testable import JPEGCodec
import TestSupport
import Testing

/// A baseline encode whose Huffman coding (and the DCT of every component but the first) runs
/// on a second thread writes the same bytes as one thread, whatever the settings, the image's
/// size and how rows are handed over.
struct JPEGEncoderThreadTests {
    static func fixture(_ name: String) throws -> PNMImage {
        try #require(PNMImage(try Corpus.bytes(Corpus.conformance.appendingPathComponent("fixtures/jpeg-encoder/\(name)"))))
    }

    static let settings: [JPEGEncoderSettings] = [
        JPEGEncoderSettings(),
        JPEGEncoderSettings(quality: 90, lumaSampling: (1, 1)),
        JPEGEncoderSettings(quality: 30, lumaSampling: (2, 1), restart: .rows(1)),
        JPEGEncoderSettings(quality: 95, lumaSampling: (1, 2), restart: .mcus(5)),
        JPEGEncoderSettings(quality: 50, lumaSampling: (4, 2)),
        JPEGEncoderSettings(quality: 75, grayscale: true, restart: .mcus(7)),
        JPEGEncoderSettings(quality: 80, optimizeHuffman: true),
        JPEGEncoderSettings(quality: 80, progressive: true),
    ]

    @Test(arguments: ["kodim01-333x177.ppm", "kodim05-767x31.ppm", "kodim23-57x61.pgm", "noise-1x1.ppm", "gradient-9x40.ppm"])
    func threadedIsTheSameBytes(name: String) throws {
        let image = try Self.fixture(name)
        for settings in Self.settings {
            let one = try encodeJPEG(image, settings, maxThreads: 1)
            for (threads, band) in [(2, 7), (2, 1), (4, image.height)] {
                let threaded = try encodeJPEG(image, settings, band: band, maxThreads: threads)
                #expect(threaded == one, "\(name) \(settings) threads \(threads) band \(band)")
            }
        }
    }

    /// An encode dropped before its rows are all in ends its thread (no hang, no leak of work).
    @Test func droppedEncodeEnds() throws {
        let image = try Self.fixture("kodim01-333x177.ppm")
        for _ in 0..<20 {
            var encoder = try JPEGEncoder(width: image.width, height: image.height, components: 3, maxThreads: 2)
            try image.samples.withUnsafeBufferPointer { p in
                try encoder.write(rows: UnsafeBufferPointer(rebasing: p[0..<(image.width * 3 * 40)]))
            }
            #expect(!encoder.takeOutput().isEmpty)
        }
    }
}
