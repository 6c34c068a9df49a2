import CodecCore
import ImageCodecs
import Testing
@testable import WebPCodec

/// Lossless WebP through ``ImageDestination``, decoded back by our decoder: exact pixels for
/// every effort and kind of image (photo-like, few colours, alpha, odd sizes), metadata
/// carried, odd requests refused with typed errors. (Conformance/scripts/check_webp_encoder.py
/// checks the same files with dwebp and WebPAnimDecoder.)
struct WebPEncoderTests {
    static func options(effort: Int = 5, exact: Bool = false) -> EncodingOptions {
        var o = EncodingOptions()
        o.lossless = true
        o.effort = effort
        o.exact = exact
        return o
    }

    static func encode(_ frames: [[UInt8]], width: Int, height: Int, options: EncodingOptions = options(),
                       durations: [Duration]? = nil) throws(EncodingError) -> [UInt8] {
        let destination = try ImageDestination(format: .webp, options: options)
        for (i, pixels) in frames.enumerated() {
            let raster = Raster(width: width, height: height, bytesPerPixel: 4, pixels: pixels)
            try destination.add(EncodingFrame(raster: raster, duration: durations?[i] ?? .milliseconds(100)))
        }
        return try destination.finalize()
    }

    static func decode(_ bytes: [UInt8]) throws -> [[UInt8]] {
        let source = ImageSource(bytes: bytes)
        #expect(source.status == .complete)
        return try (0..<source.count).map { try source.image(at: $0).rgba8Raster().pixels }
    }

    /// The canonical form: a pixel whose alpha is 0 is 0,0,0,0.
    static func canonical(_ pixels: [UInt8]) -> [UInt8] {
        var out = pixels
        for i in stride(from: 0, to: out.count, by: 4) where out[i + 3] == 0 {
            out[i] = 0; out[i + 1] = 0; out[i + 2] = 0
        }
        return out
    }

    enum Kind: String, CaseIterable { case smooth, noise, fewColors, twoColors, manyColors, alpha }

    /// A test image: a smooth gradient with noise (photo-like), pure noise, 5, 2 or 300
    /// colours in runs, or random alpha (0, 255 and partial) over a gradient.
    static func image(_ kind: Kind, width: Int, height: Int, seed: UInt64) -> [UInt8] {
        var rng = SplitMix64(seed: seed)
        var out = [UInt8](repeating: 0, count: width * height * 4)
        let palette = (0..<300).map { _ in UInt32.random(in: 0...UInt32.max, using: &rng) | 0xFF00_0000 }
        var run = 0, color: UInt32 = 0
        for y in 0..<height {
            for x in 0..<width {
                let i = (y * width + x) * 4
                switch kind {
                case .smooth:
                    let n = Int.random(in: -3...3, using: &rng)
                    out[i] = UInt8(clamping: x * 255 / max(1, width) + n)
                    out[i + 1] = UInt8(clamping: y * 255 / max(1, height) + n)
                    out[i + 2] = UInt8(clamping: (x + y) * 127 / max(1, width + height) + n)
                    out[i + 3] = 255
                case .noise:
                    for c in 0..<4 { out[i + c] = UInt8.random(in: 0...255, using: &rng) }
                case .fewColors, .twoColors, .manyColors:
                    if run == 0 {
                        let n = kind == .fewColors ? 5 : kind == .twoColors ? 2 : 300
                        color = palette[Int.random(in: 0..<n, using: &rng)]
                        run = Int.random(in: 1...9, using: &rng)
                    }
                    run -= 1
                    out[i] = UInt8(truncatingIfNeeded: color >> 16)
                    out[i + 1] = UInt8(truncatingIfNeeded: color >> 8)
                    out[i + 2] = UInt8(truncatingIfNeeded: color)
                    out[i + 3] = UInt8(truncatingIfNeeded: color >> 24)
                case .alpha:
                    out[i] = UInt8(truncatingIfNeeded: x * 3)
                    out[i + 1] = UInt8(truncatingIfNeeded: y * 5)
                    out[i + 2] = UInt8.random(in: 0...255, using: &rng)
                    out[i + 3] = [0, 255, UInt8.random(in: 0...255, using: &rng)][Int.random(in: 0...2, using: &rng)]
                }
            }
        }
        return out
    }

