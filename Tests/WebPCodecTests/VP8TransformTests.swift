import Testing
@testable import WebPCodec

/// The SIMD inverse DCT and WHT against their scalar twins (RFC 6386 14.3), on random
/// predictions and random coefficients: small ones as real streams have, and any 16-bit values.
struct VP8TransformTests {
    @Test(arguments: [8, 300, 2048, 32768])
    func simdMatchesScalar(magnitude: Int) {
        var rng = SplitMix64(seed: UInt64(magnitude))
        let stride = VP8Prediction.stride
        for _ in 0..<2000 {
            let coefficients = (0..<16).map { _ in Int16(clamping: Int.random(in: -magnitude..<magnitude, using: &rng)) }
            let prediction = (0..<(4 * stride)).map { _ in UInt8.random(in: 0...255, using: &rng) }
            var scalar = prediction, simd = prediction
            coefficients.withUnsafeBufferPointer { c in
                scalar.withUnsafeMutableBufferPointer { VP8Transform.inverseDCT(c.baseAddress!, $0.baseAddress!) }
                simd.withUnsafeMutableBufferPointer { VP8TransformSIMD.inverseDCT(c.baseAddress!, $0.baseAddress!) }
            }
            #expect(simd == scalar, "coefficients \(coefficients)")
            if simd != scalar { return }
        }
    }

    @Test(arguments: [8, 300, 2048, 32768])
    func simdWHTMatchesScalar(magnitude: Int) {
        var rng = SplitMix64(seed: UInt64(magnitude) &+ 1)
        for _ in 0..<2000 {
            let y2 = (0..<16).map { _ in Int16(clamping: Int.random(in: -magnitude..<magnitude, using: &rng)) }
            // The 16 luma blocks' coefficients: the transform writes each block's DC only.
            let blocks = (0..<256).map { _ in Int16.random(in: .min ... .max, using: &rng) }
            var scalar = blocks, simd = blocks
            y2.withUnsafeBufferPointer { c in
                scalar.withUnsafeMutableBufferPointer { VP8Transform.inverseWHT(c.baseAddress!, $0.baseAddress!) }
                simd.withUnsafeMutableBufferPointer { VP8TransformSIMD.inverseWHT(c.baseAddress!, $0.baseAddress!) }
            }
            #expect(simd == scalar, "Y2 \(y2)")
            if simd != scalar { return }
        }
    }
}
