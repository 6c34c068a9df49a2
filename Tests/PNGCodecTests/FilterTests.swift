@testable import PNGCodec
import CodecCore
import Testing

struct FilterTests {
    /// Bytes from a seeded xorshift generator, with the row padding the decoder allocates.
    static func randomRow(_ count: Int, seed: UInt64) -> [UInt8] {
        var state = seed | 1
        return (0..<(count + PNGFilter.rowPadding)).map { _ in
            state ^= state << 13; state ^= state >> 7; state ^= state << 17
            return UInt8(truncatingIfNeeded: state)
        }
    }

    @Test(arguments: [3, 4])
    func paethSIMDEqualsScalarTwin(stride: Int) {
        for (seed, pixels) in [(1, 1), (2, 2), (3, 17), (4, 1000)] as [(UInt64, Int)] {
            let count = pixels * stride
            let previous = Self.randomRow(count, seed: seed)
            var scalar = Self.randomRow(count, seed: seed + 100)
            var simd = scalar
            previous.withUnsafeBufferPointer { prev in
                scalar.withUnsafeMutableBufferPointer { PNGFilter.paeth($0.baseAddress!, prev.baseAddress!, count: count, stride: stride) }
                simd.withUnsafeMutableBufferPointer { PNGFilter.paethSIMD($0.baseAddress!, prev.baseAddress!, count: count, stride: stride) }
            }
            #expect(simd == scalar, "stride \(stride), \(pixels) pixels")
        }
    }

    /// The predictor of §9.4 against its definition, over every (a, b, c) on a grid.
    @Test func predictorMatchesDefinition() {
        for a in stride(from: 0, through: 255, by: 17) {
            for b in stride(from: 0, through: 255, by: 15) {
                for c in stride(from: 0, through: 255, by: 5) {
                    let p = a + b - c, pa = abs(p - a), pb = abs(p - b), pc = abs(p - c)
                    let expected = pa <= pb && pa <= pc ? a : (pb <= pc ? b : c)
                    #expect(Int(PNGFilter.predictor(Int16(a), Int16(b), Int16(c))) == expected)
                }
            }
        }
    }

    @Test func filterTypeAboveFourIsRefused() {
        var row: [UInt8] = [1, 2, 3, 4] + [UInt8](repeating: 0, count: PNGFilter.rowPadding)
        let prev = row
        row.withUnsafeMutableBufferPointer { r in
            prev.withUnsafeBufferPointer { p in
                #expect(throws: DecodingError.invalidData("filter type is above 4")) {
                    try PNGFilter.unfilter(type: 5, row: r.baseAddress!, previous: p.baseAddress!, count: 4, stride: 1)
                }
            }
        }
    }
}
