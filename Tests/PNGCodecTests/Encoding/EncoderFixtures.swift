import CodecCore
import Foundation
import ImageCodecs
@testable import PNGCodec

/// Generated images for the encoder tests, each built to need one layout, and helpers that
/// encode with our encoder and read the file back with our decoder.
enum EncoderFixtures {
    /// A deterministic pseudo-random generator (SplitMix64).
    struct Random {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        mutating func byte() -> UInt8 { UInt8(truncatingIfNeeded: next()) }
        mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
    }

    /// An RGBA8 raster whose pixel (x, y) is `pixel(x, y)`.
    static func raster8(_ w: Int, _ h: Int, _ pixel: (Int, Int) -> [UInt8]) -> Raster {
        var p: [UInt8] = []
        p.reserveCapacity(w * h * 4)
        for y in 0..<h { for x in 0..<w { p += pixel(x, y) } }
        return Raster(width: w, height: h, bytesPerPixel: 4, pixels: p)
    }

    /// An RGBA16 raster (native order) whose pixel (x, y) is `pixel(x, y)`.
    static func raster16(_ w: Int, _ h: Int, _ pixel: (Int, Int) -> [UInt16]) -> Raster {
        var samples: [UInt16] = []
        for y in 0..<h { for x in 0..<w { samples += pixel(x, y) } }
        return Raster(width: w, height: h, bytesPerPixel: 8, pixels: samples.withUnsafeBytes { Array($0) })
    }

    /// A named fixture and the IHDR colour type and bit depth our encoder should choose.
    struct Case: CustomStringConvertible, Sendable {
        let name: String
        let raster: Raster
        let colorType: UInt8
        let bitDepth: UInt8
        var description: String { name }
    }

    static let cases: [Case] = {
        var r = Random(state: 1)
        let noise8 = raster8(37, 23) { _, _ in [r.byte(), r.byte(), r.byte(), r.byte()] }
        var s = Random(state: 2)
        let opaque8 = raster8(41, 17) { _, _ in [s.byte(), s.byte(), s.byte(), 255] }
        let gray1 = raster8(19, 9) { x, y in let v: UInt8 = (x ^ y) & 1 == 0 ? 0 : 255; return [v, v, v, 255] }
        let gray2 = raster8(19, 9) { x, y in let v = UInt8((x + y) % 4 * 85); return [v, v, v, 255] }
        let gray4 = raster8(19, 9) { x, y in let v = UInt8((x * 3 + y) % 16 * 17); return [v, v, v, 255] }
        var g = Random(state: 3)
        let gray8 = raster8(33, 12) { _, _ in let v = g.byte(); return [v, v, v, 255] }
        var ga = Random(state: 4)
        let grayAlpha8 = raster8(33, 12) { _, _ in let v = ga.byte(); return [v, v, v, ga.byte()] }
        let palette2 = raster8(20, 20) { x, _ in x < 10 ? [200, 10, 10, 255] : [10, 200, 10, 255] }
        let palette4 = raster8(20, 20) { x, y in [[1, 2, 3, 255], [40, 50, 60, 128], [7, 8, 9, 0], [250, 0, 250, 255], [0, 0, 99, 255]][(x + 2 * y) % 5] }
        var pr = Random(state: 5)
        let colors = (0..<200).map { _ in [pr.byte(), pr.byte(), pr.byte(), pr.byte() | 0x80] }
        let palette8 = raster8(31, 29) { x, y in colors[(x * 7 + y * 13) % 200] }
        var k = Random(state: 6)
        let keyed = raster8(40, 30) { x, y in (x + y) % 7 == 0 ? [1, 2, 3, 0] : [k.byte(), k.byte() | 1, k.byte(), 255] }
        var w = Random(state: 7)
        let rgba16 = raster16(21, 13) { _, _ in [UInt16(truncatingIfNeeded: w.next()), UInt16(truncatingIfNeeded: w.next()),
                                                  UInt16(truncatingIfNeeded: w.next()), UInt16(truncatingIfNeeded: w.next())] }
        var w2 = Random(state: 8)
        let rgb16 = raster16(21, 13) { _, _ in [UInt16(truncatingIfNeeded: w2.next()), UInt16(truncatingIfNeeded: w2.next()),
                                                 UInt16(truncatingIfNeeded: w2.next()), 0xFFFF] }
        var w3 = Random(state: 9)
        let gray16 = raster16(21, 13) { _, _ in let v = UInt16(truncatingIfNeeded: w3.next()); return [v, v, v, 0xFFFF] }
        var w4 = Random(state: 10)
        let grayAlpha16 = raster16(21, 13) { _, _ in
            let v = UInt16(truncatingIfNeeded: w4.next())
            return [v, v, v, UInt16(truncatingIfNeeded: w4.next())]
        }
        let fits8 = raster16(21, 13) { x, y in let v = UInt16((x * 11 + y * 5) % 256) * 257; return [v, 0x1212, v, 0xFFFF] }
        return [
            Case(name: "RGBA8 noise", raster: noise8, colorType: 6, bitDepth: 8),
            Case(name: "opaque RGB8 noise", raster: opaque8, colorType: 2, bitDepth: 8),
            Case(name: "grey 1-bit", raster: gray1, colorType: 0, bitDepth: 1),
            Case(name: "grey 2-bit", raster: gray2, colorType: 0, bitDepth: 2),
            Case(name: "grey 4-bit", raster: gray4, colorType: 0, bitDepth: 4),
            Case(name: "grey 8-bit", raster: gray8, colorType: 0, bitDepth: 8),
            Case(name: "grey+alpha 8-bit", raster: grayAlpha8, colorType: 4, bitDepth: 8),
            Case(name: "2 colours", raster: palette2, colorType: 3, bitDepth: 1),
            Case(name: "5 colours with alpha", raster: palette4, colorType: 3, bitDepth: 4),
            Case(name: "200 colours", raster: palette8, colorType: 3, bitDepth: 8),
            Case(name: "RGB with a colour key", raster: keyed, colorType: 2, bitDepth: 8),
            Case(name: "RGBA16 noise", raster: rgba16, colorType: 6, bitDepth: 16),
            Case(name: "RGB16 noise", raster: rgb16, colorType: 2, bitDepth: 16),
            Case(name: "grey 16-bit", raster: gray16, colorType: 0, bitDepth: 16),
            Case(name: "grey+alpha 16-bit", raster: grayAlpha16, colorType: 4, bitDepth: 16),
            Case(name: "16-bit that fits 8", raster: fits8, colorType: 3, bitDepth: 8),
        ]
    }()