    @Test(arguments: Kind.allCases, [0, 3, 5, 9])
    func stillsRoundTrip(_ kind: Kind, _ effort: Int) throws {
        let (width, height) = (37, 29)
        let pixels = Self.image(kind, width: width, height: height, seed: UInt64(effort * 10 + kind.rawValue.count))
        let bytes = try Self.encode([pixels], width: width, height: height, options: Self.options(effort: effort))
        #expect(try Self.decode(bytes).map(Self.canonical) == [Self.canonical(pixels)], "\(kind) effort \(effort)")
    }

    /// Effort 0…9 on a larger photo-like image: exact, and more effort is not larger by much.
    @Test func everyEffortRoundTrips() throws {
        let (width, height) = (160, 120)
        let pixels = Self.image(.smooth, width: width, height: height, seed: 3)
        var sizes: [Int] = []
        for effort in 0...9 {
            let bytes = try Self.encode([pixels], width: width, height: height, options: Self.options(effort: effort))
            #expect(try Self.decode(bytes) == [pixels], "effort \(effort)")
            sizes.append(bytes.count)
        }
        #expect(sizes[9] <= sizes[0], "\(sizes)")
    }

    /// `exact` keeps the colour under alpha 0; by default it may change (the alpha does not).
    @Test func exactKeepsTransparentColors() throws {
        let pixels = Self.image(.alpha, width: 23, height: 19, seed: 5)
        let exact = try Self.encode([pixels], width: 23, height: 19, options: Self.options(exact: true))
        #expect(try Self.decode(exact) == [pixels])
        let loose = try Self.encode([pixels], width: 23, height: 19)
        #expect(try Self.decode(loose).map(Self.canonical) == [Self.canonical(pixels)])
    }

    @Test(arguments: [(1, 1), (16383, 1), (1, 16383), (16384, 1), (1, 16384), (2, 3)])
    func oddSizes(_ width: Int, _ height: Int) throws {
        let pixels = Self.image(.smooth, width: width, height: height, seed: 11)
        if width > 16383 || height > 16383 {
            #expect(throws: EncodingError.limitExceeded("WebP width and height are at most 16383")) {
                try Self.encode([pixels], width: width, height: height)
            }
            return
        }
        let bytes = try Self.encode([pixels], width: width, height: height, options: Self.options(effort: 9))
        #expect(try Self.decode(bytes) == [pixels])
    }

    @Test func oddRequestsAreTypedErrors() throws {
        #expect(throws: EncodingError.self) { try Self.encode([[]], width: 0, height: 0) }
        let destination = try ImageDestination(format: .webp, options: Self.options())
        #expect(throws: EncodingError.invalidRequest("no frames were added")) { try destination.finalize() }
    }

    /// ICC, EXIF and XMP go into a VP8X file and come back.
    @Test func metadataIsCarried() throws {
        var options = Self.options()
        options.metadata.iccProfile = Array(repeating: 7, count: 131)
        options.metadata.exif = [0x4D, 0x4D, 0, 0x2A, 0, 0, 0, 8, 0, 0]
        options.metadata.xmp = Array("<x:xmpmeta/>".utf8)
        let pixels = Self.image(.alpha, width: 8, height: 8, seed: 1)
        let bytes = try Self.encode([pixels], width: 8, height: 8, options: options)
        #expect(Array(bytes[12..<16]) == Array("VP8X".utf8))
        let source = ImageSource(bytes: bytes)
        let properties = try #require(source.properties)
        #expect(properties.iccProfile == options.metadata.iccProfile)
        #expect(properties.exif == options.metadata.exif)
        #expect(properties.text.first?.text == "<x:xmpmeta/>")
        #expect(try Self.decode(bytes).map(Self.canonical) == [Self.canonical(pixels)])
    }
}
