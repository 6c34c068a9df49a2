import CodecCore
import ImageCodecs
import TestSupport
import Testing
@testable import WebPCodec

/// Segments (RFC 6386 9.3, 10) and spatial noise shaping: the analysis, the clustering, the
/// per-segment quantizers and filter levels, and segmented files decoded by our decoder and
/// by `dwebp` when installed.
struct VP8SegmentTests {
    /// Left half a smooth gradient, right half noise (RGBA).
    static func halfNoise(width: Int, height: Int) -> [UInt8] {
        var rng = SplitMix64(seed: 3)
        var out = WebPEncoderTests.image(.smooth, width: width, height: height, seed: 5)
        for y in 0..<height {
            for x in (width / 2)..<width {
                for c in 0..<3 { out[(y * width + x) * 4 + c] = UInt8.random(in: 0...255, using: &rng) }
            }
        }
        return out
    }

    static func argb(_ rgba: [UInt8]) -> [UInt32] {
        stride(from: 0, to: rgba.count, by: 4).map {
            UInt32(rgba[$0 + 3]) << 24 | UInt32(rgba[$0]) << 16 | UInt32(rgba[$0 + 1]) << 8 | UInt32(rgba[$0 + 2])
        }
    }

    /// Smooth macroblocks score higher (easier) than noisy ones.
    @Test func analysisSeparatesSmoothFromNoise() {
        let (width, height) = (128, 64)
        let planes = VP8SourcePlanes(argb: Self.argb(Self.halfNoise(width: width, height: height)), width: width, height: height)
        let alphas = VP8SegmentAnalysis.susceptibilities(planes)
        #expect(alphas.count == 8 * 4)
        for mbY in 0..<4 {
            for mbX in 0..<4 {
                let smooth = Int(alphas[mbY * 8 + mbX]), noisy = Int(alphas[mbY * 8 + mbX + 4])
                #expect(smooth > noisy + 100, "macroblock \(mbX),\(mbY): \(smooth) against \(noisy)")
            }
        }
    }

    /// k-means finds four well-separated clumps, and maps every value to its clump.
    @Test func clusteringFindsClumps() {
        var histogram = [Int](repeating: 0, count: 256)
        for (value, count) in [(10, 50), (12, 50), (80, 30), (150, 40), (240, 20), (245, 20)] { histogram[value] = count }
        let (centers, assignment, mean) = VP8SegmentPlan.cluster(histogram, count: 4)
        #expect(centers == [11, 80, 150, 243])
        #expect([10, 12, 80, 150, 240, 245].map { assignment[$0] } == [0, 0, 1, 2, 3, 3])
        #expect(mean == (11 * 100 + 80 * 30 + 150 * 40 + 243 * 40 + 105) / 210)
    }

    /// Noise shaping quantizes the smooth segment more finely and filters it less; without it
    /// one segment at the frame's index; equal settings merge.
    @Test func segmentSettings() {
        #expect(VP8SegmentPlan.quantizerIndex(quality: 0.75, noiseShaping: 0, offset: 0) == 26)
        #expect(VP8SegmentPlan.quantizerIndex(quality: 0.75, noiseShaping: 0.5, offset: 127) < 26)
        #expect(VP8SegmentPlan.quantizerIndex(quality: 0.75, noiseShaping: 0.5, offset: -127) > 26)
        let alphas: [UInt8] = Array(repeating: 20, count: 30) + Array(repeating: 230, count: 30)
        let plan = VP8SegmentPlan(quality: 0.75, noiseShaping: 0.5, susceptibilities: alphas, count: 4)
        #expect(plan.isSegmented && plan.quantizerIndices.count == 2)
        let textured = Int(plan.map[0]), smooth = Int(plan.map[59])
        #expect(plan.quantizerIndices[smooth] < plan.quantizerIndices[textured])
        #expect(plan.filterLevels[smooth] < plan.filterLevels[textured])
        let flat = VP8SegmentPlan(quality: 0.75, noiseShaping: 0.5, susceptibilities: [UInt8](repeating: 90, count: 9), count: 4)
        #expect(!flat.isSegmented && flat.map.allSatisfy { $0 == 0 })
    }

    /// Segmented files decode close to the source (a wrong map or segment quantizer would
    /// not), alike in libwebp, and differ from unsegmented ones.
    @Test(arguments: [2, 5])
    func segmentedStillsDecode(_ effort: Int) throws {
        let (width, height) = (96, 64)
        let pixels = Self.halfNoise(width: width, height: height)
        var o = WebPLossyEncoderTests.lossy(quality: 0.75, effort: effort)
        let plain = try WebPEncoderTests.encode([pixels], width: width, height: height, options: o)
        o.noiseShaping = 0.5
        let shaped = try WebPEncoderTests.encode([pixels], width: width, height: height, options: o)
        #expect(shaped != plain)
        let decoded = try WebPEncoderTests.decode(shaped)[0]
        func smoothHalf(_ image: [UInt8]) -> [UInt8] {
            var out: [UInt8] = []
            for y in 0..<height {
                let start = y * width * 4
                out += image[start..<(start + width / 2 * 4)]
            }
            return out
        }
        #expect(ImageMetrics.psnr(smoothHalf(decoded), smoothHalf(pixels)) > 33)
        #expect(ImageMetrics.psnr(decoded, pixels) > 15)
        if let libwebp = try WebPLossyEncoderTests.dwebp(shaped) { #expect(libwebp == decoded) }
    }

    @Test func noiseShapingIsValidated() {
        var o = EncodingOptions()
        o.noiseShaping = 1.5
        #expect(throws: EncodingError.self) { try o.validate() }
        o.noiseShaping = 0.5
        #expect(throws: Never.self) { try o.validate() }
    }
}
