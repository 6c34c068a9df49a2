import Testing
@testable import WebPCodec

/// The SIMD predictors equal their scalar twins (RFC 9649 4.1) on random pixels, and the small
/// per-component helpers do what the RFC's pseudo-code says.
struct VP8LTransformTests {
    static func randomPixels(_ count: Int, seed: UInt64) -> [UInt32] {
        var rng = SplitMix64(seed: seed)
        // Mix in the extremes so that clamping and ties are reached.
        let specials: [UInt32] = [0, 0xFFFF_FFFF, 0x8080_8080, 0x7F7F_7F7F, 0x00FF_00FF, 0xFF00_FF00]
        return (0..<count).map { i in i % 7 == 0 ? specials[i / 7 % specials.count] : UInt32(truncatingIfNeeded: rng.next()) }
    }

    @Test func selectSIMDEqualsScalar() {
        let p = Self.randomPixels(30_000, seed: 1)
        for i in stride(from: 0, to: p.count - 2, by: 3) {
            #expect(VP8LTransform.selectSIMD(p[i], p[i + 1], p[i + 2]) == VP8LTransform.select(p[i], p[i + 1], p[i + 2]))
        }
        // Ties give T.
        #expect(VP8LTransform.select(0x0000_0001, 0x0000_0003, 0x0000_0002) == 0x0000_0003)
        #expect(VP8LTransform.selectSIMD(0x0000_0001, 0x0000_0003, 0x0000_0002) == 0x0000_0003)
    }

    @Test func clampAddSubtractFullSIMDEqualsScalar() {
        let p = Self.randomPixels(30_000, seed: 2)
        for i in stride(from: 0, to: p.count - 2, by: 3) {
            #expect(VP8LTransform.clampAddSubtractFullSIMD(p[i], p[i + 1], p[i + 2])
                    == VP8LTransform.clampAddSubtractFull(p[i], p[i + 1], p[i + 2]))
        }
    }

    @Test func clampAddSubtractHalfSIMDEqualsScalar() {
        let p = Self.randomPixels(30_000, seed: 3)
        for i in stride(from: 0, to: p.count - 1, by: 2) {
            #expect(VP8LTransform.clampAddSubtractHalfSIMD(p[i], p[i + 1]) == VP8LTransform.clampAddSubtractHalf(p[i], p[i + 1]))
        }
        // (a − b) / 2 truncates toward zero: 10 + (10 − 13) / 2 = 9, not 8.
        #expect(VP8LTransform.clampAddSubtractHalf(10, 13) & 0xFF == 9)
    }

    @Test func componentArithmetic() {
        #expect(VP8LTransform.addPixels(0xFF01_80FE, 0x0201_8003) == 0x0102_0001)
        #expect(VP8LTransform.average2(0xFF00_0301, 0x0100_0102) == 0x8000_0201)
        // ColorTransformDelta: signed 8-bit product, arithmetic shift by 5.
        #expect(VP8LTransform.colorTransformDelta(-128, 0x80) == 512)
        #expect(VP8LTransform.colorTransformDelta(3, 0xFF) == -1)
    }
}
