import CodecCore
import ImageCodecs
@testable import JPEGCodec
import TestSupport
import Testing

/// JPEGs with an ICC profile decoded to sRGB: the same pixels at 1, 2, 3 and 8 threads, whole,
/// as thumbnails and fed in pieces, and the same as the profile's transform applied to the
/// unconverted decode (the row pipeline shares the conversion between its two threads,
/// ``JPEGSharedConversion``; rows of several parts, so the decoding thread can take some).
struct JPEGThreadColorTests {
    static let settings: [JPEGEncoderSettings] = [
        JPEGEncoderSettings(quality: 90),
        JPEGEncoderSettings(quality: 85, lumaSampling: (1, 1)),
        JPEGEncoderSettings(quality: 75, grayscale: true),
        JPEGEncoderSettings(quality: 80, restart: .rows(1)),
        JPEGEncoderSettings(quality: 90, progressive: true),
    ]

    /// kodim01 tiled 4 × 2 (1332 × 354): an MCU row of 4:2:0 is 21,312 pixels, three parts.
    static func encoded(_ settings: JPEGEncoderSettings) throws -> [UInt8] {
        let tile = try JPEGEncoderThreadTests.fixture("kodim01-333x177.ppm")
        let rowBytes = tile.width * 3
        var samples: [UInt8] = []
        for _ in 0..<2 {
            for y in 0..<tile.height {
                let row = tile.samples[(y * rowBytes)..<((y + 1) * rowBytes)]
                for _ in 0..<4 { samples += row }
            }
        }
        let image = PNMImage(width: tile.width * 4, height: tile.height * 2, components: 3, samples: samples)
        let profile = try Corpus.bytes(Corpus.conformance.appendingPathComponent("fixtures/color/p3.icc"))
        return try encodeJPEG(image, settings, metadata: JPEGEncoderMetadata(icc: profile))
    }

    static func options(_ threads: Int) -> DecodingOptions {
        var options = JPEGThreads.options(threads)
        options.colorSpace = .sRGB
        return options
    }

    @Test(arguments: settings)
    func sameForEveryThreadCount(_ settings: JPEGEncoderSettings) throws {
        let bytes = try Self.encoded(settings)
        let original = try ImageSource(bytes: bytes, options: JPEGThreads.options(1)).image(at: 0)
        let profile = try #require(ImageSource(bytes: bytes).properties?.iccProfile)
        let transform = try ColorTransform.cached(profile: profile).get()
        var expected = Raster(width: original.width, height: original.height, bytesPerPixel: 4, pixels: original.pixels)
        transform.apply(to: &expected)
        let thumbnail = try ImageSource(bytes: bytes, options: Self.options(1)).thumbnail(at: 0, maxPixelSize: 100).pixels
        for threads in JPEGThreads.counts {
            let converted = try ImageSource(bytes: bytes, options: Self.options(threads)).image(at: 0)
            #expect(converted.pixels == expected.pixels, "\(settings) threads \(threads)")
            let small = try ImageSource(bytes: bytes, options: Self.options(threads)).thumbnail(at: 0, maxPixelSize: 100)
            #expect(small.pixels == thumbnail, "\(settings) thumbnail, threads \(threads)")
        }
        let one = Decoding.whole(bytes, options: Self.options(1))
        let sizes = Decoding.randomSizes(count: 8, max: 30000, seed: 12)
        #expect(Decoding.chunked(bytes, sizes: sizes, options: Self.options(3)).result == one, "\(settings) fed, threads 3")
    }
}

/// CMYK JPEGs with a profile (the row pipeline shares the ink conversion too): the same
/// pixels at 1, 2, 3 and 8 threads, whole and as thumbnails.
struct JPEGThreadInkTests {
    @Test(arguments: ["cmyk-v4-xyz.jpg", "cmyk-v2-lab.jpg"])
    func sameForEveryThreadCount(_ name: String) throws {
        let bytes = try Corpus.bytes(Corpus.conformance.appendingPathComponent("fixtures/color/\(name)"))
        let one = try ImageSource(bytes: bytes, options: JPEGThreadColorTests.options(1)).image(at: 0).pixels
        let thumbnail = try ImageSource(bytes: bytes, options: JPEGThreadColorTests.options(1)).thumbnail(at: 0, maxPixelSize: 50).pixels
        for threads in JPEGThreads.counts.dropFirst() {
            let options = JPEGThreadColorTests.options(threads)
            #expect(try ImageSource(bytes: bytes, options: options).image(at: 0).pixels == one, "\(name) threads \(threads)")
            #expect(try ImageSource(bytes: bytes, options: options).thumbnail(at: 0, maxPixelSize: 50).pixels == thumbnail,
                    "\(name) thumbnail, threads \(threads)")
        }
    }
}
