@testable import PNGCodec
import CZlib
import ImageCodecs
import TestSupport
import Testing

/// Adler-32 in vector lanes against RFC 1950 byte by byte and against zlib; the inflater's own
/// check of the trailer against zlib's verdicts.
struct Adler32Tests {
    static func bytes(_ count: Int, seed: UInt64) -> [UInt8] {
        var state = seed | 1
        return (0..<count).map { _ in
            state ^= state << 13; state ^= state >> 7; state ^= state << 17
            return UInt8(truncatingIfNeeded: state)
        }
    }

    @Test func lanesEqualTheScalarTwinAndZlib() {
        let lengths = [0, 1, 15, 16, 17, 255, 5535, 5536, 5537, 11_072, 100_003]
        for (i, length) in lengths.enumerated() {
            for data in [Self.bytes(length, seed: UInt64(i + 1)), [UInt8](repeating: 255, count: length)] {
                var lanes = Adler32(), scalar = Adler32()
                data.withUnsafeBufferPointer {
                    lanes.update($0)
                    scalar.scalarUpdate($0)
                }
                let zlib = data.withUnsafeBufferPointer { adler32(1, $0.baseAddress, UInt32($0.count)) }
                #expect(lanes.value == scalar.value && UInt(lanes.value) == zlib, "\(length) bytes")
            }
        }
    }

    @Test func piecesEqualWhole() {
        let data = Self.bytes(40_000, seed: 9)
        var whole = Adler32(), pieces = Adler32()
        data.withUnsafeBufferPointer { whole.update($0) }
        var start = 0
        for size in Decoding.randomSizes(count: 200, max: 7000, seed: 3) where start < data.count {
            let end = min(data.count, start + size)
            data[start..<end].withUnsafeBufferPointer { pieces.update($0) }
            start = end
        }
        #expect(pieces.value == whole.value)
    }

    /// The stream's bytes with its Adler-32 trailer changed when `corrupt`.
    static func stream(_ data: [UInt8], corrupt: Bool) -> [UInt8] {
        var z = PNGBuilder.deflate(data)
        if corrupt { z[z.count - 1] ^= 0x01 }
        return z
    }

    /// Inflates `z` handed over `step` bytes at a time (what a call leaves unread comes again
    /// with the next piece): all output, the first error, whether the stream finished.
    static func inflate(_ z: [UInt8], step: Int, ignoresChecksum: Bool = false) throws
        -> (output: [UInt8], error: DecodingError?, finished: Bool) {
        let inflater = try Inflater(ignoresChecksum: ignoresChecksum)
        var output: [UInt8] = [], pending: [UInt8] = []
        var room = [UInt8](repeating: 0, count: 4096)
        for start in stride(from: 0, to: z.count, by: step) {
            pending += z[start..<min(z.count, start + step)]
            while !pending.isEmpty {
                let (consumed, produced, error) = pending.withUnsafeBufferPointer { src in
                    room.withUnsafeMutableBufferPointer { inflater.inflate(src, into: $0) }
                }
                output += room[0..<produced]
                pending.removeFirst(consumed)
                if let error { return (output, error, inflater.finished) }
                if inflater.finished || (consumed == 0 && produced == 0) { break }
            }
        }
        return (output, nil, inflater.finished)
    }

    /// All output, then the error at the trailer, fed whole and in pieces; nothing is checked
    /// when asked to ignore checksums.
    @Test func trailerMismatchIsZlibsError() throws {
        let data = Self.bytes(70_000, seed: 4)
        for corrupt in [false, true] {
            let z = Self.stream(data, corrupt: corrupt)
            for step in [z.count, 1, 997] {
                let result = try Self.inflate(z, step: step)
                #expect(result.output == data, "corrupt \(corrupt) step \(step)")
                #expect(result.error == (corrupt ? .invalidData("zlib stream is corrupt") : nil), "corrupt \(corrupt) step \(step)")
                #expect(result.finished == !corrupt)
            }
            let ignoring = try Self.inflate(z, step: z.count, ignoresChecksum: true)
            #expect(ignoring.error == nil && ignoring.finished && ignoring.output == data)
        }
    }

    /// In a PNG, the verdicts zlib's own check gave (this test passed with it): a bad trailer
    /// after the last row changes nothing; image data that ends before the last row is
    /// `zlib stream is corrupt` when the trailer is bad and bytes follow it in the IDAT (zlib's
    /// error is thrown when more input is read), and `image data ends before the last row`
    /// when the trailer is good or is the last byte.
    @Test func pngVerdicts() {
        func png(rows: Int, corrupt: Bool, trailing: [UInt8] = []) -> [UInt8] {
            var b = PNGBuilder()
            b.chunk("IHDR", PNGBuilder.ihdr(width: 64, height: 8))
            var raw: [UInt8] = []
            for _ in 0..<rows { raw += [0] + Self.bytes(256, seed: UInt64(raw.count + 1)) }
            b.chunk("IDAT", Self.stream(raw, corrupt: corrupt) + trailing)
            b.chunk("IEND", [])
            return b.bytes
        }
        let ends = DecodingError.invalidData("image data ends before the last row")
        #expect(Decoding.whole(png(rows: 8, corrupt: true)).status == .complete)
        #expect(Decoding.whole(png(rows: 5, corrupt: true, trailing: [0, 0])).error == .invalidData("zlib stream is corrupt"))
        #expect(Decoding.whole(png(rows: 5, corrupt: false, trailing: [0, 0])).error == ends)
        #expect(Decoding.whole(png(rows: 5, corrupt: true)).error == ends)
        for sizes in [[1], [7, 300]] {
            #expect(Decoding.chunked(png(rows: 5, corrupt: true, trailing: [0, 0]), sizes: sizes).result.error
                == .invalidData("zlib stream is corrupt"))
            #expect(Decoding.chunked(png(rows: 8, corrupt: true), sizes: sizes).result.status == .complete)
        }
    }
}
