import Foundation
import ImageCodecs
import TestSupport
import Testing

/// SDWebImage's thumbnail options (`ThumbnailOptions`): a box with or without the aspect ratio,
/// and a byte budget, decoded at the small size (never at full size first).
struct ThumbnailBoxTests {
    static func jpeg(_ w: Int, _ h: Int) throws -> [UInt8] {
        let destination = try ImageDestination(format: .jpeg)
        try destination.add(HeldBytesTests.image(w, h))
        return try destination.finalize()
    }

    static func png(_ w: Int, _ h: Int) throws -> [UInt8] {
        let destination = try ImageDestination(format: .png)
        try destination.add(HeldBytesTests.image(w, h))
        return try destination.finalize()
    }

    static func box(_ w: Int, _ h: Int, stretch: Bool = false) -> ThumbnailOptions {
        ThumbnailOptions(thumbnailPixelSize: .init(width: w, height: h), preserveAspectRatio: !stretch)
    }

    /// The box fit: one side equals the box's, the other fits it, and the aspect ratio is kept to
    /// within the rounding of one pixel.
    @Test(arguments: [(640, 480, 100, 100), (480, 640, 100, 100), (640, 480, 300, 50), (640, 480, 50, 300), (333, 77, 64, 64)])
    func aspectFitInBox(_ w: Int, _ h: Int, _ bw: Int, _ bh: Int) throws {
        for bytes in [try Self.jpeg(w, h), try Self.png(w, h)] {
            let t = try ImageSource(bytes: bytes).thumbnail(options: Self.box(bw, bh))
            #expect(t.width <= bw && t.height <= bh && (t.width == bw || t.height == bh), "\(t.width)x\(t.height)")
            let exactHeight = Double(t.width) * Double(h) / Double(w)
            #expect(abs(Double(t.height) - exactHeight) <= 1, "\(t.width)x\(t.height) for \(w)x\(h)")
            #expect(t.isComplete)
        }
    }

    @Test(arguments: [(640, 480, 100, 100), (640, 480, 17, 300), (64, 64, 64, 1)])
    func stretchGivesExactlyTheBox(_ w: Int, _ h: Int, _ bw: Int, _ bh: Int) throws {
        for bytes in [try Self.jpeg(w, h), try Self.png(w, h)] {
            let t = try ImageSource(bytes: bytes).thumbnail(options: Self.box(bw, bh, stretch: true))
            #expect(t.width == bw && t.height == bh)
        }
    }

    /// The box (and a stretch) never enlarges: a side the image already fits stays its own.
    @Test func neverEnlarged() throws {
        let source = ImageSource(bytes: try Self.png(40, 30))
        let full = try source.image(at: 0)
        #expect(try source.thumbnail(options: Self.box(400, 400)) == full)
        let stretched = try source.thumbnail(options: Self.box(20, 400, stretch: true))
        #expect(stretched.width == 20 && stretched.height == 30)
    }

    /// The box is in upright pixels: an EXIF-rotated file (orientation 6, 24 × 16 stored) in a
    /// 12 × 8 stretch box comes out 12 × 8 once turned, 8 × 12 when not turned.
    @Test func boxIsUpright() throws {
        let url = Corpus.conformance.appendingPathComponent("fixtures/jpeg/exif-orientation-6-be-24x16.jpg")
        let source = ImageSource(bytes: try Corpus.bytes(url))
        let turned = try source.thumbnail(options: Self.box(8, 12, stretch: true))
        #expect(turned.width == 8 && turned.height == 12)
        var raw = Self.box(8, 12, stretch: true)
        raw.applyOrientation = false
        let stored = try source.thumbnail(options: raw)
        #expect(stored.width == 8 && stored.height == 12)
        #expect(stored != turned)
    }

    /// The budget gives the largest size with the image's aspect ratio whose RGBA8 pixels fit it.
    @Test(arguments: [(1024, 768, 100_000), (768, 1024, 65_536), (2000, 50, 4_000), (512, 512, 4)])
    func byteBudget(_ w: Int, _ h: Int, _ limit: Int) throws {
        for bytes in [try Self.jpeg(w, h), try Self.png(w, h)] {
            let t = try ImageSource(bytes: bytes).thumbnail(options: ThumbnailOptions(scaleDownLimitBytes: limit))
            #expect(t.width * t.height * 4 <= limit || (t.width == 1 && t.height == 1), "\(t.width)x\(t.height)")
            let wider = t.width + 1, itsHeight = max(1, wider * h / w)
            #expect(wider > w || wider * itsHeight * 4 > limit, "\(t.width)x\(t.height) is not the largest")
            #expect(abs(Double(t.height) - Double(t.width) * Double(h) / Double(w)) <= 1 || t.height == 1)
        }
    }

    @Test func budgetAboveTheImageKeepsItsSize() throws {
        let source = ImageSource(bytes: try Self.png(40, 30))
        #expect(try source.thumbnail(options: ThumbnailOptions(scaleDownLimitBytes: 40 * 30 * 4)) == source.image(at: 0))
    }

    @Test func boxThenBudget() throws {
        let source = ImageSource(bytes: try Self.jpeg(640, 480))
        let t = try source.thumbnail(options: ThumbnailOptions(thumbnailPixelSize: .init(width: 320, height: 320),
                                                               scaleDownLimitBytes: 160 * 120 * 4))
        #expect(t.width == 160 && t.height == 120)
    }

    @Test func badRequestsAreTypedErrors() throws {
        let source = ImageSource(bytes: try Self.png(40, 30))
        #expect(throws: DecodingError.invalidRequest("thumbnailPixelSize must be positive")) {
            try source.thumbnail(options: Self.box(0, 10))
        }
        #expect(throws: DecodingError.invalidRequest("scaleDownLimitBytes must be positive")) {
            try source.thumbnail(options: ThumbnailOptions(scaleDownLimitBytes: 0))
        }
        let huge = try source.thumbnail(options: Self.box(.max, .max, stretch: true))
        #expect(huge.width == 40 && huge.height == 30)
        #expect(throws: DecodingError.self) { try source.thumbnail(at: 3, options: Self.box(4, 4)) }
    }
}
