import ImageCodecs
import TestSupport
import Testing

/// Raw frames while the bytes arrive: partial frames whose final rows are already those of the
/// whole file, statuses, a cut file, and composition left as it was.
struct RawFrameIncrementalTests {
    /// An animation of each kind: GIF (plain and interlaced), APNG, lossless and lossy WebP.
    static let animations = [
        "gif/gs-dispose-previous-32x24.gif", "gif/gs-interlaced-O2-40x30.gif", "apng/asm-large-200x150.png",
        "apng/pil-mixed-40x40.png", "webp/anim-mux-random3-32x24.webp", "webp/anim-gif2webp-lossy-minsize-40x30.webp",
    ]

    static func wholeRawFrames(_ bytes: [UInt8]) throws -> [RawFrame] {
        let source = ImageSource(bytes: bytes)
        return try (0..<source.count).map { try source.rawFrame(at: $0) }
    }

    /// Rows `0..<rows` of two images of the same layout.
    static func finalRows(_ a: DecodedImage, _ b: DecodedImage, _ rows: Int) -> Bool {
        a.width == b.width && a.height == b.height && a.pixels.prefix(rows * a.bytesPerRow) == b.pixels.prefix(rows * b.bytesPerRow)
    }

    /// Fed in uneven chunks, asking for every known frame's raw pixels after each append: each
    /// partial frame has its rectangle's size and the whole file's final rows, is `incomplete`
    /// until its data has arrived, and the frames end equal to the whole file's.
    @Test(arguments: animations)
    func partialFramesGrowIntoTheWholeOnes(_ name: String) throws {
        let bytes = try ImageSourceTests.fixture(name)
        let whole = try Self.wholeRawFrames(bytes)
        let source = ImageSource(incremental: .init())
        var offset = 0, step = 0
        let sizes = Decoding.randomSizes(count: 64, max: max(8, bytes.count / 12), seed: 20)
        while offset < bytes.count {
            let end = min(bytes.count, offset + sizes[step % sizes.count])
            source.append(bytes[offset..<end], final: end == bytes.count)
            (offset, step) = (end, step + 1)
            for index in 0..<source.count {
                let raw = try source.rawFrame(at: index)
                let expected = whole[index]
                #expect(raw.properties == expected.properties, "\(name) frame \(index) at \(end)")
                #expect(Self.finalRows(raw.image, expected.image, raw.image.finalRowCount), "\(name) frame \(index) at \(end)")
                #expect(raw.status == .complete || raw.status == .incomplete)
                #expect(raw.status != .complete || raw.image.isComplete, "\(name) frame \(index) at \(end)")
            }
        }
        #expect(try (0..<source.count).map { try source.rawFrame(at: $0) } == whole)
    }

    /// A file cut in its last 64 bytes, at each of them: the last frame has the status
    /// `status(at:)` gives, `unexpectedEOF` when it is partial (as it is at some cut), and the
    /// final rows of the whole file; the frames before it are whole.
    @Test(arguments: animations)
    func cutFrameIsUnexpectedEOF(_ name: String) throws {
        let bytes = try ImageSourceTests.fixture(name)
        let whole = try Self.wholeRawFrames(bytes)
        var partial = 0
        for cut in 1...64 {
            let source = ImageSource(bytes: bytes.prefix(bytes.count - cut))
            guard source.count == whole.count else { break }
            let last = source.count - 1
            let raw = try source.rawFrame(at: last)
            #expect(raw.status == source.status(at: last), "\(name) cut \(cut)")
            #expect(Self.finalRows(raw.image, whole[last].image, raw.image.finalRowCount), "\(name) cut \(cut)")
            if !raw.image.isComplete {
                #expect(raw.status == .unexpectedEOF, "\(name) cut \(cut)")
                partial += 1
            }
            for index in 0..<last { #expect(try source.rawFrame(at: index) == whole[index], "\(name) frame \(index)") }
        }
        #expect(partial > 0)
    }

    /// Raw frames asked for between composed ones, in any order, leave composition as it was.
    @Test(arguments: animations)
    func compositionIsLeftAlone(_ name: String) throws {
        let bytes = try ImageSourceTests.fixture(name)
        let composed = Decoding.whole(bytes).frames
        let whole = try Self.wholeRawFrames(bytes)
        let source = ImageSource(bytes: bytes)
        for index in 0..<source.count {
            #expect(try source.rawFrame(at: source.count - 1 - index) == whole[source.count - 1 - index])
            let image = try source.image(at: index)
            #expect("\(image.width)x\(image.height) \(CanonicalHash.hex(image))" == composed[index], "\(name) frame \(index)")
            #expect(try source.rawFrame(at: index) == whole[index])
        }
    }

    /// While a frame arrives, its raw pixels and the composed canvas are asked for in turn: both
    /// resume, and both end as a whole decode's.
    @Test(arguments: animations)
    func rawAndComposedTakeTurnsDuringADownload(_ name: String) throws {
        let bytes = try ImageSourceTests.fixture(name)
        let composed = Decoding.whole(bytes).frames
        let source = ImageSource(incremental: .init())
        for start in stride(from: 0, to: bytes.count, by: 97) {
            let end = min(bytes.count, start + 97)
            source.append(bytes[start..<end], final: end == bytes.count)
            guard source.count > 0 else { continue }
            _ = try source.rawFrame(at: source.count - 1)
            _ = try source.image(at: source.count - 1)
        }
        #expect(Decoding.hashes(source).frames == composed)
        #expect(try (0..<source.count).map { try source.rawFrame(at: $0) } == Self.wholeRawFrames(bytes))
    }
}
