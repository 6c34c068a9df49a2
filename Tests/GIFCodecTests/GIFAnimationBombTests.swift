import ImageCodecs
import Testing

/// A few kilobytes that declare hundreds of frames on a huge canvas: showing every frame would
/// cost canvas × frames pixel writes. ``Limits/maxAnimationPixels`` refuses the file as its frames
/// become known, before any is decoded.
struct GIFAnimationBombTests {
    /// 200 one-pixel images on a 16384 × 16384 screen (4.3 billion canvas pixels per 16 frames).
    static func bomb(frames: Int) -> [UInt8] {
        var gif = GIFBuilder(width: 16384, height: 16384, globalTable: [[0, 0, 0], [255, 255, 255]])
        gif.loop(0)
        for i in 0..<frames {
            gif.graphicControl(disposal: 1, delay: 2)
            gif.image(x: i % 16384, y: 0, width: 1, height: 1, indices: [1], minimumCodeSize: 2)
        }
        gif.trailer()
        return gif.bytes
    }

    @Test func animationBombIsRefusedBeforeDecoding() throws {
        let bytes = Self.bomb(frames: 200)
        #expect(bytes.count < 6_000)
        let source = ImageSource(bytes: bytes)
        #expect(source.status == .invalidData)
        #expect(source.error?.kind == .limitExceeded)
        #expect(throws: DecodingError.self) { try source.image(at: 0) }
    }

    @Test func theLimitIsTheProductOfCanvasAndFrames() throws {
        let bytes = Self.bomb(frames: 16)
        #expect(ImageSource(bytes: bytes).status == .complete, "16 × 16384² is exactly 2^32")
        var options = DecodingOptions()
        options.limits.maxAnimationPixels = 16384 * 16384 * 15
        #expect(ImageSource(bytes: bytes, options: options).error?.kind == .limitExceeded)
    }
}
