import Foundation
import ImageCodecs
import TestSupport
import Testing

/// `DecodingOptions.colorSpace = .sRGB` against LittleCMS 2 (through Pillow's ImageCms,
/// perceptual intent): each fixture in Conformance/fixtures/color has its expected sRGB image
/// beside it, made by Conformance/scripts/make_color_fixtures.py.
struct ColorManagementTests {
    static let folder = Corpus.conformance.appendingPathComponent("fixtures/color")
    static let fixtures = ["png", "jpg", "webp"].flatMap { ext in
        Corpus.files(in: folder, suffix: ".\(ext)").filter {
            !$0.lastPathComponent.hasSuffix(".srgb.png") && FileManager.default.fileExists(atPath: $0.path + ".srgb.png")
        }
    }

    static func decode(_ bytes: [UInt8], _ space: ColorSpace, sixteen: Bool = false) throws -> DecodedImage {
        var options = DecodingOptions()
        options.colorSpace = space
        options.prefersSixteenBitOutput = sixteen
        return try ImageSource(bytes: bytes, options: options).image(at: 0)
    }

    /// The largest per-channel difference of the RGB samples of two RGBA8 images.
    static func maxDifference(_ a: [UInt8], _ b: [UInt8]) -> Int {
        var worst = 0
        for i in 0..<min(a.count, b.count) where i % 4 != 3 { worst = max(worst, abs(Int(a[i]) - Int(b[i]))) }
        return worst
    }

    @Test func fixturesArePresent() {
        #expect(Self.fixtures.count >= 20)
    }

    @Test(arguments: fixtures)
    func convertsLikeLittleCMS(_ url: URL) throws {
        let ours = try Self.decode(Corpus.bytes(url), .sRGB).rgba8Raster()
        let expected = try Self.decode(Corpus.bytes(URL(fileURLWithPath: url.path + ".srgb.png")), .original).rgba8Raster()
        #expect(ours.width == expected.width && ours.height == expected.height)
        let worst = Self.maxDifference(ours.pixels, expected.pixels)
        #expect(worst <= 2, "\(url.lastPathComponent): \(worst)")
    }

    @Test func sixteenBitSourcesConvertAtSixteenBits() throws {
        let bytes = try Corpus.bytes(Self.folder.appendingPathComponent("p3-16.png"))
        let wide = try Self.decode(bytes, .sRGB, sixteen: true)
        #expect(wide.pixelFormat == .rgba16)
        let expected = try Self.decode(Corpus.bytes(Self.folder.appendingPathComponent("p3-16.png.srgb.png")), .original)
        #expect(Self.maxDifference(wide.rgba8Raster().pixels, expected.pixels) <= 2)
        let samples = wide.pixels.withUnsafeBytes { Array($0.bindMemory(to: UInt16.self)) }
        #expect(samples.contains { $0 & 0xFF != $0 >> 8 }, "16-bit output keeps precision below the high byte")
    }

    @Test func originalIsUntouchedAndLayoutsFollowTheConversion() throws {
        let bytes = try Corpus.bytes(Self.folder.appendingPathComponent("p3.png"))
        #expect(try Self.decode(bytes, .original) == ImageSource(bytes: bytes).image(at: 0))
        var options = DecodingOptions()
        options.colorSpace = .sRGB
        let rgba = try ImageSource(bytes: bytes, options: options).image(at: 0)
        options.byteOrder = .bgra8
        options.premultipliedAlpha = true
        let bgra = try ImageSource(bytes: bytes, options: options).image(at: 0)
        #expect(bgra.pixelFormat == .bgra8 && bgra.rgba8Raster().pixels == rgba.pixels)
    }

    @Test func thumbnailsAreConvertedToo() throws {
        let bytes = try Corpus.bytes(Self.folder.appendingPathComponent("p3.jpg"))
        var options = DecodingOptions()
        options.colorSpace = .sRGB
        let source = ImageSource(bytes: bytes, options: options)
        let full = try source.thumbnail(at: 0, maxPixelSize: 64)
        #expect(full == (try source.image(at: 0)))
        let small = try source.thumbnail(at: 0, maxPixelSize: 16)
        let plain = try ImageSource(bytes: bytes).thumbnail(at: 0, maxPixelSize: 16)
        #expect(small.width == plain.width && Self.maxDifference(small.pixels, plain.pixels) > 2)
    }

