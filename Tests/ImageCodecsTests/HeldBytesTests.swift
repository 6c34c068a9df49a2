import ImageCodecs
import Testing

/// `Limits.maxBytesHeld` bounds the sum of what a source holds (SPEC-NOTES.md, "Limits"): each
/// buffer fitting alone is not enough, and a file that declares a huge image with a few bytes of
/// data is refused before anything is allocated.
struct HeldBytesTests {
    static func image(_ w: Int, _ h: Int, seed: Int = 0) -> DecodedImage {
        var pixels: [UInt8] = []
        pixels.reserveCapacity(w * h * 4)
        for i in 0..<(w * h) {
            pixels += [UInt8(truncatingIfNeeded: i &* 7 &+ seed), UInt8(truncatingIfNeeded: i / w &* 3), 90, 255]
        }
        return DecodedImage(width: w, height: h, pixelFormat: .rgba8, isPremultiplied: false, pixels: pixels, finalRowCount: h)
    }

    static func progressiveJPEG(_ w: Int, _ h: Int) throws -> [UInt8] {
        var options = EncodingOptions()
        options.progressive = true
        let destination = try ImageDestination(format: .jpeg, options: options)
        try destination.add(image(w, h))
        return try destination.finalize()
    }

    /// The JPEG with its frame header's size replaced (SOF2: P, Y, X after the length).
    static func declaring(_ w: Int, _ h: Int, in jpeg: [UInt8]) throws -> [UInt8] {
        var bytes = jpeg
        var i = 2
        while i + 9 < bytes.count, bytes[i] == 0xFF {
            let length = Int(bytes[i + 2]) << 8 | Int(bytes[i + 3])
            if bytes[i + 1] == 0xC2 {
                bytes[i + 5] = UInt8(h >> 8); bytes[i + 6] = UInt8(h & 0xFF)
                bytes[i + 7] = UInt8(w >> 8); bytes[i + 8] = UInt8(w & 0xFF)
                return bytes
            }
            i += 2 + length
        }
        throw DecodingError.invalidData("no SOF2 in the encoded file")
    }

    /// 16384 × 16384 with 4:2:0 coefficients: 1 GiB of RGBA and 768 MiB of coefficients, each
    /// within the old per-buffer check, together past the default limit.
    @Test func tinyProgressiveFileDeclaringAHugeImageIsRefused() throws {
        let small = try Self.progressiveJPEG(16, 16)
        let hostile = try Self.declaring(16384, 16384, in: small)
        #expect(hostile.count < 1000)
        let source = ImageSource(bytes: hostile)
        #expect(source.properties?.width == 16384)
        #expect(throws: DecodingError.limitExceeded("JPEG image and coefficient buffers exceed Limits.maxBytesHeld")) {
            try source.image(at: 0)
        }
    }

    /// 512 × 512 progressive 4:2:0: 1 MiB of RGBA and 768 KiB of coefficients (4,096 luma and
    /// 2 × 1,024 chroma blocks of 128 bytes). A limit above each but below the sum refuses the
    /// image.
    @Test func outputAndCoefficientsCountTogether() throws {
        let jpeg = try Self.progressiveJPEG(512, 512)
        var options = DecodingOptions()
        options.limits.maxBytesHeld = (1 << 20) + (512 << 10)
        #expect(throws: DecodingError.self) { try ImageSource(bytes: jpeg, options: options).image(at: 0) }
        options.limits.maxBytesHeld = (1 << 20) + (768 << 10)
        #expect(try ImageSource(bytes: jpeg, options: options).image(at: 0).isComplete)
    }

    /// An APNG composes each frame's raster onto the canvas: both are held while a frame is
    /// drawn. A limit that admits the canvas alone refuses the frames (each frame's own error),
    /// and one that admits them all (with a rectangle saved for a `previous` disposal) decodes them.
    @Test func canvasAndFrameCountTogether() throws {
        let destination = try ImageDestination(format: .png)
        for seed in 0..<3 { try destination.add(Self.image(256, 256, seed: seed * 50), duration: .milliseconds(100)) }
        let apng = try destination.finalize()
        let canvas = 256 * 256 * 4
        var options = DecodingOptions()
        options.limits.maxBytesHeld = canvas + canvas / 2
        let tight = ImageSource(bytes: apng, options: options)
        #expect(tight.count == 3)
        #expect(throws: DecodingError.self) { try tight.image(at: 1) }
        options.limits.maxBytesHeld = 4 * canvas
        #expect(try ImageSource(bytes: apng, options: options).image(at: 2).isComplete)
    }
}
