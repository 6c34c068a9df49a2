import ImageCodecs
import Testing
@testable import GIFCodec

/// The LZW decoder (GIF89a Appendix F) on its own and through whole files: every code size,
/// the table-full and KwKwK cases, and the broken streams browsers meet.
struct LZWTests {
    /// Decodes `stream` with the LZW decoder alone, `chunk` input bytes per call.
    static func decode(_ stream: [UInt8], minimumCodeSize: Int, count: Int, chunk: Int = .max) -> ([UInt8], LZWDecoder.Outcome) {
        var decoder = LZWDecoder(minimumCodeSize: minimumCodeSize)
        var out = [UInt8](repeating: 0, count: count + LZWDecoder.outputSlack)
        var fill = 0, position = 0
        while fill < count {
            let end = min(stream.count, position &+ chunk)
            let used = stream.withUnsafeBufferPointer { s in
                out.withUnsafeMutableBufferPointer { o in
                    decoder.decode(UnsafeBufferPointer(rebasing: s[position..<end]), into: o.baseAddress!, base: 0, fill: &fill, limit: count)
                }
            }
            position += used
            if decoder.outcome != .running || (used == 0 && position == stream.count) { break }
        }
        return (Array(out[0..<min(fill, count)]), decoder.outcome)
    }

    static func pseudoRandom(_ count: Int, seed: UInt64, below: Int) -> [UInt8] {
        var state = seed | 1
        return (0..<count).map { _ in
            state ^= state << 13; state ^= state >> 7; state ^= state << 17
            return UInt8(truncatingIfNeeded: Int(state % UInt64(below)))
        }
    }

    @Test(arguments: 0...8)
    func roundTripsEveryCodeSize(_ size: Int) {
        let below = 1 << size
        let patterns: [[UInt8]] = [
            Self.pseudoRandom(5000, seed: UInt64(size) + 1, below: max(1, below)),
            [UInt8](repeating: UInt8(below - 1), count: 3000),                     // KwKwK runs
            (0..<4000).map { UInt8(($0 / 7) % max(1, below)) },
        ]
        for pixels in patterns {
            let stream = ReferenceLZWEncoder.encode(pixels, minimumCodeSize: size)
            let (out, outcome) = Self.decode(stream, minimumCodeSize: size, count: pixels.count + 1)
            #expect(out == pixels && outcome == .endCode, "size \(size)")
            let (slow, _) = Self.decode(stream, minimumCodeSize: size, count: pixels.count + 1, chunk: 1)
            #expect(slow == pixels, "size \(size), byte by byte")
        }
    }

    /// A table that fills without a clear code keeps decoding with 12-bit codes and adds no
    /// entries ("deferred clear").
    @Test func deferredClear() {
        let pixels = Self.pseudoRandom(60_000, seed: 42, below: 256)
        let stream = ReferenceLZWEncoder.encode(pixels, minimumCodeSize: 8, deferredClear: true)
        let (out, outcome) = Self.decode(stream, minimumCodeSize: 8, count: pixels.count + 1)
        #expect(out == pixels && outcome == .endCode)
        let normal = ReferenceLZWEncoder.encode(pixels, minimumCodeSize: 8)
        #expect(normal != stream)
    }

    /// Codes written by hand: `(code, width)` pairs, least significant bit first.
    static func pack(_ codes: [(Int, Int)]) -> [UInt8] {
        var out: [UInt8] = [], buffer = 0, count = 0
        for (code, width) in codes {
            buffer |= code << count
            count += width
            while count >= 8 { out.append(UInt8(buffer & 0xFF)); buffer >>= 8; count -= 8 }
        }
        if count > 0 { out.append(UInt8(buffer & 0xFF)) }
        return out
    }

    @Test func kwkwkAndItsInvalidForms() {
        // clear, 1, 6 (= next free: "1 1"), 7 (= next free: "1 1 1"), end; code size 2 (3-bit codes).
        let good = Self.pack([(4, 3), (1, 3), (6, 3), (7, 3), (5, 4)])
        #expect(Self.decode(good, minimumCodeSize: 2, count: 10).0 == [1, 1, 1, 1, 1, 1])
        // The next free code right after a clear has no previous string.
        let first = Self.pack([(4, 3), (6, 3)])
        #expect(Self.decode(first, minimumCodeSize: 2, count: 10).1 == .invalidCode)
        // A code past the next free entry.
        let beyond = Self.pack([(4, 3), (1, 3), (7, 3)])
        #expect(Self.decode(beyond, minimumCodeSize: 2, count: 10) == ([1], .invalidCode))
    }

    /// The code width grows right after a clear when the next free entry no longer fits
    /// (code size 1: entries start at 4 = 2^2, so the second code is 3 bits), as giflib and Wuffs read it.
    @Test func codeSizeOneWidensAfterTheFirstCode() {
        let stream = Self.pack([(2, 2), (1, 2), (0, 3), (4, 3), (3, 3)])
        #expect(Self.decode(stream, minimumCodeSize: 1, count: 10) == ([1, 0, 1, 0], .endCode))
    }

    // MARK: Through whole files

    static func file(_ data: [UInt8], width: Int = 2, height: Int = 2, size: Int = 2) -> [UInt8] {
        var b = GIFBuilder(width: width, height: height, globalTable: [[0, 0, 0], [255, 0, 0], [0, 255, 0], [0, 0, 255]])
        b.image(width: width, height: height, minimumCodeSize: size, data: data)
        b.trailer()
        return b.bytes
    }