    @Test func cmykThumbnailsGoThroughTheProfile() throws {
        let url = Self.folder.appendingPathComponent("cmyk-v4-xyz.jpg")
        var options = DecodingOptions()
        options.colorSpace = .sRGB
        let source = ImageSource(bytes: try Corpus.bytes(url), options: options)
        let thumb = try source.thumbnail(at: 0, maxPixelSize: 8)
        let naive = try ImageSource(bytes: try Corpus.bytes(url)).thumbnail(at: 0, maxPixelSize: 8)
        #expect(thumb.width == 8 && Self.maxDifference(thumb.pixels, naive.pixels) > 2)
        #expect(source.properties?.warnings == [])
    }

    /// A PNG whose iCCP is replaced by `profile`.
    static func png(withProfile profile: [UInt8]) throws -> [UInt8] {
        let base = try Self.decode(Corpus.bytes(folder.appendingPathComponent("p3.png")), .original)
        var metadata = ImageMetadata()
        metadata.iccProfile = profile
        var encoding = EncodingOptions()
        encoding.metadata = metadata
        let destination = try ImageDestination(format: .png, options: encoding)
        try destination.add(base)
        return try destination.finalize()
    }

    @Test func brokenProfilesAreIgnoredWithAWarning() throws {
        let good = try Corpus.bytes(Self.folder.appendingPathComponent("p3.icc"))
        var insideTable = good
        insideTable.replaceSubrange(136..<140, with: [0, 0, 0, 130])   // the first tag starts inside the tag table
        var overlapping = good
        let second = Int(good[148]) << 24 | Int(good[149]) << 16 | Int(good[150]) << 8 | Int(good[151])
        withUnsafeBytes(of: UInt32(second + 4).bigEndian) { overlapping.replaceSubrange(148..<152, with: $0) }
        let cases: [[UInt8]] = [Array(good.prefix(100)), Array(good.prefix(300)), insideTable, overlapping,
                                good.prefix(128) + [0xFF, 0xFF, 0xFF, 0xFF] + good.dropFirst(132)]
        for (n, profile) in cases.enumerated() {
            let bytes = try Self.png(withProfile: profile)
            var options = DecodingOptions()
            options.colorSpace = .sRGB
            let source = ImageSource(bytes: bytes, options: options)
            #expect(source.properties?.warnings.count == 1, "case \(n): \(source.properties?.warnings ?? [])")
            #expect(try source.image(at: 0) == (try ImageSource(bytes: bytes).image(at: 0)))
            #expect(ImageSource(bytes: bytes).properties?.warnings == [], "no warning unless sRGB is asked for")
        }
    }

    @Test func cmykProfileOnAnRGBImageIsIgnored() throws {
        let cmyk = try Corpus.bytes(Self.folder.appendingPathComponent("cmyk-v4-xyz.jpg"))
        let profile = try #require(ImageSource(bytes: cmyk).properties?.iccProfile)
        let bytes = try Self.png(withProfile: profile)
        var options = DecodingOptions()
        options.colorSpace = .sRGB
        let source = ImageSource(bytes: bytes, options: options)
        #expect(source.properties?.warnings.first?.contains("CMYK") == true)
        #expect(try source.image(at: 0) == (try ImageSource(bytes: bytes).image(at: 0)))
    }

    @Test func pqIsRefusedWithAWarning() throws {
        let bytes = try Corpus.bytes(Self.folder.appendingPathComponent("cicp-pq.png"))
        var options = DecodingOptions()
        options.colorSpace = .sRGB
        let source = ImageSource(bytes: bytes, options: options)
        #expect(source.properties?.warnings.first?.contains("PQ") == true)
        #expect(try source.image(at: 0) == (try ImageSource(bytes: bytes).image(at: 0)))
    }
}

/// Transcoding a source decoded to sRGB: the pixels are sRGB, so the profile is not carried.
struct ColorTranscodingTests {
    @Test(arguments: ["p3.png", "p3.jpg", "p3.webp"])
    func aConvertedSourceIsWrittenWithoutItsProfile(_ name: String) throws {
        let bytes = try Corpus.bytes(ColorManagementTests.folder.appendingPathComponent(name))
        #expect(ImageSource(bytes: bytes).properties?.iccProfile != nil)
        for (space, keeps) in [(ColorSpace.original, true), (.sRGB, false)] {
            var options = DecodingOptions()
            options.colorSpace = space
            let source = ImageSource(bytes: bytes, options: options)
            let destination = try ImageDestination(format: .png)
            try destination.add(contentsOf: source)
            let written = ImageSource(bytes: try destination.finalize())
            #expect((written.properties?.iccProfile != nil) == keeps, "\(name) \(space)")
            #expect(try written.image(at: 0).pixels == source.image(at: 0).pixels)
        }
    }
}
