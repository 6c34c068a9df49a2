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
        for (seed, count) in [(1, 1), (2, 2 * stride), (3, 17 * stride), (4, 1000 * stride), (5, 61), (6, 2)] as [(UInt64, Int)] {
            let pixels = count / stride
            let previous = Self.randomRow(count, seed: seed)
            var scalar = Self.randomRow(count, seed: seed + 100)
            var simd = scalar
            previous.withUnsafeBufferPointer { prev in
                scalar.withUnsafeMutableBufferPointer { PNGFilter.paeth($0.baseAddress!, prev.baseAddress!, count: count, stride: stride) }
                simd.withUnsafeMutableBufferPointer { PNGFilter.paethSIMD($0.baseAddress!, prev.baseAddress!, count: count, stride: stride) }
            }
            #expect(simd == scalar, "stride \(stride), \(count) bytes (\(pixels) whole pixels)")
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

    /// Two Paeth rows at once equal the scalar twin row after row, for widths around the
    /// pair's prologue and epilogue; the padding past the rows is left as it was.
    @Test(arguments: [3, 4])
    func paethPairEqualsScalarTwin(stride: Int) {
        for (seed, pixels) in [(1, 1), (2, 3), (3, 4), (4, 5), (5, 17), (6, 1000)] as [(UInt64, Int)] {
            let count = pixels * stride, length = count + 1
            let previous = Self.randomRow(count, seed: seed)
            let rows = Self.randomRow(2 * length, seed: seed + 100)
            var scalar = rows, pair = rows
            previous.withUnsafeBufferPointer { prev in
                scalar.withUnsafeMutableBufferPointer {
                    PNGFilter.paeth($0.baseAddress! + 1, prev.baseAddress!, count: count, stride: stride)
                    PNGFilter.paeth($0.baseAddress! + length + 1, $0.baseAddress! + 1, count: count, stride: stride)
                }
                pair.withUnsafeMutableBufferPointer {
                    PNGFilter.paethPair($0.baseAddress! + 1, prev.baseAddress!, rowLength: length, count: count, stride: stride)
                }
            }
            #expect(pair == scalar, "stride \(stride), \(pixels) pixels")
        }
    }

    /// The thresholds of the SIMD Paeth against §9.4 for every (b, c), and for each the values
    /// of a on both sides of every point where the choice can change (t = 3c − 2b, b, c and the
    /// midpoint of b and t), and the ends; the form was checked for all 2^24 (a, b, c) when it
    /// was derived.
    @Test func paethThresholdsMatchThePredictorEverywhere() {
        var mismatches = 0
        for b in 0..<256 {
            for c in 0..<256 {
                let t = 3 * c - 2 * b, m = 3 * c - b
                let points = [0, 255, t - 1, t, t + 1, b - 1, b + 1, c - 1, c, c + 1, m >> 1, (m >> 1) + 1, (m + 1) >> 1,
                              ((m + 1) >> 1) - 1, b, 128]
                for half in [points[0..<8], points[8..<16]] {
                    let av = SIMD8<Int16>(half.map { Int16(min(max($0, 0), 255)) })
                    let predicted = PNGFilter.paethPredictor(av, above: SIMD8(repeating: Int16(b)), upperLeft: SIMD8(repeating: Int16(c)))
                    for lane in 0..<8 where predicted[lane] != PNGFilter.predictor(av[lane], Int16(b), Int16(c)) {
                        mismatches += 1
                    }
                }
            }
        }
        #expect(mismatches == 0)
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
