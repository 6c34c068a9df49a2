import CodecCore
import ImageCodecs
@testable import PNGCodec
import TestSupport
import Testing

/// APNGs: every composited frame our decoder shows is exactly the input frame, whatever mix
/// of disposal and blending the planner chose; loop count and delays are kept.
struct APNGEncoderTests {
    typealias F = EncoderFixtures

    /// Named frame sequences, each needing a different disposal or blend.
    static let animations: [(String, [Raster])] = {
        var r = F.Random(state: 21)
        let background = F.raster8(24, 16) { _, _ in [r.byte(), r.byte(), r.byte(), 255] }
        func sprite(at sx: Int) -> Raster {
            var out = background
            for y in 4..<9 { for x in sx..<(sx + 4) { let i = (y * 24 + x) * 4; out.pixels[i..<(i + 4)] = [255, 0, 0, 255] } }
            return out
        }
        let clear = Raster(width: 24, height: 16, bytesPerPixel: 4)
        func blob(_ x0: Int, _ alpha: UInt8) -> Raster {
            F.raster8(24, 16) { x, y in x >= x0 && x < x0 + 5 && y > 3 && y < 10 ? [9, 99, 199, alpha] : [0, 0, 0, 0] }
        }
        var p = F.Random(state: 22)
        let palette = (0..<6).map { _ in [p.byte(), p.byte(), p.byte(), 255] }
        let paletted = (0..<5).map { k in F.raster8(17, 11) { x, y in palette[(x / 3 + y / 4 + k) % 6] } }
        var w = F.Random(state: 23)
        let wideBase = F.raster16(9, 7) { _, _ in [UInt16(truncatingIfNeeded: w.next()), 3, 4, 0xFFFF] }
        var wideNext = wideBase
        wideNext.pixels[8..<16] = [1, 2, 3, 4, 5, 6, 0xFF, 0xFF]
        var g = F.Random(state: 24)
        let noisyGrey = (0..<2).map { _ in
            F.raster8(39, 1806) { _, _ in let v = g.byte(); return [v, v, v, g.byte() & 1 == 0 ? 0 : 255] }
        }
        // Coloured transparent pixels on frame 0, then a transparent frame: the OVER frame must not
        // recolour them (0 over 0 keeps whichever colour; FuzzEncode finding).
        let tinted = F.raster8(24, 16) { x, _ in x < 12 ? [73, 73, 73, 0] : [0, 0, 0, 255] }
        return [
            ("transparent colours kept", [tinted, clear, tinted]),
            ("grey noise, alpha 0 or 255 (FuzzEncode finding)", noisyGrey),
            ("moving sprite", (0..<6).map { sprite(at: 2 + 3 * $0) }),
            ("transparent blob moving", [blob(2, 255), blob(8, 255), blob(14, 255), clear, blob(3, 255)]),
            ("translucent blob", [blob(2, 120), blob(6, 200), blob(6, 60), blob(1, 255)]),
            ("flicker back", [sprite(at: 2), background, sprite(at: 2), background, sprite(at: 10)]),
            ("identical frames", [background, background, background]),
            ("palette", paletted),
            ("16-bit", [wideBase, wideNext, wideBase]),
            ("clear to opaque", [clear, background, clear]),
        ]
    }()

    @Test(arguments: animations.map(\.0))
    func compositedFramesAreTheInput(_ name: String) throws {
        let frames = Self.animations.first { $0.0 == name }!.1
        let durations: [Duration] = frames.indices.map { [.zero, .milliseconds(655_350), .milliseconds(40), .milliseconds(33)][$0 % 4] }
        for effort in [2, 5] {
            var options = EncodingOptions()
            options.effort = effort
            let back = try F.decode(try F.encode(frames, options: options), sixteen: frames[0].bytesPerPixel == 8)
            #expect(F.same(back, frames), "\(name) at effort \(effort)")
        }
        let bytes = try F.encode(frames, loopCount: 3, durations: durations)
        if frames[0].bytesPerPixel == 8 { #expect(F.header(bytes).bitDepth == 16, "16-bit frames stay 16-bit") }
        let source = ImageSource(bytes: bytes)
        #expect(source.properties?.loopCount == 3)
        for (i, d) in durations.enumerated() {
            let seconds = Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
            #expect(abs((source.properties(at: i)?.unclampedDuration ?? -1) - seconds) < 1e-9, "\(name) frame \(i)")
        }
        let types = F.chunkTypes(bytes)
        #expect(types.firstIndex(of: "acTL")! < types.firstIndex(of: "IDAT")!)
        #expect(types.firstIndex(of: "fcTL")! < types.firstIndex(of: "IDAT")!, "the first frame is the default image")
        if let accepted = try F.pngcheck(bytes) { #expect(accepted, "pngcheck refuses \(name)") }
    }

    /// Over all the animations, the planner uses every disposal and both blends.
    @Test func everyOperationIsUsed() throws {
        var disposals = Set<UInt8>(), blends = Set<UInt8>()
        for (_, frames) in Self.animations {
            let bytes = try F.encode(frames)
            var pos = 8
            while pos + 8 <= bytes.count {
                let length = Int(bytes[pos]) << 24 | Int(bytes[pos + 1]) << 16 | Int(bytes[pos + 2]) << 8 | Int(bytes[pos + 3])
                if bytes[(pos + 4)..<(pos + 8)].elementsEqual("fcTL".utf8) {
                    disposals.insert(bytes[pos + 8 + 24])
                    blends.insert(bytes[pos + 8 + 25])
                }
                pos += 12 + length
            }
        }
        #expect(disposals == [0, 1, 2])
        #expect(blends == [0, 1])
    }

    @Test func framesAreCroppedToWhatChanged() throws {
        let frames = Self.animations.first { $0.0 == "moving sprite" }!.1
        let still = try F.encode([frames[0]])
        let animated = try F.encode(frames)
        // Five more frames, each a 7×5 rectangle at most, cost far less than five more images.
        #expect(animated.count < still.count + 5 * 400, "\(animated.count) vs still \(still.count)")
    }
}
