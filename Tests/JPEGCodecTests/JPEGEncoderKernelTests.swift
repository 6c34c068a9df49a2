@testable import JPEGCodec
import Testing

/// The encoder's SIMD kernels against their scalar twins on random input (colour conversion,
/// downsampling, forward DCT, quantization), and the scalar kernels against values worked out
/// from libjpeg's formulas.
struct JPEGEncoderKernelTests {
    struct Random {
        var state: UInt64
        mutating func next() -> UInt64 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return state >> 33
        }
        mutating func bytes(_ n: Int) -> [UInt8] { (0..<n).map { _ in UInt8(truncatingIfNeeded: next()) } }
    }

    /// `jccolor.c`: Y = (19595 R + 38470 G + 7471 B + 2^15) >> 16, Cb and Cr with 128·2^16 + 2^15 − 1.
    /// (255, 0, 0): Y = 4996725 + 32768 >> 16 = 76; Cb = (−2820045 + 8421375) >> 16 = 85;
    /// Cr = (8355840 + 8421375) >> 16 = 255. Gray (v, v, v) gives Y = v, Cb = Cr = 128.
    @Test func colourFormula() {
        var y = [UInt8](repeating: 0, count: 2), cb = y, cr = y
        let rgb: [UInt8] = [255, 0, 0, 77, 77, 77]
        rgb.withUnsafeBufferPointer { p in
            JPEGColorEncoding.ycc(p.baseAddress!, stride: 3, count: 2, &y, &cb, &cr)
        }
        #expect(y == [76, 77] && cb == [85, 128] && cr == [255, 128])
    }

    @Test(arguments: [3, 4]) func colourSIMDMatchesScalar(stride: Int) {
        var random = Random(state: UInt64(stride))
        for count in [1, 7, 8, 9, 31, 64, 333] {
            let rgb = random.bytes(count * stride)
            let zero = [UInt8](repeating: 0, count: count)
            var (y0, cb0, cr0, g0) = (zero, zero, zero, zero), (y1, cb1, cr1, g1) = (zero, zero, zero, zero)
            rgb.withUnsafeBufferPointer { p in
                JPEGColorEncoding.ycc(p.baseAddress!, stride: stride, count: count, &y0, &cb0, &cr0)
                JPEGColorEncoding.yccSIMD(p.baseAddress!, stride: stride, count: count, &y1, &cb1, &cr1)
                JPEGColorEncoding.gray(p.baseAddress!, stride: stride, count: count, &g0)
                JPEGColorEncoding.graySIMD(p.baseAddress!, stride: stride, count: count, &g1)
            }
            #expect(y0 == y1 && cb0 == cb1 && cr0 == cr1 && g0 == g1, "\(count) pixels")
        }
    }

    /// h2v2 bias 1, 2, 1, 2: (0+0+0+1 + 1) >> 2 = 0 at column 0, (0+0+0+1 + 2) >> 2 = 0 at column 1,
    /// (1+1+1+0 + 1) >> 2 = 1; h2v1 bias 0, 1: (0+1+0) >> 1 = 0, (0+1+1) >> 1 = 1.
    @Test func downsamplingBias() {
        var out = [UInt8](repeating: 0, count: 3)
        let row0: [UInt8] = [0, 0, 0, 0, 1, 1], row1: [UInt8] = [0, 1, 0, 1, 1, 0]
        JPEGDownsampling.h2v2(row0, row1, &out, columns: 3)
        #expect(out == [0, 0, 1])
        var two = [UInt8](repeating: 0, count: 2)
        JPEGDownsampling.h2v1([0, 1, 0, 1], &two, columns: 2)
        #expect(two == [0, 1])
    }

    @Test func downsamplingSIMDMatchesScalar() {
        var random = Random(state: 9)
        for columns in [1, 15, 16, 17, 40, 100] {
            let row0 = random.bytes(2 * columns), row1 = random.bytes(2 * columns)
            var a = [UInt8](repeating: 0, count: columns), b = a, c = a, d = a
            JPEGDownsampling.h2v1(row0, &a, columns: columns)
            JPEGDownsampling.h2v1SIMD(row0, &b, columns: columns)
            JPEGDownsampling.h2v2(row0, row1, &c, columns: columns)
            JPEGDownsampling.h2v2SIMD(row0, row1, &d, columns: columns)
            #expect(a == b && c == d, "\(columns) columns")
        }
    }

    static func dct(_ samples: [UInt8], simd: Bool) -> [Int32] {
        var out = [Int32](repeating: 0, count: 64)
        samples.withUnsafeBufferPointer { s in
            out.withUnsafeMutableBufferPointer { o in
                if simd {
                    var block = [Int16](repeating: 0, count: 64)
                    JPEGForwardDCT.store(JPEGForwardDCT.transformSIMD(s.baseAddress!, stride: 8), &block)
                    for i in 0..<64 { o[i] = Int32(block[i]) }
                } else {
                    JPEGForwardDCT.transform(s.baseAddress!, stride: 8, o.baseAddress!)
                }
            }
        }
        return out
    }

    /// A flat block of v gives DC = 64·(v − 128) (the DCT scaled by 8) and no AC.
    @Test func dctOfFlatBlock() {
        for v in [0, 128, 200, 255] {
            let out = Self.dct([UInt8](repeating: UInt8(v), count: 64), simd: false)
            #expect(out[0] == Int32(64 * (v - 128)) && out[1...].allSatisfy { $0 == 0 })
        }
    }

    @Test func dctSIMDMatchesScalar() {
        var random = Random(state: 5)
        for trial in 0..<200 {
            // Random, extreme and smooth blocks.
            let samples: [UInt8] = trial % 3 == 0 ? random.bytes(64)
                : trial % 3 == 1 ? (0..<64).map { ($0 + trial) % 2 == 0 ? 0 : 255 }
                : (0..<64).map { UInt8(truncatingIfNeeded: ($0 % 8) * 30 + ($0 / 8) * trial) }
            #expect(Self.dct(samples, simd: true) == Self.dct(samples, simd: false))
        }
    }

    /// The reciprocal quantization equals rounding |x| / (8q) to nearest (halves up) for every
    /// DCT output and every quantizer value 1…255, and the SIMD twin equals the scalar one.
    @Test func quantizationRoundsAndSIMDMatchesScalar() {
        var random = Random(state: 11)
        for q in [1, 2, 3, 7, 16, 50, 99, 121, 255, 6050] {
            let table = [UInt16](repeating: UInt16(q), count: 64)
            let quantizer = JPEGQuantizer(table: table)
            for _ in 0..<50 {
                let input = (0..<64).map { _ in Int32(Int(random.next() % 16385) - 8192) }
                var a = [Int16](repeating: 0, count: 64), b = a
                input.withUnsafeBufferPointer { i in
                    quantizer.quantize(i.baseAddress!, &a)
                    let narrow = input.map { Int16($0) }
                    quantizer.vectors.withUnsafeBufferPointer { v in
                        quantizer.quantizeSIMD(JPEGForwardDCT.load(narrow), &b, v.baseAddress!)
                    }
                }
                #expect(a == b)
                let expected = input.map { x -> Int16 in
                    let d = Int32(8 * q), m = (abs(x) + d / 2) / d
                    return Int16(x < 0 ? -m : m)
                }
                #expect(a == expected, "q \(q)")
            }
        }
    }
}
