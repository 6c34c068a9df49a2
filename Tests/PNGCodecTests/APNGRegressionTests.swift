import ImageCodecs
import TestSupport
import Testing

/// Findings of the PNG fuzz target (Fuzz/findings/README.md), rebuilt by hand.
struct APNGRegressionTests {
    static func fcTL(_ seq: Int, width: Int, height: Int, blend: UInt8 = 0) -> [UInt8] {
        PNGBuilder.be32(seq) + PNGBuilder.be32(width) + PNGBuilder.be32(height) + PNGBuilder.be32(0) + PNGBuilder.be32(0)
            + [0, 10, 0, 100, 0, blend]
    }

    /// A 1×1 APNG whose frame 1 has a bad filter type and whose later fcTL breaks the animation:
    /// whole, the file falls back to its static image; fed in chunks while frame 1 is decoded
    /// early, it must end the same way (finding 1).
    @Test func brokenFrameBeforeAFallbackIsSplitIndependent() throws {
        var b = PNGBuilder()
        b.chunk("IHDR", PNGBuilder.ihdr(width: 1, height: 1))
        b.chunk("acTL", PNGBuilder.be32(3) + PNGBuilder.be32(0))
        b.chunk("fcTL", Self.fcTL(0, width: 1, height: 1))
        b.chunk("IDAT", PNGBuilder.deflate([0, 10, 20, 30, 255]))
        b.chunk("fcTL", Self.fcTL(1, width: 1, height: 1))
        b.chunk("fdAT", PNGBuilder.be32(2) + PNGBuilder.deflate([5, 1, 2, 3, 4]))
        b.chunk("tEXt", Array("k".utf8) + [0, 0x41])
        b.chunk("fcTL", Self.fcTL(3, width: 2, height: 2))
        b.chunk("IEND", [])
        let whole = Decoding.whole(b.bytes)
        #expect(whole.status == .complete && whole.frames.count == 1)
        var eager = DecodingOptions()
        eager.decodesImmediately = true
        for sizes in [[1], [7], [60, 4096]] {
            #expect(Decoding.chunked(b.bytes, sizes: sizes).result == whole, "\(sizes)")
            #expect(Decoding.chunked(b.bytes, sizes: sizes, options: eager).result == whole, "\(sizes) eager")
        }
    }

    /// Without the fallback, the broken frame throws for itself only; the source stays complete.
    @Test func brokenFrameThrowsForItselfOnly() throws {
        var b = PNGBuilder()
        b.chunk("IHDR", PNGBuilder.ihdr(width: 1, height: 1))
        b.chunk("acTL", PNGBuilder.be32(2) + PNGBuilder.be32(0))
        b.chunk("fcTL", Self.fcTL(0, width: 1, height: 1))
        b.chunk("IDAT", PNGBuilder.deflate([0, 10, 20, 30, 255]))
        b.chunk("fcTL", Self.fcTL(1, width: 1, height: 1))
        b.chunk("fdAT", PNGBuilder.be32(2) + PNGBuilder.deflate([5, 1, 2, 3, 4]))
        b.chunk("IEND", [])
        let source = ImageSource(bytes: b.bytes)
        #expect(throws: DecodingError.invalidData("filter type is above 4")) { try source.image(at: 1) }
        #expect(try source.image(at: 0).pixels == [10, 20, 30, 255])
        #expect(source.status == .complete && source.error == nil)
        #expect(throws: DecodingError.invalidData("filter type is above 4")) { try source.image(at: 1) }
    }

    /// An animation with exactly `maxFrames` frames is within the limit; one more is not (finding 2).
    @Test(arguments: [(100, true), (101, false)])
    func maxFramesIsInclusive(frames: Int, accepted: Bool) {
        var b = PNGBuilder()
        b.chunk("IHDR", PNGBuilder.ihdr(width: 1, height: 1))
        b.chunk("acTL", PNGBuilder.be32(frames) + PNGBuilder.be32(0))
        b.chunk("fcTL", Self.fcTL(0, width: 1, height: 1))
        b.chunk("IDAT", PNGBuilder.deflate([0, 1, 2, 3, 255]))
        var seq = 1
        for _ in 1..<frames {
            b.chunk("fcTL", Self.fcTL(seq, width: 1, height: 1))
            b.chunk("fdAT", PNGBuilder.be32(seq + 1) + PNGBuilder.deflate([0, 4, 5, 6, 255]))
            seq += 2
        }
        b.chunk("IEND", [])
        var options = DecodingOptions()
        options.limits.maxFrames = 100
        let source = ImageSource(bytes: b.bytes, options: options)
        #expect((source.status == .complete) == accepted)
        #expect(source.count == min(frames, 100))
        if !accepted { #expect(source.error?.kind == .limitExceeded) }
    }
}

extension APNGRegressionTests {
    /// A canvas over the pixel limit stops an animation for good, as it does a still image
    /// (fuzz finding 3).
    @Test func canvasOverTheLimitIsSticky() {
        var b = PNGBuilder()
        b.chunk("IHDR", PNGBuilder.ihdr(width: 671_088_768, height: 64))
        b.chunk("acTL", PNGBuilder.be32(2) + PNGBuilder.be32(0))
        b.chunk("IDAT", PNGBuilder.deflate([0, 1, 2, 3, 255]))
        b.chunk("fcTL", Self.fcTL(0, width: 1, height: 1))
        b.chunk("fdAT", PNGBuilder.be32(1) + PNGBuilder.deflate([0, 4, 5, 6, 255]))
        b.chunk("IEND", [])
        let source = ImageSource(bytes: b.bytes)
        #expect(source.count == 1)
        #expect(throws: DecodingError.limitExceeded("pixel count exceeds Limits.maxPixels")) { try source.image(at: 0) }
        #expect(source.status == .invalidData && source.error?.kind == .limitExceeded)
    }
}
