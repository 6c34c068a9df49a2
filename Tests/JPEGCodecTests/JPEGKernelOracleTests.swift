@testable import JPEGCodec
import Testing

/// Blocks decoded by libjpeg-turbo 2.1.5's `djpeg -dct int` (scales 1, 1/2, 1/4, 1/8) on x86-64
/// with AVX2, as it runs by default (`simd`) and with `JSIMD_FORCENONE=1` (`c`): each vector was a
/// one-block grayscale JPEG (SOF1, 16-bit DQT) written with the coefficients below, and the
/// samples are djpeg's PGM output in hex, rows top to bottom. They pin the places where the SIMD
/// code (which this library follows) and the C code differ, and check the C model in
/// ``JPEGKernelReferenceTests`` against the real C code.
struct JPEGKernelOracleTests {
    struct Vector: CustomTestStringConvertible, Sendable {
        let name: String
        let coefficients: [(Int, Int16)]
        let quantization: [Int16]
        let simd: [String], c: [String]
        init(_ name: String, _ coefficients: [(Int, Int16)], _ quantization: [Int16], simd: [String], c: [String]) {
            (self.name, self.coefficients, self.quantization, self.simd, self.c) = (name, coefficients, quantization, simd, c)
        }
        var testDescription: String { name }
    }

    /// T.81 Table K.1, in natural order.
    static let jfifLuminance: [Int16] = [
        16, 11, 10, 16, 24, 40, 51, 61, 12, 12, 14, 19, 26, 58, 60, 55, 14, 13, 16, 24, 40, 57, 69, 56,
        14, 17, 22, 29, 51, 87, 80, 62, 18, 22, 37, 56, 68, 109, 103, 77, 24, 35, 55, 64, 81, 104, 113, 92,
        49, 64, 78, 87, 103, 121, 120, 101, 72, 92, 95, 98, 112, 100, 103, 99,
    ]

    static let vectors: [Vector] = [
        Vector("dcShortcutWraps", [(0, 8192)], .init(repeating: 1, count: 64),
               simd: ["00000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000",
                      "00000000000000000000000000000000",
                      "ffffffff",
                      "80"],
               c: ["80808080808080808080808080808080808080808080808080808080808080808080808080808080808080808080808080808080808080808080808080808080",
                   "80808080808080808080808080808080",
                   "80808080",
                   "80"]),
        Vector("dequantizationWraps", [(0, 300)], .init(repeating: 300, count: 64),
               simd: ["ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff",
                      "ffffffffffffffffffffffffffffffff",
                      "00000000",
                      "72"],
               c: ["72727272727272727272727272727272727272727272727272727272727272727272727272727272727272727272727272727272727272727272727272727272",
                   "72727272727272727272727272727272",
                   "72727272",
                   "72"]),
        Vector("passOneSaturates", [(1, 5), (8, 20000)], .init(repeating: 1, count: 64),
               simd: ["ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff0000000000000000000000000000000000000000000000000000000000000000",
                      "ffffffffffffffff0000000000000000",
                      "0000ffff",
                      "80"],
               c: ["ffffffffffffffff00000000000000002d2d2d2d2c2c2c2c0000000000000000ffffffffffffffffd4d4d4d4d3d3d3d3ffffffffffffffff0000000000000000",
                   "ffffffffffffffff0000000000000000",
                   "ffff0000",
                   "80"]),
        Vector("outputClampsNotWraps", [(0, 4000), (1, 3000), (9, -2500)], .init(repeating: 1, count: 64),
               simd: ["ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffe3ffffffffffff5600ffffffffff8c0000ffffffffff2d0000ffffffffff000000",
                      "ffffffffffffffffffffff00ffffd800",
                      "ffffff20",
                      "ff"],
               c: ["ffffffff00000000ffffffffffffffff00000000ffffffff05000000ffffffe3f4920000ffff5600ffff5c00ff8c0000ffffbb00ff2d00ff00ffef00ff0000ff",
                   "ffff00000000ffffff00ff00ff10d800",
                   "00ffc820",
                   "ff"]),
        Vector("typicalBlock", [(0, -37), (1, -2), (2, -8), (3, -10), (9, 8), (10, 5), (16, -11), (17, -9), (24, -1)], jfifLuminance,
               simd: ["001b31260a021d3c1a364a3c1b0d233f3b586c5b331d2a424a69807045293043385c7a714b2e32430b356063462f344500083e4e3d2e384a00002841372d3b4f",
                      "1a380d2f526d3038356b3b3c003e3443",
                      "44292f3b",
                      "36"],
               c: ["001b31260a021d3c1a364a3c1b0d233f3b586c5b331d2a424a69807045293043385c7a714b2e32430b356063462f344500083e4e3d2e384a00002841372d3b4f",
                   "1a380d2f526d3038356b3b3c003e3443",
                   "44292f3b",
                   "36"]),
        Vector("negativeMultiplier", [(0, 3), (1, 1), (8, -1)], .init(repeating: -25536, count: 64),
               simd: ["0000ffffffffffff0000ffffffffffff0000ffffffffffff0000000000ffffff000000000000ffff000000000000ffff000000000000ffff000000000000ffff",
                      "00ffffff0000ffff000000ff000000ff",
                      "ff0000ff",
                      "00"],
               c: ["00ff00f300ff00ff760000ffff006b0000ff00ff550000ffff00bc00ff55ff00fffeff3700fffff3000000ffbc00000000ff00fe00ff00ff810000ffff007600",
                   "0074ff00ff0055ff7fff0074007fff00",
                   "00ff7f00",
                   "00"]),
    ]

    static func hex(_ bytes: [UInt8]) -> String { bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined() }

    @Test(arguments: vectors)
    func matchesDjpeg(vector: Vector) {
        let c = JPEGKernelFixtures.block(vector.coefficients), q = vector.quantization
        #expect(Self.hex(JPEGKernelFixtures.idct(c, q)) == vector.simd[0])
        #expect(Self.hex(JPEGKernelFixtures.idct(c, q, .scalar)) == vector.simd[0])
        for (index, size) in [4, 2, 1].enumerated() {
            #expect(Self.hex(JPEGKernelFixtures.reduced(size, c, q)) == vector.simd[index + 1], "\(size)×\(size)")
        }
    }

    @Test(arguments: vectors)
    func referenceModelMatchesDjpegCCode(vector: Vector) {
        let c = JPEGKernelFixtures.block(vector.coefficients), q = vector.quantization
        #expect(JPEGKernelReferenceTests.jidctint(c, q, ignoringLimits: true).map(Self.hex) == vector.c[0])
        for (index, size) in [4, 2, 1].enumerated() {
            #expect(JPEGKernelReferenceTests.jidctred(size, c, q, ignoringLimits: true).map(Self.hex) == vector.c[index + 1])
        }
    }
}
