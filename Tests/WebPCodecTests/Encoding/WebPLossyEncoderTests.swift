import CodecCore
import Foundation
import ImageCodecs
import TestSupport
import Testing
@testable import WebPCodec

/// The VP8 encoder: its forward transforms against the decoder's inverses, and lossy stills
/// decoded by our decoder (quality by PSNR, alpha exact) and, where `dwebp` is installed, by
/// libwebp to the same pixels.
struct WebPLossyEncoderTests {
    static func lossy(quality: Double = 0.75, effort: Int = 4) -> EncodingOptions {
        var o = EncodingOptions()
        o.lossless = false
        o.quality = quality
        o.effort = effort
        return o
    }

    /// The forward DCT and WHT followed by the decoder's inverses give back the input within 1.
    @Test func forwardTransformsInvert() {
        var rng = SplitMix64(seed: 7)
        var source = [UInt8](repeating: 0, count: 4 * 32), prediction = source
        var coefficients = [Int16](repeating: 0, count: 16)
        for _ in 0..<500 {
            for j in 0..<4 {
                for i in 0..<4 {
                    source[j * 32 + i] = UInt8.random(in: 0...255, using: &rng)
                    prediction[j * 32 + i] = UInt8.random(in: 0...255, using: &rng)
                }
            }
            var output = prediction
            VP8ForwardTransform.forwardDCT(source, prediction, &coefficients)
            VP8Transform.inverseDCT(coefficients, &output)
            for j in 0..<4 {
                for i in 0..<4 { #expect(abs(Int(output[j * 32 + i]) - Int(source[j * 32 + i])) <= 1) }
            }
            var dcs = [Int16](repeating: 0, count: 256), y2 = [Int16](repeating: 0, count: 16)
            for k in 0..<16 { dcs[16 * k] = Int16.random(in: -2040...2040, using: &rng) }
            VP8ForwardTransform.forwardWHT(dcs, &y2)
            var back = [Int16](repeating: 0, count: 256)
            VP8Transform.inverseWHT(y2, &back)
            for k in 0..<16 { #expect(abs(Int(back[16 * k]) - Int(dcs[16 * k])) <= 1) }
        }
    }


    @Test(arguments: [WebPEncoderTests.Kind.smooth, .noise, .fewColors, .alpha], [0, 2, 4, 6])
    func stillsDecode(_ kind: WebPEncoderTests.Kind, _ effort: Int) throws {
        for (width, height) in [(1, 1), (17, 33), (1000, 3), (64, 48)] {
            let pixels = WebPEncoderTests.image(kind, width: width, height: height, seed: UInt64(width + effort))
            let bytes = try WebPEncoderTests.encode([pixels], width: width, height: height,
                                                    options: Self.lossy(effort: effort))
            let decoded = try WebPEncoderTests.decode(bytes)[0]
            #expect(decoded.count == pixels.count)
            // Alpha is lossless at alphaQuality 1 (the default).
            for i in stride(from: 3, to: pixels.count, by: 4) where decoded[i] != pixels[i] {
                Issue.record("\(kind) \(width)x\(height): alpha differs at \(i / 4)")
                break
            }
            if kind == .smooth && width >= 17 && height >= 17 {
                #expect(ImageMetrics.psnr(decoded, pixels) > 33, "\(width)x\(height) effort \(effort)")
            }
            if let libwebp = try Self.dwebp(bytes) {
                #expect(libwebp == decoded, "\(kind) \(width)x\(height) effort \(effort): dwebp differs")
            }
        }
    }

    /// Alpha quality below 1 keeps fewer alpha levels (cwebp's count), within the image's range.
    @Test func alphaQualityReducesLevels() throws {
        #expect(WebPLossyEncoder.alphaLevels(quality: 1) == 256)
        #expect(WebPLossyEncoder.alphaLevels(quality: 0.5) == 12)
        let (width, height) = (40, 30)
        let pixels = WebPEncoderTests.image(.alpha, width: width, height: height, seed: 4)
        var o = Self.lossy()
        o.alphaQuality = 0.3
        let bytes = try WebPEncoderTests.encode([pixels], width: width, height: height, options: o)
        let decoded = try WebPEncoderTests.decode(bytes)[0]
        let alphas = Set(stride(from: 3, to: decoded.count, by: 4).map { decoded[$0] })
        #expect(alphas.count <= 8 && alphas.contains(0) && alphas.contains(255), "\(alphas.sorted())")
        if let libwebp = try Self.dwebp(bytes) { #expect(libwebp == decoded) }
    }

    /// Higher quality gives larger files and higher PSNR.
    @Test func qualityOrdersSizeAndPSNR() throws {
        let (width, height) = (96, 80)
        let pixels = WebPEncoderTests.image(.smooth, width: width, height: height, seed: 9)
        var last = (size: 0, psnr: 0.0)
        for q in [0.1, 0.5, 0.75, 0.9, 1.0] {
            let bytes = try WebPEncoderTests.encode([pixels], width: width, height: height, options: Self.lossy(quality: q))
            let p = ImageMetrics.psnr(try WebPEncoderTests.decode(bytes)[0], pixels)
            #expect(bytes.count > last.size && p > last.psnr, "quality \(q)")
            last = (bytes.count, p)
        }
    }

    /// Lossy and mixed animations: the smooth frames decode close to their source, alpha is
    /// exact; mixed
    /// is no larger than lossy or lossless alone.
    @Test func animations() throws {
        let (width, height) = (48, 40)
        var frames: [[UInt8]] = []
        for k in 0..<3 {
            var pixels = WebPEncoderTests.image(k == 2 ? .fewColors : .smooth, width: width, height: height, seed: 21)
            for i in stride(from: 0, to: k * 4 * width * 10, by: 4) { pixels[i] = 255; pixels[i + 3] = k == 1 ? 128 : 255 }
            frames.append(pixels)
        }
        var sizes: [Int] = []
        for (lossless, mixed) in [(false, false), (false, true), (true, false)] {
            var o = Self.lossy(quality: 0.9)
            o.lossless = lossless
            o.mixed = mixed
            let bytes = try WebPEncoderTests.encode(frames, width: width, height: height, options: o)
            sizes.append(bytes.count)
            let decoded = try WebPEncoderTests.decode(bytes)
            #expect(decoded.count == 3)
            for (k, (d, f)) in zip(decoded, frames).enumerated() {
                // Frame 2's runs of random colours are beyond 4:2:0 chroma.
                if k < 2 { #expect(ImageMetrics.psnr(d, f) > 30) }
                #expect(stride(from: 3, to: f.count, by: 4).allSatisfy { d[$0] == f[$0] })
            }
        }
        #expect(sizes[1] <= min(sizes[0], sizes[2]) + 64, "\(sizes)")
    }

    /// `maxFileSize` lowers the quality until the file fits.
    @Test func maxFileSizeIsMet() throws {
        let (width, height) = (96, 80)
        let pixels = WebPEncoderTests.image(.smooth, width: width, height: height, seed: 9)
        let full = try WebPEncoderTests.encode([pixels], width: width, height: height, options: Self.lossy(quality: 0.9))
        var o = Self.lossy(quality: 0.9)
        o.maxFileSize = full.count / 2
        let fitted = try WebPEncoderTests.encode([pixels], width: width, height: height, options: o)
        #expect(fitted.count <= full.count / 2 && fitted.count > full.count / 4, "\(fitted.count) of \(full.count)")
        #expect(try WebPEncoderTests.decode(fitted)[0].count == pixels.count)
    }

    /// RGBA pixels as libwebp's `dwebp -pam` decodes them, or nil without dwebp.
    static func dwebp(_ bytes: [UInt8]) throws -> [UInt8]? {
        let tool = "/usr/bin/dwebp"
        guard FileManager.default.isExecutableFile(atPath: tool) else { return nil }
        let dir = FileManager.default.temporaryDirectory
        let input = dir.appendingPathComponent("lossy-\(UUID().uuidString).webp")
        let output = dir.appendingPathComponent("lossy-\(UUID().uuidString).pam")
        try Data(bytes).write(to: input)
        defer { try? FileManager.default.removeItem(at: input); try? FileManager.default.removeItem(at: output) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = [input.path, "-pam", "-o", output.path]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return [] }
        let pam = [UInt8](try Data(contentsOf: output))
        let marker = Array("ENDHDR\n".utf8)
        guard let end = (0...(pam.count - marker.count)).first(where: { Array(pam[$0..<($0 + marker.count)]) == marker })
        else { return [] }
        return Array(pam[(end + marker.count)...])
    }
}
