@testable import JPEGCodec
import Testing

/// Upsampling: libjpeg-turbo's method choice, rows worked by hand from `jdsample.c`'s formulas,
/// and the SIMD kernels against their scalar twins.
struct JPEGKernelUpsamplerTests {
    typealias M = JPEGUpsampler.Method

    @Test(arguments: [
        // (h, v, maxH, maxV, downsampledWidth, fancy) → method
        (1, 1, 1, 1, 10, true, M.fullSize), (2, 2, 2, 2, 1, false, .fullSize),
        (1, 1, 2, 1, 10, true, .h2v1Fancy), (1, 1, 2, 1, 3, true, .h2v1Fancy), (1, 1, 2, 1, 2, true, .h2v1Plain),
        (1, 1, 2, 1, 10, false, .h2v1Plain), (1, 2, 2, 2, 10, true, .h2v1Fancy),
        (1, 1, 1, 2, 1, true, .h1v2Fancy), (2, 1, 2, 2, 10, true, .h1v2Fancy), (1, 1, 1, 2, 10, false, .integer(h: 1, v: 2)),
        (1, 1, 2, 2, 10, true, .h2v2Fancy), (2, 1, 4, 2, 10, true, .h2v2Fancy), (1, 1, 2, 2, 2, true, .h2v2Plain),
        (1, 1, 2, 2, 10, false, .h2v2Plain),
        (1, 1, 4, 1, 10, true, .integer(h: 4, v: 1)), (1, 1, 3, 1, 10, true, .integer(h: 3, v: 1)),
        (1, 1, 4, 2, 10, true, .integer(h: 4, v: 2)), (1, 1, 3, 3, 10, true, .integer(h: 3, v: 3)),
        (2, 1, 4, 4, 10, true, .integer(h: 2, v: 4)),
    ] as [(Int, Int, Int, Int, Int, Bool, M)])
    func methodFollowsJinitUpsampler(h: Int, v: Int, maxH: Int, maxV: Int, width: Int, fancy: Bool, expected: M) {
        #expect(JPEGUpsampler.method(h: h, v: v, maxH: maxH, maxV: maxV, downsampledWidth: width, fancy: fancy) == expected)
    }

    /// Fractional factors are refused (`JERR_FRACT_SAMPLE_NOTIMPL`), and factors below 1.
    @Test func methodRefusesFractionalFactors() {
        for (h, v, maxH, maxV) in [(2, 1, 3, 1), (3, 1, 4, 1), (1, 2, 1, 3), (0, 1, 1, 1), (1, 1, 0, 1), (3, 3, 4, 4)] {
            #expect(JPEGUpsampler.method(h: h, v: v, maxH: maxH, maxV: maxV, downsampledWidth: 10, fancy: true) == nil)
        }
    }

    static func run(_ input: [UInt8], _ kernel: (UnsafePointer<UInt8>, UnsafeMutablePointer<UInt8>) -> Void,
                    outputCount: Int) -> [UInt8] {
        var output = [UInt8](repeating: 0xEE, count: outputCount + 40)
        input.withUnsafeBufferPointer { i in output.withUnsafeMutableBufferPointer { kernel(i.baseAddress!, $0.baseAddress!) } }
        #expect(output[outputCount...].allSatisfy { $0 == 0xEE }, "wrote past \(outputCount) samples")
        return Array(output[..<outputCount])
    }

    static func h2v1(_ s: [UInt8], simd: Bool = true) -> [UInt8] {
        run(s, { simd ? JPEGUpsampler.h2v1Fancy($0, width: s.count, $1) : JPEGUpsampler.h2v1FancyScalar($0, width: s.count, $1) },
            outputCount: 2 * s.count)
    }

    static func h2v2(_ near: [UInt8], _ far: [UInt8], simd: Bool = true) -> [UInt8] {
        run(near + far, { p, o in
            simd ? JPEGUpsampler.h2v2Fancy(near: p, far: p + near.count, width: near.count, o)
                : JPEGUpsampler.h2v2FancyScalar(near: p, far: p + near.count, width: near.count, o)
        }, outputCount: 2 * near.count)
    }

    static func h1v2(_ near: [UInt8], _ far: [UInt8], lower: Bool, simd: Bool = true) -> [UInt8] {
        run(near + far, { p, o in
            simd ? JPEGUpsampler.h1v2Fancy(near: p, far: p + near.count, lower: lower, width: near.count, o)
                : JPEGUpsampler.h1v2FancyScalar(near: p, far: p + near.count, lower: lower, width: near.count, o)
        }, outputCount: near.count)
    }

    static func replicate(_ s: [UInt8], _ factor: Int, simd: Bool = true) -> [UInt8] {
        run(s, { simd ? JPEGUpsampler.replicate($0, width: s.count, factor: factor, $1)
                      : JPEGUpsampler.replicateScalar($0, width: s.count, factor: factor, $1) }, outputCount: factor * s.count)
    }

    /// (3·s[i] + s[i−1] + 1) >> 2 and (3·s[i] + s[i+1] + 2) >> 2, the ends replicated: e.g. for
    /// [10, 20, 40] the first pair is 10 and (30 + 20 + 2) >> 2 = 13, the last (120 + 20 + 1) >> 2
    /// = 35 and 40.
    @Test func h2v1FancyRowsWorkedByHand() {
        #expect(Self.h2v1([10, 20, 40]) == [10, 13, 17, 25, 35, 40])
        #expect(Self.h2v1([255, 0, 255]) == [255, 191, 64, 64, 191, 255])
        #expect(Self.h2v1([0, 1]) == [0, 0, 1, 1])
        #expect(Self.h2v1([7]) == [7, 7])
    }

