import ImageCodecs
import TestSupport
import Testing
@testable import GIFCodec

/// The GIF encoder through ``ImageDestination``: files decoded by our decoder give back the
/// frames (exactly for ≤ 256 colours), and odd requests are errors or valid files.
struct GIFEncoderTests {
    /// Encodes RGBA8 frames of `width × height` as a GIF.
    static func encode(_ frames: [[UInt8]], width: Int, height: Int, delays: [Duration]? = nil,
                       options: EncodingOptions = .init()) throws(EncodingError) -> [UInt8] {
        let destination = try ImageDestination(format: .gif, options: options)
        for (i, pixels) in frames.enumerated() {
            let raster = Raster(width: width, height: height, bytesPerPixel: 4, pixels: pixels)
            try destination.add(EncodingFrame(raster: raster, duration: delays?[i] ?? .milliseconds(100)))
        }
        return try destination.finalize()
    }

    /// Every frame our decoder gives for `bytes`, as RGBA8.
    static func decode(_ bytes: [UInt8]) throws -> [[UInt8]] {
        let source = ImageSource(bytes: bytes)
        #expect(source.status == .complete)
        return try (0..<source.count).map { try source.image(at: $0).rgba8Raster().pixels }
    }

    /// What a GIF can hold of `pixels`: alpha below 128 transparent black, the rest opaque.
    static func thresholded(_ pixels: [UInt8]) -> [UInt8] {
        var out = pixels
        for i in stride(from: 0, to: out.count, by: 4) {
            if out[i + 3] < 128 {
                out[i] = 0; out[i + 1] = 0; out[i + 2] = 0; out[i + 3] = 0
            } else {
                out[i + 3] = 255
            }
        }
        return out
    }

    static func randomPalette(_ count: Int, rng: inout SplitMix) -> [[UInt8]] {
        (0..<count).map { _ in [UInt8.random(in: 0...255, using: &rng), UInt8.random(in: 0...255, using: &rng),
                                UInt8.random(in: 0...255, using: &rng)] }
    }

    @Test(arguments: [(1, 1, 1), (17, 9, 2), (40, 31, 200), (64, 64, 256), (33, 20, 255)])
    func paletteStillsRoundTripExactly(_ width: Int, _ height: Int, _ colors: Int) throws {
        var rng = SplitMix(seed: UInt64(width * 1000 + colors))
        let palette = Self.randomPalette(colors, rng: &rng)
        var pixels: [UInt8] = []
        for i in 0..<(width * height) {
            let c = palette[(i / 3 + Int.random(in: 0...1, using: &rng)) % colors]
            pixels += c + [255]
        }
        let bytes = try Self.encode([pixels], width: width, height: height)
        #expect(try Self.decode(bytes) == [pixels], "\(width)x\(height) \(colors) colours")
    }

    /// `interlace`: rows in Appendix E order, same pixels.
    @Test func interlacedFrames() throws {
        var rng = SplitMix(seed: 21)
        let palette = Self.randomPalette(40, rng: &rng)
        let (w, h) = (13, 19)
        let frames: [[UInt8]] = (0..<3).map { (f: Int) -> [UInt8] in
            var pixels: [UInt8] = []
            for i in 0..<(w * h) { pixels += palette[(i * (f + 1) / 5) % 40] + [255] }
            return pixels
        }
        var options = EncodingOptions()
        options.interlace = true
        let bytes = try Self.encode(frames, width: w, height: h, options: options)
        let source = ImageSource(bytes: bytes)
        #expect(source.properties?.isInterlaced == true)
        #expect(try Self.decode(bytes) == frames)
    }

    /// Transparency: alpha < 128 becomes the transparent index, whatever the colour under it.
    @Test func alphaThreshold() throws {
        let pixels: [UInt8] = [10, 20, 30, 255, 99, 99, 99, 127, 40, 50, 60, 128, 1, 2, 3, 0]
        let bytes = try Self.encode([pixels], width: 2, height: 2)
        #expect(try Self.decode(bytes) == [[10, 20, 30, 255, 0, 0, 0, 0, 40, 50, 60, 255, 0, 0, 0, 0]])
    }

