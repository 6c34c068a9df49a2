import ImageCodecs
import Testing

/// ImageDestination: bad requests are typed errors, transcoding carries frames, durations, loop
/// count and metadata, options shape the output, and a third-party encoder plugs in.
struct ImageDestinationTests {
    static func image(_ w: Int, _ h: Int, seed: UInt8 = 0) -> DecodedImage {
        var pixels: [UInt8] = []
        for i in 0..<(w * h) { pixels += [UInt8(truncatingIfNeeded: i &* 7 &+ Int(seed)), seed, 9, 255] }
        return DecodedImage(width: w, height: h, pixelFormat: .rgba8, isPremultiplied: false, pixels: pixels, finalRowCount: h)
    }

    @Test func badRequestsAreErrors() throws {
        var options = EncodingOptions()
        options.quality = 1.5
        #expect(throws: EncodingError.invalidRequest("quality must be within 0...1")) { try ImageDestination(format: .png, options: options) }
        options = EncodingOptions()
        options.effort = 10
        #expect(throws: EncodingError.self) { try ImageDestination(format: .png, options: options) }
        options = EncodingOptions()
        options.maxPixelSize = 0
        #expect(throws: EncodingError.self) { try ImageDestination(format: .png, options: options) }
        #expect(throws: EncodingError.self) { try ImageDestination(format: ImageFormat(rawValue: "bmp")) }

        let empty = try ImageDestination(format: .png)
        #expect(throws: EncodingError.invalidRequest("no frames were added")) { try empty.finalize() }

        let mixed = try ImageDestination(format: .png)
        try mixed.add(Self.image(4, 3))
        #expect(throws: EncodingError.invalidRequest("frames of an animation must have one size")) { try mixed.add(Self.image(3, 4)) }

        let zero = try ImageDestination(format: .png)
        let hollow = DecodedImage(width: 0, height: 5, pixelFormat: .rgba8, isPremultiplied: false, pixels: [], finalRowCount: 5)
        #expect(throws: EncodingError.self) { try zero.add(hollow) }
        let short = DecodedImage(width: 4, height: 4, pixelFormat: .rgba8, isPremultiplied: false, pixels: [1, 2], finalRowCount: 4)
        #expect(throws: EncodingError.self) { try zero.add(short) }

        let once = try ImageDestination(format: .png)
        try once.add(Self.image(2, 2))
        _ = try once.finalize()
        #expect(throws: EncodingError.self) { try once.finalize() }
        #expect(throws: EncodingError.self) { try once.add(Self.image(2, 2)) }
    }

    @Test func transcodingCarriesFramesDurationsLoopAndMetadata() throws {
        var options = EncodingOptions()
        options.loopCount = 7
        options.metadata.iccProfile = [1, 2, 3, 4]
        let first = try ImageDestination(format: .png, options: options)
        let frames = (0..<4).map { Self.image(6, 5, seed: UInt8($0 * 40)) }
        let durations: [Duration] = [.zero, .milliseconds(655_350), .milliseconds(20), .milliseconds(1)]
        for (f, d) in zip(frames, durations) { try first.add(f, duration: d) }
        let apng = ImageSource(bytes: try first.finalize())
        #expect(apng.count == 4 && apng.properties?.loopCount == 7 && apng.properties?.iccProfile == [1, 2, 3, 4])

        let second = try ImageDestination(format: .png)
        try second.add(contentsOf: apng)
        let copy = ImageSource(bytes: try second.finalize())
        #expect(copy.count == 4)
        #expect(copy.properties?.loopCount == 7)
        #expect(copy.properties?.iccProfile == [1, 2, 3, 4])
        for i in 0..<4 {
            #expect(try copy.image(at: i).pixels == frames[i].pixels)
            #expect(copy.properties(at: i)?.unclampedDuration == apng.properties(at: i)?.unclampedDuration)
        }
        #expect(copy.properties(at: 1)?.unclampedDuration == 655.35)
    }

