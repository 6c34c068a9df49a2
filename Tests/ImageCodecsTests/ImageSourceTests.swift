import ImageCodecs
import TestSupport
import Testing

/// ImageSource's contract: statuses, cumulative updates, the coder registry, thumbnails.
struct ImageSourceTests {
    static func fixture(_ name: String) throws -> [UInt8] {
        try Corpus.bytes(Corpus.conformance.appendingPathComponent("fixtures/\(name)"))
    }

    static let interlaced = "png/rgba8-64x64-i.png"
    static let animated = "apng/pil-mixed-40x40.png"

    @Test func statusesFollowTheBytes() throws {
        let bytes = try Self.fixture(Self.interlaced)
        let source = ImageSource(incremental: .init())
        #expect(source.status == .readingHeader)
        source.append(bytes[0..<4], final: false)
        #expect(source.status == .readingHeader && source.format == nil)
        source.append(bytes[4..<8], final: false)
        #expect(source.status == .readingHeader && source.format == .png)
        source.append(bytes[8..<40], final: false)
        #expect(source.status == .incomplete && source.properties?.width == 64)
        source.append(bytes[40..<(bytes.count - 1)], final: false)
        #expect(source.status == .incomplete && source.status(at: 0) == .complete)
        source.append(bytes[(bytes.count - 1)...], final: true)
        #expect(source.status == .complete)
        #expect(source.status(at: 1) == .invalidData)
    }

    @Test func truncatedFinalInputIsUnexpectedEOFWithPartialImage() throws {
        let bytes = try Self.fixture("png/rgb8-64x64.png")
        let source = ImageSource(bytes: bytes[0..<(bytes.count / 2)])
        #expect(source.status == .unexpectedEOF)
        let image = try source.image(at: 0)
        #expect(image.finalRowCount > 0 && image.finalRowCount < 64)
    }

    @Test func cumulativeUpdatesEqualAppends() throws {
        let bytes = try Self.fixture(Self.animated)
        let source = ImageSource(incremental: .init())
        for end in stride(from: 0, through: bytes.count, by: 50) + [bytes.count] {
            source.update(data: bytes[0..<end], final: end == bytes.count)
        }
        #expect(Decoding.hashes(source) == Decoding.whole(bytes))
    }

    @Test func interlacedPartialImageIsAPreview() throws {
        let bytes = try Self.fixture(Self.interlaced)
        let whole = try ImageSource(bytes: bytes).image(at: 0)
        let source = ImageSource(incremental: .init())
        source.append(bytes[0..<(bytes.count * 2 / 3)], final: false)
        let partial = try source.image(at: 0)
        #expect(partial.finalRowCount == 0 && partial.width == 64)
        // The top-left pixel of the first 8×8 tile is pass 1's and is already exact.
        #expect(partial.pixels[0..<4] == whole.pixels[0..<4])
        #expect(partial.pixels.contains { $0 != 0 })
    }

    struct FakeCoder: ImageCoder {
        let format = ImageFormat(rawValue: "fake-png")
        func sniff(_ prefix: UnsafeBufferPointer<UInt8>) -> SniffResult {
            .comparing(prefix, with: [0x89, 0x50])
        }
        func makeDecoder(options: DecodingOptions) -> any ImageDecoding { PNGCoder().makeDecoder(options: options) }
    }

    @Test func registeredCoderWinsAndDisabledFormatsAreNeverDecoded() throws {
        let bytes = try Self.fixture("png/rgb8-64x64.png")
        var registry = CoderRegistry.standard
        registry.register(FakeCoder())
        #expect(ImageSource(bytes: bytes, registry: registry).format == ImageFormat(rawValue: "fake-png"))
        var pngOff = CoderRegistry.standard
        pngOff.enabledFormats = [.gif]
        #expect(ImageSource(bytes: bytes, registry: pngOff).status == .unknownType)
        #expect(ImageSource(bytes: [1, 2, 3, 4, 5, 6, 7, 8, 9]).status == .unknownType)
    }

    @Test func thumbnailFitsAndIsStreamed() throws {
        let bytes = try Self.fixture("png/rgb8-64x64.png")
        let source = ImageSource(bytes: bytes)
        let thumb = try source.thumbnail(at: 0, maxPixelSize: 16)
        #expect(thumb.width == 16 && thumb.height == 16 && thumb.isComplete)
        let full = try source.image(at: 0).rgba8Raster()
        let shrunk = StreamingResampler.resample(full, toWidth: 16, height: 16)
        #expect(thumb.pixels == shrunk.pixels)
        #expect(try source.thumbnail(at: 0, maxPixelSize: 500).width == 64)
    }

    @Test func randomAccessEqualsSequential() throws {
        let bytes = try Self.fixture(Self.animated)
        let sequential = Decoding.whole(bytes).frames
        let source = ImageSource(bytes: bytes)
        for index in (0..<source.count).reversed() {
            let image = try source.image(at: index)
            #expect("\(image.width)x\(image.height) \(CanonicalHash.hex(image))" == sequential[index])
        }
    }

    /// Asking for a frame still arriving, then for earlier ones, gives the earlier frames whole.
    @Test func earlierFramesAfterAPartialOne() throws {
        let bytes = try Self.fixture(Self.animated)
        let sequential = Decoding.whole(bytes).frames
        for cut in stride(from: bytes.count / 4, to: bytes.count, by: bytes.count / 4) {
            let source = ImageSource(incremental: .init())
            source.append(bytes[0..<cut], final: false)
            guard source.count > 1 else { continue }
            _ = try source.image(at: source.count - 1)
            for index in (0..<(source.count - 1)).reversed() where source.status(at: index) == .complete {
                let image = try source.image(at: index)
                #expect("\(image.width)x\(image.height) \(CanonicalHash.hex(image))" == sequential[index], "cut \(cut) frame \(index)")
            }
        }
    }

    @Test func concurrentReadersWhileAppending() async throws {
        let bytes = try Self.fixture(Self.animated)
        let source = ImageSource(incremental: .init())
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                for start in stride(from: 0, to: bytes.count, by: 64) {
                    let end = min(bytes.count, start + 64)
                    source.append(bytes[start..<end], final: end == bytes.count)
                }
            }
            for _ in 0..<3 {
                group.addTask {
                    for _ in 0..<200 {
                        _ = source.status
                        let n = source.count
                        if n > 0 { _ = try? source.image(at: n - 1) }
                    }
                }
            }
        }
        #expect(Decoding.hashes(source) == Decoding.whole(bytes))
    }
}
