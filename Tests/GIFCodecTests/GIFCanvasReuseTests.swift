@testable import GIFCodec
@testable import PNGCodec
import ImageCodecs
import TestSupport
import Testing

/// Feeding a file in chunks allocates (and clears) the canvas once, not once per append: the
/// cost of incremental decoding stays that of a whole decode.
struct CanvasReuseTests {
    static func feed(_ decoder: some ImageDecoding, _ bytes: [UInt8], chunk: Int) throws {
        var input = InputBuffer()
        for start in stride(from: 0, to: bytes.count, by: chunk) {
            input.append(bytes[start..<min(bytes.count, start + chunk)])
            if start + chunk >= bytes.count { input.markFinal() }
            try decoder.advance(input)
        }
    }

    static var options: DecodingOptions {
        var options = DecodingOptions()
        options.decodesImmediately = true
        return options
    }

    /// A large single frame and an animation, both fed in small chunks and decoded as they arrive.
    @Test func gifCanvasIsAllocatedOnce() throws {
        var still = GIFBuilder(width: 300, height: 200, globalTable: [[0, 0, 0], [255, 255, 255], [255, 0, 0], [0, 255, 0]])
        still.image(x: 0, y: 0, width: 300, height: 200,
                    indices: (0..<60_000).map { UInt8(($0 / 7 + $0 / 300) % 4) }, minimumCodeSize: 2)
        still.trailer()
        let decoder = GIFDecoder(options: Self.options)
        try Self.feed(decoder, still.bytes, chunk: 97)
        #expect(decoder.canvas?.canvasAllocations == 1)
        #expect(decoder.canvas?.composedIndex == 0)

        let animated = try Corpus.bytes(Corpus.conformance.appendingPathComponent("fixtures/gif/im-layers-optimize-40x30.gif"))
        let taken = GIFDecoder(options: Self.options)
        var input = InputBuffer()
        var hashed = 0
        for start in stride(from: 0, to: animated.count, by: 61) {
            input.append(animated[start..<min(animated.count, start + 61)])
            if start + 61 >= animated.count { input.markFinal() }
            try taken.advance(input)
            while hashed < taken.frameCount && taken.isFrameComplete(at: hashed) {
                _ = try taken.rendered(at: hashed, input: input)
                hashed += 1
            }
        }
        #expect(hashed == taken.frameCount && hashed > 2)
        #expect(taken.canvas?.canvasAllocations == 1)
    }

    @Test func apngCanvasIsAllocatedOnce() throws {
        let bytes = try Corpus.bytes(Corpus.conformance.appendingPathComponent("fixtures/apng/asm-large-200x150.png"))
        let decoder = PNGDecoder(options: Self.options)
        try Self.feed(decoder, bytes, chunk: 113)
        #expect(decoder.frameCount > 1)
        #expect(decoder.canvas?.canvasAllocations == 1)
    }
}