    static func pixels(_ bytes: [UInt8]) throws -> [UInt8] {
        try ImageSource(bytes: bytes).image(at: 0).pixels
    }

    @Test func missingEndCodeIsAccepted() throws {
        let data = ReferenceLZWEncoder.encode([0, 1, 2, 3], minimumCodeSize: 2, endCode: false)
        #expect(try Self.pixels(Self.file(data)) == [0, 0, 0, 255, 255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255])
    }

    @Test func missingClearCodeIsAccepted() throws {
        let data = ReferenceLZWEncoder.encode([3, 2, 1, 0], minimumCodeSize: 2, clearFirst: false)
        #expect(try Self.pixels(Self.file(data)).count == 16)
    }

    /// Pixels past the image's last one are ignored, valid LZW or not.
    @Test func extraPixelsAreIgnored() throws {
        let expected = try Self.pixels(Self.file(ReferenceLZWEncoder.encode([0, 1, 2, 3], minimumCodeSize: 2)))
        let more = ReferenceLZWEncoder.encode([0, 1, 2, 3, 3, 2, 1, 0, 1], minimumCodeSize: 2)
        #expect(try Self.pixels(Self.file(more)) == expected)
        let garbage = ReferenceLZWEncoder.encode([0, 1, 2, 3], minimumCodeSize: 2, endCode: false) + [0xFF, 0xFF, 0xFF]
        #expect(try Self.pixels(Self.file(garbage)) == expected)
    }

    @Test func brokenStreamsAreErrors() {
        let early = ReferenceLZWEncoder.encode([0, 1], minimumCodeSize: 2)
        #expect(throws: DecodingError.invalidData("LZW end code before the last pixel")) {
            try Self.pixels(Self.file(early))
        }
        // (The padding bits of the last byte may add one more code; 9 pixels are far off.)
        let short = ReferenceLZWEncoder.encode([0, 1, 2], minimumCodeSize: 2, endCode: false)
        #expect(throws: DecodingError.invalidData("image data ends before the last pixel")) {
            try Self.pixels(Self.file(short, width: 3, height: 3))
        }
        #expect(throws: DecodingError.invalidData("LZW code is beyond the code table")) {
            try Self.pixels(Self.file(Self.pack([(4, 3), (1, 3), (7, 3)])))
        }
        #expect(throws: DecodingError.invalidData("image data ends before the last pixel")) {
            try Self.pixels(Self.file([]))
        }
        // The error belongs to the frame: the file itself was read to its trailer.
        let source = ImageSource(bytes: Self.file(early))
        #expect(throws: DecodingError.invalidData("LZW end code before the last pixel")) { try source.image(at: 0) }
        #expect(throws: DecodingError.invalidData("LZW end code before the last pixel")) { try source.image(at: 0) }
        #expect(source.status == .complete)
    }

    /// Minimum code sizes above 8 are refused (giflib and Wuffs refuse them).
    @Test(arguments: [9, 11, 12, 255])
    func largeCodeSizesAreRefused(_ size: Int) {
        let source = ImageSource(bytes: Self.file([0x00], size: size))
        #expect(throws: DecodingError.invalidData("LZW minimum code size exceeds 8")) { try source.image(at: 0) }
    }

    @Test(arguments: [0, 1, 2, 8])
    func smallCodeSizesDecode(_ size: Int) throws {
        let indices: [UInt8] = [0, 1, 1, 0].map { $0 & UInt8((1 << size) - 1) }
        let data = ReferenceLZWEncoder.encode(indices, minimumCodeSize: size)
        let pixels = try Self.pixels(Self.file(data, size: size))
        let red: [UInt8] = [255, 0, 0, 255], black: [UInt8] = [0, 0, 0, 255]
        let expected = indices.flatMap { $0 == 1 ? red : black }
        #expect(pixels == expected)
    }

    /// An image far larger than the decoder's output window (strings copied from the window,
    /// or walked once they have left it), with and without clear codes, in tiny sub-blocks.
    @Test func largeImageAcrossTheWindow() throws {
        let width = 700, height = 400
        var rng = SplitMix(seed: 11)
        var indices: [UInt8] = []
        while indices.count < width * height {
            let run = rng.next(1...300), value = UInt8(rng.next(0...255))
            if rng.next(0...1) == 0 {
                indices += [UInt8](repeating: value, count: run)
            } else {
                for _ in 0..<run { indices.append(UInt8(rng.next(0...255))) }
            }
        }
        indices = Array(indices[0..<(width * height)])
        let palette: [[UInt8]] = (0..<256).map { (i: Int) -> [UInt8] in [UInt8(i), UInt8(255 - i), UInt8((i * 7) & 255)] }
        var expected: [UInt8] = []
        for i in indices { expected += palette[Int(i)] + [255] }
        for (deferred, blockSize) in [(false, 255), (true, 255), (true, 3)] {
            var b = GIFBuilder(width: width, height: height, globalTable: palette)
            b.image(width: width, height: height, minimumCodeSize: 8,
                    data: ReferenceLZWEncoder.encode(indices, minimumCodeSize: 8, deferredClear: deferred), subBlockSize: blockSize)
            b.trailer()
            #expect(try Self.pixels(b.bytes) == expected, "deferred \(deferred), sub-blocks of \(blockSize)")
        }
    }
}
