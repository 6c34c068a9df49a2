import Foundation
import ImageCodecs
import TestSupport
import Testing
@testable import CodecCore

/// The ICC engine's parts: hostile profiles are refused with typed errors, never a trap;
/// curves, grids and the colorimetry give the values the spec defines.
struct ICCProfileTests {
    static let folder = Corpus.conformance.appendingPathComponent("fixtures/color")

    static func profile(_ fixture: String) throws -> [UInt8] {
        let bytes = try Corpus.bytes(folder.appendingPathComponent(fixture))
        if fixture.hasSuffix(".icc") { return bytes }
        return try #require(ImageSource(bytes: bytes).properties?.iccProfile)
    }

    @Test func readsTheFixtureProfile() throws {
        let p = try ICCProfile(bytes: try Self.profile("p3.icc"))
        #expect(p.majorVersion == 4 && !p.isCMYK && !p.isGray)
        #expect(p.profileDescription == "Display P3 (fixture)")
        #expect(try ColorTransform(profile: p).inputChannelCount == 3)
    }

    @Test func everyPrefixIsRefusedOrReadWithoutATrap() throws {
        let good = try Self.profile("p3.icc")
        var refused = 0
        for n in 0..<good.count {
            do {
                _ = try ColorTransform(profile: ICCProfile(bytes: Array(good.prefix(n))))
            } catch {
                refused += 1
            }
        }
        #expect(refused == good.count, "a profile shorter than its declared size is refused")
    }

    @Test func hostileTablesAreRefused() throws {
        let good = try Self.profile("p3.icc")
        func with(_ offset: Int, _ value: UInt32) -> [UInt8] {
            var b = good
            withUnsafeBytes(of: value.bigEndian) { b.replaceSubrange(offset..<offset + 4, with: $0) }
            return b
        }
        let cases: [([UInt8], DecodingError.Kind)] = [
            (with(128, 0xFFFF_FFFF), .invalidData),     // tag count
            (with(140, 0x7FFF_FFFF), .invalidData),     // a tag's size
            (with(136, 0xFFFF_FFF0), .invalidData),     // a tag's offset
            (with(36, 0), .invalidData),                // 'acsp'
            (with(0, 0xFFFF_FFFF), .truncated),         // declared size
            ([UInt8](repeating: 0, count: ICCProfile.maxByteCount + 1), .limitExceeded),
        ]
        for (bytes, kind) in cases {
            #expect { try ICCProfile(bytes: bytes) } throws: { ($0 as? DecodingError)?.kind == kind }
        }
    }

    @Test func mutatedProfilesNeverTrap() throws {
        var rng = SplitMix(seed: 20)
        for fixture in ["p3.icc", "mab.png", "lut8.png", "cmyk-v4-xyz.jpg", "gray-v2.png"] {
            let good = try Self.profile(fixture)
            for _ in 0..<5 {
                var b = good
                for _ in 0..<1 + Int(rng.next() % 4) {
                    b[Int(rng.next() % UInt64(b.count))] = UInt8(truncatingIfNeeded: rng.next())
                }
                if let t = try? ColorTransform(profile: ICCProfile(bytes: b)) {
                    var raster = Raster(width: 4, height: 1, bytesPerPixel: 4, pixels: (0..<16).map { UInt8($0 * 17) })
                    t.apply(to: &raster)
                    #expect(raster.pixels.count == 16)
                }
            }
        }
    }

    @Test func parametricCurvesFollowTheSpec() {
        #expect(abs(ICCCurve.parametric(0, [2.0]).evaluate(0.5) - 0.25) < 1e-12)
        #expect(ICCCurve.parametric(1, [1, 2, -1]).evaluate(0.25) == 0)
        #expect(abs(ICCCurve.parametric(2, [1, 2, -1, 0.25]).evaluate(0.75) - 0.75) < 1e-12)
        let srgb = ICCCurve.parametric(3, [2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045])
        #expect(abs(srgb.evaluate(0.5) - 0.21404) < 1e-5)
        #expect(abs(srgb.evaluate(0.02) - 0.02 / 12.92) < 1e-12)
        #expect(abs(ICCCurve.parametric(4, [1, 1, 0, 0.5, 0.5, 0.1, 0.05]).evaluate(0.25) - 0.175) < 1e-12)
        #expect(abs(ICCCurve.table([0, 0.5, 1]).evaluate(0.75) - 0.75) < 1e-12)
        #expect(abs(ICCCurve.gamma(2.2).evaluate(1) - 1) < 1e-12)
        #expect(abs(ICCMath.sRGBEncode(srgb.evaluate(0.7)) - 0.7) < 1e-9)
    }

    @Test func gridInterpolationIsExactOnLinearFunctions() {
        for inputs in 1...4 {
            let points = [Int](repeating: 3, count: inputs)
            var values: [Double] = []
            var total = 1
            for _ in 0..<inputs { total *= 3 }
            for n in 0..<total {
                var rest = n, sum = 0.0, weight = 1.0
                for _ in 0..<inputs { sum += weight * Double(rest % 3) / 2; rest /= 3; weight *= 0.5 }
                values += [sum / 2, 1 - sum / 2, 0.25]
            }
            let grid = ICCGrid(points: points, outputCount: 3, values: values)
            let x = [0.3, 0.8, 0.55, 0.1].prefix(inputs)
            var expected = 0.0, weight = 1.0
            for v in x.reversed() { expected += weight * v; weight *= 0.5 }
            var out = [0.0, 0.0, 0.0]
            grid.evaluate(Array(x), into: &out)
            #expect(abs(out[0] - expected / 2) < 1e-12 && abs(out[1] - (1 - expected / 2)) < 1e-12 && out[2] == 0.25)
        }
    }