    /// Re-encoding generated animations (every disposal, local tables, transparency) gives the
    /// same composited frames.
    @Test(arguments: 0..<40)
    func generatedAnimationsRoundTrip(_ seed: Int) throws {
        let model = GIFModel.random(seed: UInt64(seed) &+ 7, frames: 1 + seed % 6)
        let source = ImageSource(bytes: model.bytes)
        let expected = try Self.decode(model.bytes)
        let destination = try ImageDestination(format: .gif)
        try destination.add(contentsOf: source)
        let bytes = try destination.finalize()
        #expect(try Self.decode(bytes) == expected, "seed \(seed)")
    }

    /// Frames of few colours each but more than 256 together: local tables, still exact.
    @Test func localTablesWhenFramesDoNotShareOne() throws {
        var rng = SplitMix(seed: 5)
        let (w, h) = (24, 20)
        var frames: [[UInt8]] = []
        for f in 0..<4 {
            let palette = Self.randomPalette(100, rng: &rng)
            var pixels = frames.last ?? [UInt8](repeating: 0, count: w * h * 4)
            for y in (f * 3)..<(f * 3 + 8) {
                for x in 0..<(w - f) {
                    let c = palette[(x * y + f) % 100] + [255]
                    pixels.replaceSubrange(((y * w + x) * 4)..<((y * w + x) * 4 + 4), with: c)
                }
            }
            frames.append(pixels)
        }
        let bytes = try Self.encode(frames, width: w, height: h)
        #expect(try Self.decode(bytes) == frames)
    }

    /// 256 colours in all and a frame that needs a transparent index: the global table stays
    /// 256 entries and the frame takes an entry it does not draw as its transparent index.
    @Test func fullGlobalTableLendsTransparentIndex() throws {
        let (w, h) = (16, 16)
        let first: [UInt8] = (0..<(w * h)).flatMap { i -> [UInt8] in [UInt8(i), UInt8(255 - i), UInt8(i / 3), 255] }
        var second = first
        for i in [3, 4, 5, 40] { second.replaceSubrange((i * 4)..<(i * 4 + 4), with: first[(i * 4 + 4)..<(i * 4 + 8)]) }
        second.replaceSubrange(200..<204, with: [0, 0, 0, 0])
        let bytes = try Self.encode([first, second, first], width: w, height: h)
        #expect(try Self.decode(bytes) == [first, second, first])
        #expect(bytes.count < 13 + 768 * 2, "one 256-entry table, no local one: \(bytes.count) bytes")
    }

    /// Pixels that turn transparent need the previous frame cleared ("restore to background").
    @Test func pixelsTurningTransparent() throws {
        let (w, h) = (8, 8)
        let red: [UInt8] = [255, 0, 0, 255], blue: [UInt8] = [0, 0, 255, 255], clear: [UInt8] = [0, 0, 0, 0]
        let full = Array([[UInt8]](repeating: red, count: w * h).joined())
        var hole = full
        for i in [9, 10, 17, 18, 63] { hole.replaceSubrange((i * 4)..<(i * 4 + 4), with: clear) }
        var moved = hole
        moved.replaceSubrange(0..<4, with: blue)
        let empty = Array([[UInt8]](repeating: clear, count: w * h).joined())
        let frames = [full, hole, moved, empty, full, empty]
        let bytes = try Self.encode(frames, width: w, height: h)
        #expect(try Self.decode(bytes) == frames)
    }