    /// The PNG our encoder writes for `frames` (one frame: a still; more: an APNG).
    static func encode(_ frames: [Raster], options: EncodingOptions = .init(), loopCount: Int = 0,
                       durations: [Duration]? = nil, metadata: ImageMetadata = .init()) throws -> [UInt8] {
        var encoder = PNGEncoder(options: options)
        var sink = ByteArraySink()
        try encoder.begin(EncodingCanvas(width: frames[0].width, height: frames[0].height, frameCount: frames.count,
                                         loopCount: loopCount, metadata: metadata), to: &sink)
        for (i, frame) in frames.enumerated() {
            try encoder.add(EncodingFrame(raster: frame, duration: durations?[i] ?? .milliseconds(100)), to: &sink)
        }
        try encoder.finish(to: &sink)
        return sink.bytes
    }

    /// Every frame our decoder reads from `bytes`, in the raster's sample size.
    static func decode(_ bytes: [UInt8], sixteen: Bool) throws -> [Raster] {
        var options = DecodingOptions()
        options.prefersSixteenBitOutput = sixteen
        let source = ImageSource(bytes: bytes, options: options)
        return try (0..<source.count).map { i in
            let image = try source.image(at: i)
            return Raster(width: image.width, height: image.height, bytesPerPixel: image.pixelFormat.bytesPerPixel,
                          pixels: image.pixels)
        }
    }

    /// Whether decoded frames equal `expected`; frames decoded at 8 bits (an 8-bit file, or an
    /// animation, which the decoder composites at 8 bits) are compared with `expected` cut to
    /// its high bytes, which is exact for a 16-bit source whose samples fit in 8 bits.
    static func same(_ decoded: [Raster], _ expected: [Raster]) -> Bool {
        guard decoded.count == expected.count else { return false }
        return zip(decoded, expected).allSatisfy { d, e in
            guard d.bytesPerPixel != e.bytesPerPixel else { return d == e }
            return d.bytesPerPixel == 4
                && d == Raster(width: e.width, height: e.height, bytesPerPixel: 4, pixels: PixelConversion.narrowRGBA16(e.pixels))
        }
    }

    /// IHDR colour type and bit depth of a PNG.
    static func header(_ bytes: [UInt8]) -> (colorType: UInt8, bitDepth: UInt8, interlace: UInt8) {
        (bytes[25], bytes[24], bytes[28])
    }

    /// The chunk types of a PNG, in order.
    static func chunkTypes(_ bytes: [UInt8]) -> [String] {
        var out: [String] = []
        var pos = 8
        while pos + 8 <= bytes.count {
            let length = Int(bytes[pos]) << 24 | Int(bytes[pos + 1]) << 16 | Int(bytes[pos + 2]) << 8 | Int(bytes[pos + 3])
            out.append(String(decoding: bytes[(pos + 4)..<(pos + 8)], as: UTF8.self))
            pos += 12 + length
        }
        return out
    }

    /// Runs `pngcheck -q` on `bytes`; nil when pngcheck is not installed.
    static func pngcheck(_ bytes: [UInt8]) throws -> Bool? {
        let tool = ["/usr/bin/pngcheck", "/usr/local/bin/pngcheck"].first { FileManager.default.isExecutableFile(atPath: $0) }
        guard let tool else { return nil }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("enc-\(UUID().uuidString).png")
        try Data(bytes).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = ["-q", file.path]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus == 0
    }
}
