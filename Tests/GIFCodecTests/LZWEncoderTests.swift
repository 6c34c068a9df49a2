import Testing
@testable import GIFCodec

/// The LZW encoder (GIF89a Appendix F) against the LZW decoder: random data of every minimum
/// code size, long enough for many table-full clear codes, and the sub-block framing of §15.
struct LZWEncoderTests {
    /// The image data block for `indices`: code size byte, sub-blocks, terminator.
    static func encode(_ indices: [UInt8], minimumCodeSize: Int) -> [UInt8] {
        var out: [UInt8] = []
        indices.withUnsafeBufferPointer { LZWEncoder.encode($0, minimumCodeSize: minimumCodeSize, into: &out) }
        return out
    }

    /// The LZW stream inside sub-blocks, checking each block's size byte (1…255, then 0).
    static func unblock(_ data: [UInt8]) -> [UInt8]? {
        var i = 1, out: [UInt8] = []
        while i < data.count {
            let n = Int(data[i])
            if n == 0 { return i == data.count - 1 ? out : nil }
            guard i + n < data.count else { return nil }
            out += data[(i + 1)...(i + n)]
            i += n + 1
        }
        return nil
    }

    @Test(arguments: 2...8)
    func roundTripsRandomData(_ size: Int) throws {
        let below = 1 << size
        let runs = (0..<50_000).map { UInt8(($0 / 13 + $0 / 1000) % below) }
        for pixels in [LZWTests.pseudoRandom(70_000, seed: UInt64(size), below: below), runs, [], [UInt8(below - 1)],
                       [UInt8](repeating: 0, count: 100_000)] {
            let data = Self.encode(pixels, minimumCodeSize: size)
            #expect(data.first == UInt8(size))
            let stream = try #require(Self.unblock(data), "sub-blocks, size \(size)")
            let (out, outcome) = LZWTests.decode(stream, minimumCodeSize: size, count: pixels.count + 1)
            #expect(out == pixels && outcome == .endCode, "size \(size), \(pixels.count) pixels")
            let (slow, _) = LZWTests.decode(stream, minimumCodeSize: size, count: pixels.count + 1, chunk: 1)
            #expect(slow == pixels, "size \(size), byte by byte")
        }
    }

    /// Random 8-bit data fills the 4096-entry table every ~4000 codes: clear codes are written
    /// (the stream is as long as the reference encoder's, which clears at the same point).
    @Test func clearsWhenTheTableFills() throws {
        let pixels = LZWTests.pseudoRandom(200_000, seed: 9, below: 256)
        let stream = try #require(Self.unblock(Self.encode(pixels, minimumCodeSize: 8)))
        #expect(stream == ReferenceLZWEncoder.encode(pixels, minimumCodeSize: 8))
        #expect(LZWTests.decode(stream, minimumCodeSize: 8, count: pixels.count + 1).0 == pixels)
    }

    /// Where a pixel may take either of two indices, the decoded pixel is one of them.
    @Test(arguments: [2, 4, 8])
    func alternatesDecodeToOneOfTheTwo(_ size: Int) throws {
        let below = 1 << size
        let n = 60_000
        let primary = (0..<n).map { UInt8(($0 / 5 + $0 / 777) % below) }
        let noise = LZWTests.pseudoRandom(n, seed: UInt64(size) + 3, below: below)
        let flexible = LZWTests.pseudoRandom(n, seed: 77, below: 3)
        let alternates = (0..<n).map { flexible[$0] == 0 ? noise[$0] : primary[$0] }
        var data: [UInt8] = []
        primary.withUnsafeBufferPointer { p in
            alternates.withUnsafeBufferPointer { a in LZWEncoder.encode(p, alternates: a, minimumCodeSize: size, into: &data) }
        }
        let stream = try #require(Self.unblock(data))
        let (out, outcome) = LZWTests.decode(stream, minimumCodeSize: size, count: n + 1)
        #expect(outcome == .endCode && out.count == n)
        let wrong = (0..<min(n, out.count)).filter { out[$0] != primary[$0] && out[$0] != alternates[$0] }
        #expect(wrong.isEmpty, "size \(size): \(wrong.count) pixels, first \(wrong.first ?? -1)")
    }

    @Test func minimumCodeSizes() {
        #expect([1, 2, 3, 4, 5, 16, 17, 129, 256].map { LZWEncoder.minimumCodeSize(colorCount: $0) } == [2, 2, 2, 2, 3, 4, 5, 8, 8])
    }
}
