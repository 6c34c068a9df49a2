import ImageCodecs
import Testing
@testable import GIFCodec

/// The GIF89a blocks one by one: screen, colour tables, Graphic Control Extension, frame
/// rectangles, the application and comment extensions, and how the file ends.
struct GIFDecodingTests {
    static let palette: [[UInt8]] = [[0, 0, 0], [255, 0, 0], [0, 255, 0], [0, 0, 255]]
    static let red: [UInt8] = [255, 0, 0, 255], green: [UInt8] = [0, 255, 0, 255], blue: [UInt8] = [0, 0, 255, 255]
    static let black: [UInt8] = [0, 0, 0, 255], clear: [UInt8] = [0, 0, 0, 0]

    static func pixels(_ bytes: [UInt8], frame: Int = 0) throws -> [[UInt8]] {
        let image = try ImageSource(bytes: bytes).image(at: frame)
        return stride(from: 0, to: image.pixels.count, by: 4).map { Array(image.pixels[$0..<($0 + 4)]) }
    }

    @Test func stillImage() throws {
        var b = GIFBuilder(width: 2, height: 2, globalTable: Self.palette, background: 2)
        b.image(width: 2, height: 2, indices: [1, 2, 3, 0], minimumCodeSize: 2)
        b.trailer()
        let source = ImageSource(bytes: b.bytes)
        #expect(source.format == .gif)
        #expect(source.status == .complete && source.count == 1)
        let p = try #require(source.properties)
        #expect(p.width == 2 && p.height == 2 && p.loopCount == 1 && p.bitDepth == 8 && !p.hasAlpha && !p.isInterlaced)
        #expect(p.backgroundColor == [0, 255, 0])
        #expect(try Self.pixels(b.bytes) == [Self.red, Self.green, Self.blue, Self.black])
        #expect(source.properties(at: 0) == FrameProperties(x: 0, y: 0, width: 2, height: 2, unclampedDuration: 0,
                                                             disposal: .none, blend: .source))
    }

    @Test func gif87a() throws {
        var b = GIFBuilder(width: 1, height: 1, globalTable: Self.palette, version: "GIF87a")
        b.image(width: 1, height: 1, indices: [3], minimumCodeSize: 2)
        b.trailer()
        #expect(try Self.pixels(b.bytes) == [Self.blue])
    }

    @Test func otherSignaturesAreNotGIF() {
        var b = GIFBuilder(width: 1, height: 1, globalTable: Self.palette, version: "GIF88a")
        b.image(width: 1, height: 1, indices: [3], minimumCodeSize: 2)
        b.trailer()
        #expect(ImageSource(bytes: b.bytes).status == .unknownType)
        #expect(ImageSource(bytes: Array("GIF8".utf8)).status == .unexpectedEOF)
    }

    @Test func localTableWinsAndTablesOfEverySize() throws {
        for bits in 0..<8 {
            let n = 2 << bits
            let table = (0..<n).map { [UInt8($0), UInt8(255 - $0), 7] }
            var b = GIFBuilder(width: 2, height: 1, globalTable: Self.palette)
            b.image(width: 2, height: 1, indices: [0, UInt8(n - 1)], localTable: table)
            b.trailer()
            #expect(try Self.pixels(b.bytes) == [[0, 255, 7, 255], [UInt8(n - 1), UInt8(256 - n), 7, 255]], "\(n) entries")
        }
    }

    /// Indices past the table and frames without any table are opaque black (Wuffs, Chromium).
    @Test func missingColoursAreOpaqueBlack() throws {
        var b = GIFBuilder(width: 2, height: 1, globalTable: [[9, 9, 9], [8, 8, 8]])
        b.image(width: 2, height: 1, indices: [1, 5], minimumCodeSize: 3)
        b.trailer()
        #expect(try Self.pixels(b.bytes) == [[8, 8, 8, 255], Self.black])
        var none = GIFBuilder(width: 2, height: 1)
        none.image(width: 2, height: 1, indices: [1, 0], minimumCodeSize: 2)
        none.trailer()
        #expect(try Self.pixels(none.bytes) == [Self.black, Self.black])
    }

    @Test func transparentIndexLeavesTheCanvas() throws {
        var b = GIFBuilder(width: 2, height: 1, globalTable: Self.palette)
        b.image(width: 2, height: 1, indices: [1, 1], minimumCodeSize: 2)
        b.graphicControl(transparent: 1)
        b.image(width: 2, height: 1, indices: [1, 3], minimumCodeSize: 2)
        b.graphicControl(transparent: 200)  // outside the table: nothing is transparent
        b.image(width: 1, height: 1, indices: [2], minimumCodeSize: 2)
        b.trailer()
        #expect(try Self.pixels(b.bytes, frame: 1) == [Self.red, Self.blue])
        #expect(try Self.pixels(b.bytes, frame: 2) == [Self.green, Self.blue])
        let source = ImageSource(bytes: b.bytes)
        #expect(source.properties?.hasAlpha == true)
        #expect(source.properties(at: 1)?.blend == .over && source.properties(at: 2)?.blend == .over)
        #expect(source.properties(at: 0)?.blend == .source)
    }

    /// The canvas starts transparent; a frame that does not cover it leaves the rest so.
    @Test func canvasStartsTransparent() throws {
        var b = GIFBuilder(width: 3, height: 1, globalTable: Self.palette)
        b.image(x: 1, width: 1, height: 1, indices: [2], minimumCodeSize: 2)
        b.trailer()
        #expect(try Self.pixels(b.bytes) == [Self.clear, Self.green, Self.clear])
        #expect(ImageSource(bytes: b.bytes).properties?.hasAlpha == true)
    }

    @Test func rectanglesAreClippedNeverGrown() throws {
        var b = GIFBuilder(width: 2, height: 2, globalTable: Self.palette)
        b.image(x: 1, y: 1, width: 3, height: 2, indices: [1, 2, 3, 3, 2, 1], minimumCodeSize: 2)
        b.image(x: 5, y: 0, width: 2, height: 1, indices: [1, 1], minimumCodeSize: 2)
        b.trailer()
        let source = ImageSource(bytes: b.bytes)
        #expect(source.properties?.width == 2 && source.properties?.height == 2)
        #expect(source.properties(at: 0).map { [$0.x, $0.y, $0.width, $0.height] } == [1, 1, 1, 1])
        #expect(source.properties(at: 1).map { [$0.x, $0.y, $0.width, $0.height] } == [2, 0, 0, 1])
        #expect(try Self.pixels(b.bytes) == [Self.clear, Self.clear, Self.clear, Self.red])
        #expect(try Self.pixels(b.bytes, frame: 1) == [Self.clear, Self.clear, Self.clear, Self.red])
        let image = try source.image(at: 1)
        #expect(image.width == 2 && image.height == 2)
    }

    /// A zero-sized image is a frame that draws nothing (browsers; giflib refuses it).
    @Test func zeroSizedImageIsAnEmptyFrame() throws {
        var b = GIFBuilder(width: 1, height: 1, globalTable: Self.palette)
        b.image(width: 1, height: 1, indices: [1], minimumCodeSize: 2)
        b.image(width: 0, height: 0, minimumCodeSize: 2, data: ReferenceLZWEncoder.encode([0], minimumCodeSize: 2))
        b.trailer()
        let source = ImageSource(bytes: b.bytes)
        #expect(source.count == 2 && source.status == .complete)
        #expect(try Self.pixels(b.bytes, frame: 1) == [Self.red])
    }

    @Test func disposalMethods() throws {
        // Frame 1 covers the left pixel and is disposed of as `method` says; frame 2 draws on the right.
        func canvas(_ method: Int) throws -> [[UInt8]] {
            var b = GIFBuilder(width: 2, height: 1, globalTable: Self.palette)
            b.image(width: 2, height: 1, indices: [1, 1], minimumCodeSize: 2)
            b.graphicControl(disposal: method)
            b.image(width: 1, height: 1, indices: [2], minimumCodeSize: 2)
            b.image(x: 1, width: 1, height: 1, indices: [3], minimumCodeSize: 2)
            b.trailer()
            return try Self.pixels(b.bytes, frame: 2)
        }
        #expect(try canvas(0) == [Self.green, Self.blue])
        #expect(try canvas(1) == [Self.green, Self.blue])
        #expect(try canvas(2) == [Self.clear, Self.blue])
        #expect(try canvas(3) == [Self.red, Self.blue])
        #expect(try canvas(4) == [Self.red, Self.blue])   // read as "previous", as Chromium and Firefox do
        for method in 5...7 { #expect(try canvas(method) == [Self.green, Self.blue]) }
    }

    @Test func previousOnTheFirstFrameClears() throws {
        var b = GIFBuilder(width: 2, height: 1, globalTable: Self.palette)
        b.graphicControl(disposal: 3)
        b.image(width: 1, height: 1, indices: [1], minimumCodeSize: 2)
        b.image(x: 1, width: 1, height: 1, indices: [2], minimumCodeSize: 2)
        b.trailer()
        #expect(try Self.pixels(b.bytes, frame: 1) == [Self.clear, Self.green])
    }

    @Test func delays() {
        var b = GIFBuilder(width: 1, height: 1, globalTable: Self.palette)
        for delay in [0, 1, 2, 10, 65535] {
            b.graphicControl(delay: delay)
            b.image(width: 1, height: 1, indices: [1], minimumCodeSize: 2)
        }
        b.image(width: 1, height: 1, indices: [1], minimumCodeSize: 2)
        b.trailer()
        let source = ImageSource(bytes: b.bytes)
        let frames = (0..<source.count).compactMap { source.properties(at: $0) }
        #expect(frames.map(\.unclampedDuration) == [0, 0.01, 0.02, 0.1, 655.35, 0])
        #expect(frames.map(\.duration) == [0.1, 0.1, 0.02, 0.1, 655.35, 0.1])
    }

    /// The last Graphic Control Extension before an image applies; a short one is ignored; one
    /// before a Plain Text Extension still applies to the next image; none carries past its image.
    @Test func graphicControlScope() {
        var b = GIFBuilder(width: 1, height: 1, globalTable: Self.palette)
        b.graphicControl(disposal: 2, delay: 20)
        b.graphicControl(disposal: 3, delay: 30)
        b.image(width: 1, height: 1, indices: [1], minimumCodeSize: 2)
        b.graphicControl(delay: 40)
        b.extensionBlock(0xF9, [[0x08, 50, 0]])    // 3 bytes: ignored
        b.image(width: 1, height: 1, indices: [1], minimumCodeSize: 2)
        b.graphicControl(delay: 60)
        b.extensionBlock(0x01, [[UInt8](repeating: 0, count: 12), Array("text".utf8)])
        b.image(width: 1, height: 1, indices: [1], minimumCodeSize: 2)
        b.image(width: 1, height: 1, indices: [1], minimumCodeSize: 2)
        b.graphicControl(delay: 70)
        b.trailer()
        let source = ImageSource(bytes: b.bytes)
        #expect(source.status == .complete && source.count == 4)
        let frames = (0..<4).compactMap { source.properties(at: $0) }
        #expect(frames.map(\.unclampedDuration) == [0.3, 0.4, 0.6, 0])
        #expect(frames.map(\.disposal) == [.previous, .none, .none, .none])
    }

    @Test func loopCounts() {
        func loop(_ build: (inout GIFBuilder) -> Void) -> Int? {
            var b = GIFBuilder(width: 1, height: 1, globalTable: Self.palette)
            build(&b)
            b.trailer()
            return ImageSource(bytes: b.bytes).properties?.loopCount
        }
        let image: (inout GIFBuilder) -> Void = { $0.image(width: 1, height: 1, indices: [1], minimumCodeSize: 2) }
        #expect(loop { image(&$0) } == 1)
        #expect(loop { $0.loop(0); image(&$0) } == 0)
        #expect(loop { $0.loop(7); image(&$0) } == 7)
        #expect(loop { $0.loop(0, identifier: "ANIMEXTS1.0"); image(&$0) } == 0)
        #expect(loop { $0.loop(2); $0.loop(3); image(&$0) } == 3)
        #expect(loop { image(&$0); $0.loop(5); image(&$0) } == 1)   // after the first image: ignored (Pillow)
        #expect(loop { $0.extensionBlock(0xFF, [Array("NETSCAPE2.0".utf8), [2, 0, 1, 0, 0]]); image(&$0) } == 1)
    }

    @Test func metadataExtensions() throws {
        var b = GIFBuilder(width: 1, height: 1, globalTable: Self.palette)
        b.comment("Hello")
        b.extensionBlock(0xFE, [Array("two ".utf8), Array("blocks".utf8)])
        let profile = (0..<600).map { UInt8($0 % 251) }
        b.extensionBlock(0xFF, [Array("ICCRGBG1012".utf8), Array(profile[0..<255]), Array(profile[255..<510]), Array(profile[510...])])
        let xmp = Array("<x:xmpmeta>é</x:xmpmeta>".utf8)
        let trailer: [UInt8] = [1] + (0...255).reversed().map { UInt8($0) }
        // XMP is stored raw: its bytes read as sub-blocks, the magic trailer closing them.
        b.append([0x21, 0xFF, 11] + Array("XMP DataXMP".utf8) + xmp + trailer + [0])
        b.extensionBlock(0xFF, [Array("UNKNOWN!1.0".utf8), [1, 2, 3]])
        b.extensionBlock(0x42, [[1, 2, 3]])
        b.image(width: 1, height: 1, indices: [1], minimumCodeSize: 2)
        b.comment("after")
        b.trailer()
        let source = ImageSource(bytes: b.bytes)
        #expect(source.status == .complete)
        let p = try #require(source.properties)
        #expect(p.iccProfile == profile)
        #expect(p.text == [TextEntry(keyword: "Comment", text: "Hello"), TextEntry(keyword: "Comment", text: "two blocks"),
                           TextEntry(keyword: "Comment", text: "after"),
                           TextEntry(keyword: "XML:com.adobe.xmp", text: "<x:xmpmeta>é</x:xmpmeta>")])
        #expect(try Self.pixels(b.bytes) == [Self.red])
    }

    @Test func metadataBeyondTheBudgetIsLeftOut() throws {
        var b = GIFBuilder(width: 1, height: 1, globalTable: Self.palette)
        b.comment(String(repeating: "a", count: 200))
        b.comment("small")
        b.image(width: 1, height: 1, indices: [1], minimumCodeSize: 2)
        b.trailer()
        var options = DecodingOptions()
        options.limits.maxMetadataBytes = 100
        let source = ImageSource(bytes: b.bytes, options: options)
        #expect(source.properties?.text == [TextEntry(keyword: "Comment", text: "small")])
        #expect(source.status == .complete)
    }

    /// A byte that starts no block ends the file as the trailer would (Chromium, Firefox).
    @Test func strayBytesEndTheFile() throws {
        var b = GIFBuilder(width: 1, height: 1, globalTable: Self.palette)
        b.image(width: 1, height: 1, indices: [1], minimumCodeSize: 2)
        b.append([0x00, 0x2C, 0xFF])
        let source = ImageSource(bytes: b.bytes)
        #expect(source.status == .complete && source.count == 1)
        #expect(try Self.pixels(b.bytes) == [Self.red])
    }

    @Test func filesWithoutImagesOrScreenAreInvalid() {
        var none = GIFBuilder(width: 1, height: 1, globalTable: Self.palette)
        none.comment("nothing")
        none.trailer()
        #expect(ImageSource(bytes: none.bytes).error == .invalidData("no image before the trailer"))
        var zero = GIFBuilder(width: 0, height: 5, globalTable: Self.palette)
        zero.image(width: 1, height: 1, indices: [1], minimumCodeSize: 2)
        zero.trailer()
        #expect(ImageSource(bytes: zero.bytes).error == .invalidData("logical screen width or height is zero"))
    }

    @Test func missingTrailer() throws {
        var b = GIFBuilder(width: 1, height: 1, globalTable: Self.palette)
        b.image(width: 1, height: 1, indices: [1], minimumCodeSize: 2)
        let source = ImageSource(bytes: b.bytes)
        #expect(source.status == .unexpectedEOF && source.status(at: 0) == .complete)
        #expect(try source.image(at: 0).isComplete)
    }

    @Test func interlacedImage() throws {
        let w = 3, h = 11
        let indices = (0..<(w * h)).map { UInt8(($0 / w) % 4) }
        var plain = GIFBuilder(width: w, height: h, globalTable: Self.palette)
        plain.image(width: w, height: h, indices: indices, minimumCodeSize: 2)
        plain.trailer()
        var interlaced = GIFBuilder(width: w, height: h, globalTable: Self.palette)
        interlaced.image(width: w, height: h, indices: indices, interlaced: true, minimumCodeSize: 2)
        interlaced.trailer()
        #expect(try Self.pixels(interlaced.bytes) == Self.pixels(plain.bytes))
        #expect(ImageSource(bytes: interlaced.bytes).properties?.isInterlaced == true)
    }

    @Test func coderSniffsBothVersions() {
        let coder = GIFCoder()
        func sniff(_ s: String) -> SniffResult { Array(s.utf8).withUnsafeBufferPointer { coder.sniff($0) } }
        #expect(sniff("GIF87a") == .match && sniff("GIF89a") == .match)
        #expect(sniff("GIF8") == .needMoreData && sniff("") == .needMoreData)
        #expect(sniff("GIF88a") == .noMatch && sniff("\u{89}PNG") == .noMatch)
        #expect(CoderRegistry.standard.coders.contains { $0.format == .gif })
    }

    @Test func outputOptionsAndThumbnails() throws {
        var b = GIFBuilder(width: 4, height: 2, globalTable: Self.palette)
        b.graphicControl(transparent: 0)
        b.image(width: 4, height: 2, indices: [1, 2, 3, 0, 1, 2, 3, 0], minimumCodeSize: 2)
        b.trailer()
        var options = DecodingOptions()
        options.byteOrder = .bgra8
        options.premultipliedAlpha = true
        let image = try ImageSource(bytes: b.bytes, options: options).image(at: 0)
        #expect(image.pixelFormat == .bgra8 && image.isPremultiplied)
        #expect(Array(image.pixels[0..<16]) == [0, 0, 255, 255, 0, 255, 0, 255, 255, 0, 0, 255, 0, 0, 0, 0])
        let thumbnail = try ImageSource(bytes: b.bytes).thumbnail(at: 0, maxPixelSize: 2)
        #expect(thumbnail.width == 2 && thumbnail.height == 1 && thumbnail.isComplete)
    }
}
