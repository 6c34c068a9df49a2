import ImageCodecs
import TestSupport
import Testing

/// What a raw-frame request honours: the options' layout, the limits on what a source holds,
/// indices out of range, still images, and the default a plug-in decoder gets.
struct RawFrameRequestTests {
    static let gif = "gif/gs-dispose-background-32x24.gif"
    static let apng = "apng/pil-d1-b1-32x24.png"
    static let webp = "webp/anim-mux-random1-32x24.webp"

    /// BGRA order and premultiplied alpha: the same pixels as the default RGBA frame, converted.
    @Test(arguments: [gif, apng, webp])
    func layoutFollowsTheOptions(_ name: String) throws {
        let bytes = try ImageSourceTests.fixture(name)
        var options = DecodingOptions()
        options.byteOrder = .bgra8
        options.premultipliedAlpha = true
        let plain = ImageSource(bytes: bytes), converted = ImageSource(bytes: bytes, options: options)
        for index in 0..<plain.count {
            let straight = try plain.rawFrame(at: index).image
            let raw = try converted.rawFrame(at: index)
            let expected = DecodedImage(raster: Raster(width: straight.width, height: straight.height, bytesPerPixel: 4,
                                                       pixels: straight.pixels),
                                        finalRowCount: straight.finalRowCount, options: options)
            #expect(raw.image == expected && raw.image.pixelFormat == .bgra8 && raw.image.isPremultiplied)
        }
    }

    /// A 16-bit still gives its RGBA16 image when asked for.
    @Test func sixteenBitStill() throws {
        var options = DecodingOptions()
        options.prefersSixteenBitOutput = true
        let source = ImageSource(bytes: try ImageSourceTests.fixture("png/rgba16-33x17.png"), options: options)
        let raw = try source.rawFrame(at: 0), image = try source.image(at: 0)
        #expect(raw.image.pixelFormat == .rgba16 && raw.image == image)
    }

    /// The raster a frame drawn on the canvas needs counts with the canvas against
    /// `maxBytesHeld`: with room for the canvas and a little more, a full-canvas raw frame is
    /// refused once the canvas is held, a small one is not, and the source goes on.
    @Test func rasterCountsWithTheCanvas() throws {
        let bytes = try ImageSourceTests.fixture(Self.gif)
        let canvasBytes = 32 * 24 * 4
        var options = DecodingOptions()
        options.limits.maxBytesHeld = canvasBytes + 2048
        let fresh = ImageSource(bytes: bytes, options: options)
        #expect(try fresh.rawFrame(at: 0).image.isComplete)
        let source = ImageSource(bytes: bytes, options: options)
        _ = try source.image(at: 0)
        #expect(throws: DecodingError.limitExceeded("buffer size exceeds Limits.maxBytesHeld")) { try source.rawFrame(at: 0) }
        #expect(try source.rawFrame(at: 1).image.isComplete)
        #expect(try source.image(at: 3).isComplete && source.status == .complete)
    }

    /// An APNG frame's raster is checked against the limits before it is allocated: a frame
    /// larger than `maxBytesHeld` is refused, a smaller one of the same file is not, and the
    /// source goes on (a 32 × 24 frame holds 3 072 bytes, a 17 × 24 one 1 632).
    @Test func apngFrameWithinTheLimits() throws {
        var options = DecodingOptions()
        options.limits.maxBytesHeld = 2500
        let source = ImageSource(bytes: try ImageSourceTests.fixture("apng/pil-d2-b0-32x24.png"), options: options)
        #expect(throws: DecodingError.limitExceeded("buffer size exceeds Limits.maxBytesHeld")) { try source.rawFrame(at: 0) }
        #expect(try source.rawFrame(at: 1).image.isComplete)
        #expect(source.status == .complete && source.error == nil)
    }

    /// Indices out of range are request errors that leave the source as it was; so is a source
    /// that has no bytes yet.
    @Test func indexOutOfRange() throws {
        let source = ImageSource(bytes: try ImageSourceTests.fixture(Self.webp))
        for index in [-1, source.count, Int.max] {
            #expect(throws: DecodingError.invalidRequest("frame index out of range")) { try source.rawFrame(at: index) }
        }
        #expect(source.status == .complete && source.error == nil)
        #expect(try source.rawFrame(at: 0).status == .complete)
        #expect(throws: DecodingError.invalidRequest("frame index out of range")) {
            try ImageSource(incremental: .init()).rawFrame(at: 0)
        }
    }

    /// A still image's raw frame is its image, over the whole canvas, with the image's alpha.
    @Test(arguments: ["png/rgba8-33x17.png", "png/rgb8-64x64-i.png", "jpeg/q75-420-33x17.jpg",
                      "webp/pal16-z6-37x23.webp", "webp-lossy/alpha-blobs-alphaq20-37x29.webp"])
    func stillIsItsImage(_ name: String) throws {
        let source = ImageSource(bytes: try ImageSourceTests.fixture(name))
        let raw = try source.rawFrame(at: 0), image = try source.image(at: 0)
        let p = try #require(source.properties)
        #expect(raw.image == image && raw.status == .complete)
        #expect(raw.properties.x == 0 && raw.properties.y == 0)
        #expect(raw.properties.width == p.width && raw.properties.height == p.height)
        #expect(raw.properties.hasAlpha == p.hasAlpha)
    }

    /// A plug-in decoder that does not keep its frames apart (the PNG decoder behind
    /// AnimationPlayerTests' wrapper, which has no `rawFrame`) gets the default: the image of a
    /// frame that is the whole canvas, drawn first or with `source`; `unsupported` for any other.
    @Test func pluginDefault() throws {
        let still = AnimationPlayerTests.source(try ImageSourceTests.fixture("png/rgba8-33x17.png"))
        #expect(try still.rawFrame(at: 0).image == still.image(at: 0))
        let animation = AnimationPlayerTests.source(try ImageSourceTests.fixture("apng/pil-d2-b0-32x24.png"))
        let frames = (0..<animation.count).compactMap { animation.properties(at: $0) }
        let full = frames.indices.filter { frames[$0].width == 32 && frames[$0].height == 24 && frames[$0].blend == .source }
        #expect(full.contains { $0 > 0 } && full.count < frames.count)
        for index in frames.indices {
            if full.contains(index) {
                #expect(try animation.rawFrame(at: index).image == animation.image(at: index))
            } else {
                #expect(throws: DecodingError.unsupported("this decoder does not give uncomposited frames")) {
                    try animation.rawFrame(at: index)
                }
            }
        }
    }
}