    @Test func loopCountAndDelays() throws {
        let pixels: [[UInt8]] = [[1, 2, 3, 255], [4, 5, 6, 255], [7, 8, 9, 255], [1, 2, 3, 255]]
        let delays: [Duration] = [.zero, .milliseconds(104), .milliseconds(105), .seconds(655.35)]
        for loop in [0, 3, 65535] {
            var options = EncodingOptions()
            options.loopCount = loop
            let bytes = try Self.encode(pixels, width: 1, height: 1, delays: delays, options: options)
            let source = ImageSource(bytes: bytes)
            #expect(source.properties?.loopCount == loop)
            #expect((0..<4).map { source.properties(at: $0)?.unclampedDuration } == [0, 0.10, 0.11, 655.35])
        }
        #expect(try GIFEncoder.centiseconds(.seconds(1000)) == 65535)
        #expect(try GIFEncoder.centiseconds(.milliseconds(14)) == 1)
        #expect(try GIFEncoder.centiseconds(.milliseconds(15)) == 2)
        #expect(throws: EncodingError.self) { try GIFEncoder.centiseconds(.milliseconds(-10)) }
    }

    /// Sizes at the edges are valid files; sizes past 65535 and frames of other sizes are errors.
    @Test func oddRequests() throws {
        for (w, h) in [(1, 1), (1, 65535), (16384, 1), (65535, 1)] {
            var pixels = [UInt8](repeating: 255, count: w * h * 4)
            for i in 0..<(w * h) {
                pixels[i * 4] = UInt8(i % 7 * 30)
                pixels[i * 4 + 1] = UInt8(i % 3 * 80)
            }
            let bytes = try Self.encode([pixels, pixels], width: w, height: h)
            #expect(try Self.decode(bytes) == [pixels, pixels], "\(w)x\(h)")
        }
        let wide = [UInt8](repeating: 255, count: 65536 * 4)
        #expect(throws: EncodingError.self) { try Self.encode([wide], width: 65536, height: 1) }
        let destination = try ImageDestination(format: .gif)
        try destination.add(EncodingFrame(raster: Raster(width: 2, height: 2, bytesPerPixel: 4)))
        #expect(throws: EncodingError.self) {
            try destination.add(EncodingFrame(raster: Raster(width: 3, height: 2, bytesPerPixel: 4)))
        }
        #expect(throws: EncodingError.self) { try ImageDestination(format: .gif).finalize() }
        // The encoder on its own, driven out of order or with a frame of another size.
        var sink = ByteArraySink()
        var encoder = GIFEncoder(options: .init())
        let frame = try EncodingFrame(raster: Raster(width: 2, height: 2, bytesPerPixel: 4))
        #expect(throws: EncodingError.self) { try encoder.add(frame, to: &sink) }
        #expect(throws: EncodingError.self) { try encoder.finish(to: &sink) }
        try encoder.begin(EncodingCanvas(width: 3, height: 2, frameCount: 1), to: &sink)
        #expect(throws: EncodingError.self) { try encoder.add(frame, to: &sink) }
        #expect(throws: EncodingError.self) { try encoder.finish(to: &sink) }
        var one = GIFEncoder(options: .init())
        try one.begin(EncodingCanvas(width: 2, height: 2, frameCount: 1), to: &sink)
        try one.add(frame, to: &sink)
        #expect(throws: EncodingError.self) { try one.add(frame, to: &sink) }
        #expect(throws: EncodingError.self) {
            var e = GIFEncoder(options: .init())
            try e.begin(EncodingCanvas(width: 1, height: 1, frameCount: 1, loopCount: 70000), to: &sink)
        }
    }

    /// 16-bit frames are narrowed as the decoders narrow them.
    @Test func sixteenBitFrames() throws {
        let wide: [UInt16] = [0x1234, 0xFFFF, 0x0080, 0xFFFF, 0, 0, 0, 0x7000]
        let bytes = wide.flatMap { v in withUnsafeBytes(of: v) { Array($0) } }
        let destination = try ImageDestination(format: .gif)
        try destination.add(EncodingFrame(raster: Raster(width: 2, height: 1, bytesPerPixel: 8, pixels: bytes)))
        let decoded = try Self.decode(try destination.finalize())
        #expect(decoded == [Self.thresholded(PixelConversion.narrowRGBA16(bytes))])
    }
}