    /// Column sums t = 3·near + far, then (3·t[i] + t[i−1] + 8) >> 4 and (3·t[i] + t[i+1] + 7) >> 4:
    /// near [10, 20, 40], far 30s give t = [60, 90, 150] and (180 + 60 + 8) >> 4 = 15 first.
    @Test func h2v2FancyRowsWorkedByHand() {
        #expect(Self.h2v2([10, 20, 40], [30, 30, 30]) == [15, 17, 21, 26, 34, 37])
        // t = [8, 6]: (24 + 8 + 8) >> 4 = 2 but (18 + 6 + 7) >> 4 = 1: the biases differ by column.
        #expect(Self.h2v2([2, 2], [2, 0]) == [2, 2, 2, 1])
        #expect(Self.h2v2([100, 100, 100], [100, 100, 100]) == [UInt8](repeating: 100, count: 6))
    }

    /// (3·near + far + 1) >> 2 for the upper output row of a pair, + 2 for the lower one.
    @Test func h1v2FancyBiasDependsOnTheOutputRow() {
        #expect(Self.h1v2([1, 2, 0, 255], [0, 0, 2, 255], lower: false) == [1, 1, 0, 255])
        #expect(Self.h1v2([1, 2, 0, 255], [0, 0, 2, 255], lower: true) == [1, 2, 1, 255])
    }

    /// Rows repeated across 48 or 64 samples, so that the middle goes through the SIMD loop,
    /// chosen so that every bias decides some output. Each interior sample gives the pair its two
    /// neighbours dictate: in (241, 194, 107)…, 194 gives (582 + 241 + 1) >> 2 = 206 and
    /// (582 + 107 + 2) >> 2 = 172; with far row (48, 249, 14)… the column sums are
    /// (771, 831, 335) and 831 gives (2493 + 771 + 8) >> 4 = 204, (2493 + 335 + 7) >> 4 = 177.
    @Test(arguments: [true, false])
    func periodicRowsWorkedByHand(simd: Bool) {
        let row: [UInt8] = (0..<48).map { [241, 194, 107][$0 % 3] }, farRow: [UInt8] = (0..<48).map { [48, 249, 14][$0 % 3] }
        let pairs: [[UInt8]] = [[207, 229], [206, 172], [129, 141]]
        var expected: [UInt8] = [241, 229]
        for i in 1..<47 { expected += pairs[i % 3] }
        #expect(Self.h2v1(row, simd: simd) == expected + [129, 107])
        let sums: [[UInt8]] = [[166, 196], [204, 177], [115, 111]]
        expected = [193, 196]
        for i in 1..<47 { expected += sums[i % 3] }
        #expect(Self.h2v2(row, farRow, simd: simd) == expected + [115, 84])
        let near: [UInt8] = (0..<64).map { [1, 2, 0, 255][$0 % 4] }, far: [UInt8] = (0..<64).map { [0, 0, 2, 255][$0 % 4] }
        let upper: [UInt8] = (0..<64).map { [1, 1, 0, 255][$0 % 4] }, lower: [UInt8] = (0..<64).map { [1, 2, 1, 255][$0 % 4] }
        #expect(Self.h1v2(near, far, lower: false, simd: simd) == upper)
        #expect(Self.h1v2(near, far, lower: true, simd: simd) == lower)
    }

    @Test func replicateRepeatsEachSample() {
        #expect(Self.replicate([1, 2, 3], 3) == [1, 1, 1, 2, 2, 2, 3, 3, 3])
        #expect(Self.replicate([9, 8], 1) == [9, 8])
        let long = (0..<40).map { UInt8($0) }
        #expect(Self.replicate(long, 2) == long.flatMap { [$0, $0] })
        #expect(Self.replicate(long, 4) == long.flatMap { [$0, $0, $0, $0] })
    }

    /// A constant row stays constant, and a ramp s[i] = 2i gives values within half a step of
    /// the exact interpolation 2i ∓ 1/2, whatever the width (the SIMD loop and both ends).
    @Test func fancyUpsamplingInterpolates() {
        for width in [3, 17, 18, 19, 40, 100] {
            #expect(Self.h2v1([UInt8](repeating: 77, count: width)) == [UInt8](repeating: 77, count: 2 * width))
            let ramp = (0..<width).map { UInt8($0 * 2) }
            let out = Self.h2v1(ramp)
            for i in 1..<(width - 1) {
                #expect((2 * i - 1...2 * i).contains(Int(out[2 * i])) && (2 * i...2 * i + 1).contains(Int(out[2 * i + 1])))
            }
        }
    }

    @Test func simdEqualsScalarTwins() {
        var g = JPEGKernelFixtures.Generator(seed: 0x0A5A)
        for width in Array(1...70) + [255, 256, 1000] {
            let near = g.bytes(width), far = g.bytes(width)
            #expect(Self.h2v1(near) == Self.h2v1(near, simd: false), "h2v1, width \(width)")
            #expect(Self.h2v2(near, far) == Self.h2v2(near, far, simd: false), "h2v2, width \(width)")
            for lower in [false, true] {
                #expect(Self.h1v2(near, far, lower: lower) == Self.h1v2(near, far, lower: lower, simd: false), "h1v2, width \(width)")
            }
            for factor in 1...4 { #expect(Self.replicate(near, factor) == Self.replicate(near, factor, simd: false)) }
        }
        // The extremes of every neighbourhood.
        for pattern: [UInt8] in [[0, 255], [255, 0], [255, 255], [0, 0]] {
            let row = (0..<64).map { pattern[$0 % 2] }, other = row.reversed() as [UInt8]
            #expect(Self.h2v1(row) == Self.h2v1(row, simd: false))
            #expect(Self.h2v2(row, other) == Self.h2v2(row, other, simd: false))
        }
    }
}