    @Test func optionsShapeTheOutput() throws {
        let frames = (0..<3).map { Self.image(40, 20, seed: UInt8($0)) }
        var options = EncodingOptions()
        options.firstFrameOnly = true
        options.maxPixelSize = 10
        let destination = try ImageDestination(format: .png, options: options)
        for f in frames { try destination.add(f) }
        let source = ImageSource(bytes: try destination.finalize())
        #expect(source.count == 1)
        #expect(source.properties?.width == 10 && source.properties?.height == 5)

        var small = EncodingOptions()
        small.maxFileSize = 1
        let bestEffort = try ImageDestination(format: .png, options: small)
        try bestEffort.add(frames[0])
        let bytes = try bestEffort.finalize()
        #expect(try ImageSource(bytes: bytes).image(at: 0).pixels == frames[0].pixels, "lossless: the best it can, still exact")
    }

    @Test func flatteningBlendsOverTheBackground() {
        var pixels: [UInt8] = [10, 20, 30, 0, 10, 20, 30, 255, 200, 100, 0, 128]
        pixels.withUnsafeMutableBufferPointer { AlphaFlattening.flattenRGBA8($0, over: .white) }
        #expect(pixels == [255, 255, 255, 255, 10, 20, 30, 255, 227, 177, 127, 255])
    }

    /// A third-party coder: a format of its own whose "encoder" writes the frame count, width,
    /// height and the first pixel, registered on a copy of the standard registry.
    struct ToyCoder: ImageCoder {
        var format: ImageFormat { ImageFormat(rawValue: "toy") }
        func sniff(_ prefix: UnsafeBufferPointer<UInt8>) -> SniffResult { .comparing(prefix, with: Array("TOY".utf8)) }
        func makeDecoder(options: DecodingOptions) -> any ImageDecoding { PNGCoder().makeDecoder(options: options) }
        var canEncode: Bool { true }
        func makeEncoder(options: EncodingOptions) throws(EncodingError) -> any ImageEncoding { ToyEncoder() }
    }

    struct DecodeOnlyCoder: ImageCoder {
        var format: ImageFormat { ImageFormat(rawValue: "ro") }
        func sniff(_ prefix: UnsafeBufferPointer<UInt8>) -> SniffResult { .noMatch }
        func makeDecoder(options: DecodingOptions) -> any ImageDecoding { PNGCoder().makeDecoder(options: options) }
    }

    struct ToyEncoder: ImageEncoding {
        var supportsAnimation: Bool { true }
        func begin(_ canvas: EncodingCanvas, to sink: inout some ByteSink) throws(EncodingError) {
            try sink.write(Array("TOY".utf8) + [UInt8(canvas.frameCount), UInt8(canvas.width), UInt8(canvas.height)])
        }
        func add(_ frame: EncodingFrame, to sink: inout some ByteSink) throws(EncodingError) {
            try sink.write(Array(frame.raster().pixels.prefix(4)))
        }
        func finish(to sink: inout some ByteSink) throws(EncodingError) {}
    }

    @Test func aThirdPartyEncoderPlugsIn() throws {
        #expect(throws: EncodingError.self) { try ImageDestination(format: ImageFormat(rawValue: "toy")) }
        var registry = CoderRegistry.standard
        registry.register(ToyCoder())
        let destination = try ImageDestination(format: ImageFormat(rawValue: "toy"), registry: registry)
        try destination.add(Self.image(3, 2, seed: 5))
        try destination.add(Self.image(3, 2, seed: 6))
        #expect(try destination.finalize() == Array("TOY".utf8) + [2, 3, 2, 5, 5, 9, 255, 6, 6, 9, 255])
        // A decoder-only coder (no encoding members) compiles and is not picked for encoding.
        var decodeOnly = CoderRegistry.standard
        decodeOnly.register(DecodeOnlyCoder())
        #expect(throws: EncodingError.unsupported("no encoder for this format")) {
            try ImageDestination(format: ImageFormat(rawValue: "ro"), registry: decodeOnly)
        }
        #expect(throws: EncodingError.self) { try DecodeOnlyCoder().makeEncoder(options: .init()) }
    }
}
