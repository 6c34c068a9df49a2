import ImageCodecs
import TestSupport
import Testing

/// Bytes arriving in pieces: frames become available as each completes, the frame in progress
/// gives a partial image (rows so far, or a preview of the passes so far), and the pixels at the
/// end never depend on the splits.
struct GIFIncrementalTests {
    static let palette: [[UInt8]] = (0..<16).map { (i: Int) -> [UInt8] in
        let v = UInt8(i * 16)
        return [v, 255 - v, UInt8(i * 5)]
    }

    /// A `width × height` image whose rows all differ.
    static func still(width: Int, height: Int, interlaced: Bool) -> [UInt8] {
        var b = GIFBuilder(width: width, height: height, globalTable: palette)
        b.image(width: width, height: height, indices: (0..<(width * height)).map { UInt8(($0 / width + $0 % 3) % 16) },
                interlaced: interlaced, minimumCodeSize: 4, subBlockSize: 7)
        b.trailer()
        return b.bytes
    }

    static func animation() -> [UInt8] {
        var model = GIFModel.random(seed: 99, frames: 6)
        model.loopCount = 0
        return model.bytes
    }

    static func rows(_ image: DecodedImage) -> [[UInt8]] {
        (0..<image.height).map { Array(image.pixels[($0 * image.bytesPerRow)..<(($0 + 1) * image.bytesPerRow)]) }
    }

    @Test func rowsArriveInOrder() throws {
        let bytes = Self.still(width: 5, height: 9, interlaced: false)
        let final = Self.rows(try ImageSource(bytes: bytes).image(at: 0))
        let source = ImageSource(incremental: .init())
        var lastFinal = 0, sawPartial = false
        for i in bytes.indices {
            source.append(bytes[i...i], final: i == bytes.count - 1)
            guard source.count > 0 else { continue }
            let image = try source.image(at: 0)
            let rows = Self.rows(image)
            #expect(image.finalRowCount >= lastFinal)
            lastFinal = image.finalRowCount
            for y in 0..<image.height {
                if y < image.finalRowCount { #expect(rows[y] == final[y], "row \(y) at byte \(i)") }
                else { #expect(rows[y].allSatisfy { $0 == 0 }, "row \(y) at byte \(i)") }
            }
            if image.finalRowCount > 0 && !image.isComplete { sawPartial = true }
        }
        #expect(sawPartial && lastFinal == 9)
    }

    /// After each of the first three passes the image is that pass's preview: every row repeats
    /// the decoded row at the top of its block (Appendix E passes of 8, 4 and 2 rows).
    @Test func interlacedPassesGivePreviews() throws {
        let bytes = Self.still(width: 4, height: 19, interlaced: true)
        let final = Self.rows(try ImageSource(bytes: bytes).image(at: 0))
        var seen: Set<Int> = []
        let source = ImageSource(incremental: .init())
        for i in bytes.indices {
            source.append(bytes[i...i], final: i == bytes.count - 1)
            guard source.count > 0 else { continue }
            let rows = Self.rows(try source.image(at: 0))
            for block in [8, 4, 2] where rows == (0..<19).map({ final[$0 - $0 % block] }) { seen.insert(block) }
        }
        #expect(seen == [8, 4, 2])
    }

    @Test func framesBecomeAvailableAsTheyComplete() throws {
        let bytes = Self.animation()
        let source = ImageSource(incremental: .init())
        var statuses: [ImageSourceStatus] = []
        var completeFrames = 0
        for i in bytes.indices {
            source.append(bytes[i...i], final: i == bytes.count - 1)
            statuses.append(source.status)
            let complete = (0..<source.count).filter { source.status(at: $0) == .complete }.count
            #expect(complete >= completeFrames)
            completeFrames = complete
            if source.count > 0 { _ = try source.image(at: source.count - 1) }
        }
        #expect(completeFrames == 6)
        #expect(statuses.first == .readingHeader && statuses.last == .complete)
        #expect(zip(statuses, statuses.dropFirst()).allSatisfy { rank($0) <= rank($1) })
        #expect(!statuses.contains(.invalidData))
    }

    func rank(_ s: ImageSourceStatus) -> Int { s == .readingHeader ? 0 : s == .incomplete ? 1 : 2 }

    @Test(arguments: [1, 2, 3, 7, 8, 4096] as [UInt64])
    func splitsGiveTheSamePixels(_ seed: UInt64) {
        for bytes in [Self.animation(), Self.still(width: 33, height: 17, interlaced: true)] {
            let whole = Decoding.whole(bytes)
            let sizes = seed == 4096 ? [4096] : Decoding.randomSizes(count: 32, max: 50, seed: seed)
            #expect(Decoding.chunked(bytes, sizes: sizes).result == whole)
            #expect(Self.fedImmediately(bytes, sizes: sizes) == whole)
        }
    }

    /// Feeds `bytes` with ``DecodingOptions/decodesImmediately`` (as `imagecodecs feed` does),
    /// asking for images only at the end.
    static func fedImmediately(_ bytes: [UInt8], sizes: [Int]) -> DecodeResult {
        var options = DecodingOptions()
        options.decodesImmediately = true
        let source = ImageSource(incremental: options)
        Decoding.feed(bytes, sizes: sizes, to: source)
        return Decoding.hashes(source)
    }

    /// Every prefix of a file: never `complete`, never a crash, and every frame's image (partial
    /// for the frame being cut) can be had.
    @Test func everyTruncation() throws {
        for bytes in [Self.animation(), Self.still(width: 6, height: 10, interlaced: true)] {
            for length in 0..<bytes.count {
                let source = ImageSource(bytes: bytes[0..<length])
                #expect([.unexpectedEOF, .unknownType].contains(source.status), "cut at \(length)")
                for index in 0..<source.count { _ = try source.image(at: index) }
            }
        }
    }
}
