import CodecCore
import ImageCodecs
import Testing
@testable import WebPCodec

/// Animated lossless WebP: frames cropped to what changed, blended or not, the previous frame
/// disposed or not; our decoder must give back every frame, the durations and the loop count.
struct WebPAnimationEncoderTests {
    /// A sprite moving over a background, with a transparent hole that appears and goes.
    static func frames(width: Int, height: Int, count: Int) -> [[UInt8]] {
        let background = WebPEncoderTests.image(.smooth, width: width, height: height, seed: 2)
        return (0..<count).map { f in
            var pixels = background
            for y in 0..<height {
                for x in 0..<width {
                    let i = (y * width + x) * 4
                    if x >= f * 3 && x < f * 3 + 7 && y >= f && y < f + 5 {
                        pixels[i] = 255; pixels[i + 1] = UInt8(f * 20); pixels[i + 2] = 0; pixels[i + 3] = 255
                    }
                    if f % 2 == 1 && x > width / 2 && y > height / 2 { pixels[i + 3] = 0 }
                    if f == 3 && x < 4 { pixels[i + 3] = 128 }
                }
            }
            return pixels
        }
    }

    @Test(arguments: [0, 3, 5, 9])
    func framesRoundTrip(_ effort: Int) throws {
        let (width, height) = (33, 21)
        let frames = Self.frames(width: width, height: height, count: 6)
        var options = WebPEncoderTests.options(effort: effort)
        options.loopCount = 3
        let durations: [Duration] = (0..<6).map { .milliseconds(40 + $0 * 10) }
        let bytes = try WebPEncoderTests.encode(frames, width: width, height: height, options: options, durations: durations)
        let source = ImageSource(bytes: bytes)
        #expect(source.count == 6)
        #expect(source.properties?.loopCount == 3)
        for i in 0..<6 {
            let decoded = try source.image(at: i).rgba8Raster().pixels
            #expect(WebPEncoderTests.canonical(decoded) == WebPEncoderTests.canonical(frames[i]), "frame \(i)")
            #expect(source.properties(at: i)?.unclampedDuration == Double(40 + i * 10) / 1000)
        }
    }

    /// A frame equal to the one before is not written: its time goes to the one before.
    @Test func repeatedFramesMerge() throws {
        let frames = Self.frames(width: 16, height: 16, count: 2)
        let bytes = try WebPEncoderTests.encode([frames[0], frames[0], frames[1]], width: 16, height: 16,
                                                durations: [.milliseconds(100), .milliseconds(50), .milliseconds(70)])
        let source = ImageSource(bytes: bytes)
        #expect(source.count == 2)
        #expect(source.properties(at: 0)?.unclampedDuration == 0.15)
        #expect(WebPEncoderTests.canonical(try source.image(at: 1).rgba8Raster().pixels) == WebPEncoderTests.canonical(frames[1]))
    }

    /// Frames are cropped: a small change makes a small frame at an even offset.
    @Test func changedRectangleIsCropped() throws {
        var a = [UInt8](repeating: 255, count: 64 * 64 * 4)
        let first = a
        for y in 31..<34 { for x in 41..<44 { a[(y * 64 + x) * 4] = 0 } }
        let bytes = try WebPEncoderTests.encode([first, a], width: 64, height: 64)
        let source = ImageSource(bytes: bytes)
        let frame = try #require(source.properties(at: 1))
        #expect(frame.x == 40 && frame.y == 30 && frame.width == 4 && frame.height == 4)
        #expect(try source.image(at: 1).rgba8Raster().pixels == a)
    }
}
