import Foundation
import ImageCodecs
import TestSupport
import Testing
@testable import GIFCodec

/// Truecolour frames: the quantizer's error is bounded, dithering keeps the mean colour of
/// flat areas, and the nearest-colour search agrees with a brute-force search.
struct GIFQuantizerTests {
    /// A photo-like test image: smooth gradients, a few hard edges, mild noise.
    static func photo(width: Int, height: Int, seed: UInt64) -> [UInt8] {
        var rng = SplitMix(seed: seed)
        var out: [UInt8] = []
        for y in 0..<height {
            for x in 0..<width {
                let edge = (x - width / 3) * (x - width / 3) + (y - height / 2) * (y - height / 2) < width * width / 16
                var r = Double(x) / Double(width) * 200 + (edge ? 40 : 0)
                var g = Double(y) / Double(height) * 180 + 30
                var b = 128 + 100 * ((Double(x + y) / 23).truncatingRemainder(dividingBy: 1) - 0.5) * (edge ? 0 : 1)
                r += Double(Int.random(in: -4...4, using: &rng))
                g += Double(Int.random(in: -4...4, using: &rng))
                b += Double(Int.random(in: -4...4, using: &rng))
                out += [r, g, b].map { UInt8(min(255, max(0, $0.rounded()))) } + [255]
            }
        }
        return out
    }


    /// Without dithering every pixel is its nearest palette entry: the PSNR of a 96×96 photo-like
    /// image with ~9000 colours stays above 33 dB (34.2 dB measured when written), and dithering
    /// costs at most 3 dB of it.
    @Test func truecolourErrorIsBounded() throws {
        let (w, h) = (96, 96)
        let pixels = Self.photo(width: w, height: h, seed: 3)
        var plain = EncodingOptions()
        plain.dithering = false
        let flat = try GIFEncoderTests.decode(GIFEncoderTests.encode([pixels], width: w, height: h, options: plain))[0]
        let dithered = try GIFEncoderTests.decode(GIFEncoderTests.encode([pixels], width: w, height: h))[0]
        let p0 = ImageMetrics.psnr(pixels, flat), p1 = ImageMetrics.psnr(pixels, dithered)
        #expect(p0 > 33, "no dither: \(p0) dB")
        #expect(p1 > p0 - 3, "dither: \(p1) dB")
    }

    /// In a truecolour animation, pixels whose input did not change keep their colour: a still
    /// background does not flicker between frames quantized with different palettes.
    @Test func stillBackgroundStaysStill() throws {
        let (w, h) = (64, 48)
        var frames = [Self.photo(width: w, height: h, seed: 1)]
        for f in 1..<4 {
            var next = frames[0]
            for y in 10..<20 {
                for x in (f * 8)..<(f * 8 + 12) { next.replaceSubrange(((y * w + x) * 4)..<((y * w + x) * 4 + 3), with: [255, UInt8(f * 60), 0]) }
            }
            frames.append(next)
        }
        let decoded = try GIFEncoderTests.decode(GIFEncoderTests.encode(frames, width: w, height: h))
        #expect(decoded.count == 4)
        for f in 1..<4 {
            for y in 30..<h {
                let row = (y * w * 4)..<((y + 1) * w * 4)
                #expect(decoded[f][row] == decoded[0][row], "frame \(f) row \(y)")
            }
            #expect(ImageMetrics.psnr(frames[f], decoded[f]) > 30)
        }
    }

    @Test func nearestColourMatchesBruteForce() {
        var rng = SplitMix(seed: 11)
        for count in [1, 2, 17, 255, 256] {
            let palette = (0..<count).map { _ in UInt32.random(in: 0...0xFF_FFFF, using: &rng) | 0xFF00_0000 }
            var search = GIFNearestColor(palette: palette)
            for _ in 0..<2000 {
                let (r, g, b) = (Int32.random(in: 0...255, using: &rng), Int32.random(in: 0...255, using: &rng),
                                 Int32.random(in: 0...255, using: &rng))
                func distance(_ c: UInt32) -> Int32 {
                    let dr = Int32(c & 0xFF) - r, dg = Int32((c >> 8) & 0xFF) - g, db = Int32((c >> 16) & 0xFF) - b
                    return dr * dr + dg * dg + db * db
                }
                let best = palette.map(distance).min() ?? 0
                #expect(distance(palette[search.nearest(r, g, b)]) == best)
            }
        }
    }
}