    @Test func bradfordTakesD65ToD50() throws {
        let d65 = Vector3(0.3127 / 0.3290, 1, (1 - 0.3127 - 0.3290) / 0.3290)
        let adapted = try #require(ICCMath.adaptationToD50(from: d65)) * d65
        #expect(abs(adapted.x - 0.9642) < 1e-9 && abs(adapted.y - 1) < 1e-9 && abs(adapted.z - 0.8249) < 1e-9)
        let white = ICCMath.sRGBToXYZ * Vector3(1, 1, 1)
        #expect(abs(white.x - 0.9642) < 1e-9 && abs(white.z - 0.8249) < 1e-9)
    }
}

/// A deterministic generator for the mutation test.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}


/// The 8-bit matrix kernel (fixed point) against the exact colorimetry in doubles, and its
/// in-place and new-storage forms against each other.
struct ColorMatrixKernelTests {
    @Test func fixedPointKernelIsWithinOneOfExact() throws {
        let bytes = try Corpus.bytes(ICCProfileTests.folder.appendingPathComponent("p3.icc"))
        let profile = try ICCProfile(bytes: bytes)
        let transform = try ColorTransform(profile: profile)
        let model = try ColorSourceModel(profile)
        let toSRGB = try #require(ICCMath.sRGBToXYZ.inverted)
        var rng = SplitMix(seed: 7)
        let count = 4099
        let source = (0..<count * 4).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
        let raster = Raster(width: count, height: 1, bytesPerPixel: 4, pixels: source)
        let converted = transform.converted(raster)
        var inPlace = raster
        transform.apply(to: &inPlace)
        #expect(inPlace.pixels == converted.pixels)
        var worst = 0
        for i in stride(from: 0, to: count * 4, by: 4) {
            let xyz = model.evaluate([Double(source[i]) / 255, Double(source[i + 1]) / 255, Double(source[i + 2]) / 255])
            let rgb = toSRGB * xyz
            for (c, v) in [rgb.x, rgb.y, rgb.z].enumerated() {
                let exact = Int((ICCMath.sRGBEncode(v) * 255).rounded())
                worst = max(worst, abs(exact - Int(converted.pixels[i + c])))
            }
            #expect(converted.pixels[i + 3] == source[i + 3])
        }
        #expect(worst <= 1)
    }
}

/// The matrix kernel's reach: out-of-gamut sums land on the ends of its encoding table, and a
/// matrix reaching beyond ``ColorMatrixKernel/maximumSpan`` is refused, not wrapped.
struct ColorMatrixKernelReachTests {
    /// Wide Gamut RGB primaries (far outside sRGB: sums well below 0 and above 1).
    static let wide = ICCMath.rgbToXYZ(white: (0.3457, 0.3585), red: (0.7347, 0.2653), green: (0.1152, 0.8264), blue: (0.1566, 0.0177))

    @Test func outOfGamutColoursClipToTheEnds() throws {
        let toXYZ = try #require(Self.wide)
        let transform = try #require(ColorTransform(curves: [.gamma(2.2), .gamma(2.2), .gamma(2.2)], toXYZ: toXYZ))
        let toSRGB = try #require(ICCMath.sRGBToXYZ.inverted)
        var rng = SplitMix(seed: 11)
        let corners: [UInt8] = [255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 255, 255, 0, 9]
        let source = corners + (0..<4096 * 4).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
        let count = source.count / 4
        let converted = transform.converted(Raster(width: count, height: 1, bytesPerPixel: 4, pixels: source))
        var worst = 0, clipped = 0
        for i in stride(from: 0, to: source.count, by: 4) {
            let linear = (0..<3).map { ICCMath.pow(Double(source[i + $0]) / 255, 2.2) }
            let rgb = toSRGB * (toXYZ * Vector3(linear[0], linear[1], linear[2]))
            for (c, v) in [rgb.x, rgb.y, rgb.z].enumerated() {
                if v < 0 || v > 1 { clipped += 1 }
                let exact = Int((ICCMath.sRGBEncode(min(max(v, 0), 1)) * 255).rounded())
                worst = max(worst, abs(exact - Int(converted.pixels[i + c])))
            }
            #expect(converted.pixels[i + 3] == source[i + 3])
        }
        #expect(clipped > 100)
        #expect(worst <= 1)
    }

    @Test func aMatrixReachingTooFarIsRefused() {
        let far = Matrix3(rows: [40, 0, 0], [0, 1, 0], [0, 0, 1])
        #expect(ColorTransform(curves: [.identity, .identity, .identity], toXYZ: far) == nil)
        let negative = Matrix3(rows: [1, -40, 0], [0, 1, 0], [0, 0, 1])
        #expect(ColorTransform(curves: [.identity, .identity, .identity], toXYZ: negative) == nil)
    }
}

/// Conversion in bands on several threads gives the bytes one thread gives.
struct ColorTransformThreadTests {
    @Test func bandsOnSeveralThreadsEqualOneThread() throws {
        let bytes = try Corpus.bytes(ICCProfileTests.folder.appendingPathComponent("p3.icc"))
        let transform = try ColorTransform(profile: ICCProfile(bytes: bytes))
        var rng = SplitMix(seed: 5)
        let width = 1031, height = ColorTransform.bandPixels * 5 / 2 / width
        let source = (0..<width * height * 4).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
        let raster = Raster(width: width, height: height, bytesPerPixel: 4, pixels: source)
        let one = transform.converted(raster, maxThreads: 1)
        var inPlace = raster
        transform.apply(to: &inPlace)
        #expect(one.pixels == inPlace.pixels)
        for threads in [2, 3, 8] {
            #expect(transform.converted(raster, maxThreads: threads).pixels == one.pixels, "\(threads) threads")
        }
    }
}
