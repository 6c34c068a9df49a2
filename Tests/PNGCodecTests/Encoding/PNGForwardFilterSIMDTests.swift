@testable import PNGCodec
import Testing

/// The vector filter kernels against their scalar twin, byte for byte and sum for sum.
struct PNGForwardFilterSIMDTests {
    /// Random rows of every bytes-per-pixel, widths from 1 pixel to past several vectors
    /// (most not a multiple of 16 bytes), every filter type, rows above both random and
    /// extreme (all 0 or all 255, where the Paeth distances and the average carry peak).
    @Test func vectorKernelsEqualTheScalarTwin() {
        var r = EncoderFixtures.Random(state: 16)
        for bpp in [1, 2, 3, 4, 6, 8] {
            for pixels in [1, 2, 3, 5, 7, 15, 16, 17, 31, 33, 64, 101, 257] {
                let count = pixels * bpp
                for trial in 0..<4 {
                    let row = (0..<count).map { _ in trial == 3 ? UInt8(255) : r.byte() }
                    let previous = (0..<count).map { _ in trial == 2 ? UInt8(0) : (trial == 3 ? 255 : r.byte()) }
                    for type in 0..<5 {
                        var vector = [UInt8](repeating: 0xA5, count: count)
                        var scalar = [UInt8](repeating: 0x5A, count: count)
                        var sums = (0, 0)
                        row.withUnsafeBufferPointer { cur in
                            previous.withUnsafeBufferPointer { prev in
                                vector.withUnsafeMutableBufferPointer { out in
                                    sums.0 = PNGForwardFilter.filterAndScore(
                                        type, row: cur.baseAddress!, previous: prev.baseAddress!, count: count,
                                        stride: bpp, into: out.baseAddress!)
                                }
                                scalar.withUnsafeMutableBufferPointer { out in
                                    sums.1 = PNGForwardFilter.filterAndScoreScalar(
                                        type, row: cur.baseAddress!, previous: prev.baseAddress!, from: 0, to: count,
                                        stride: bpp, into: out.baseAddress!)
                                }
                            }
                        }
                        #expect(vector == scalar, "bytes: type \(type) bpp \(bpp) pixels \(pixels) trial \(trial)")
                        #expect(sums.0 == sums.1, "sum: type \(type) bpp \(bpp) pixels \(pixels) trial \(trial)")
                    }
                }
            }
        }
    }

    /// A long row of maximal magnitudes (every byte 128 after filtering) crosses the 16-bit
    /// accumulator's flush point and still sums exactly.
    @Test func magnitudeSumSurvivesTheAccumulatorFlush() {
        let count = 16 * 600 + 9
        let row = [UInt8](repeating: 128, count: count)
        let previous = [UInt8](repeating: 0, count: count)
        var out = [UInt8](repeating: 0, count: count)
        let sum = row.withUnsafeBufferPointer { cur in
            previous.withUnsafeBufferPointer { prev in
                out.withUnsafeMutableBufferPointer { o in
                    PNGForwardFilter.filterAndScore(2, row: cur.baseAddress!, previous: prev.baseAddress!,
                                                    count: count, stride: 3, into: o.baseAddress!)
                }
            }
        }
        #expect(sum == 128 * count)
    }
}
