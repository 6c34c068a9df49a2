import Testing
@testable import WebPCodec

/// The SIMD fancy upsampler and YUV→RGB against the scalar twin, on random rows of every width
/// from 1 to 80 (the SIMD groups, the scalar tail, odd and even widths).
struct VP8UpsamplingTests {
    @Test func simdMatchesScalar() {
        var rng = SplitMix64(seed: 9)
        for width in 1...80 {
            let uvWidth = (width + 1) / 2
            func row(_ n: Int) -> [UInt8] { (0..<n).map { _ in UInt8.random(in: 0...255, using: &rng) } }
            let y = row(width), nu = row(uvWidth), nv = row(uvWidth), fu = row(uvWidth), fv = row(uvWidth)
            var a = [UInt8](repeating: 0, count: 4 * width), b = a
            for (vectorized, out) in [(false, 0), (true, 1)] {
                var dst = [UInt8](repeating: 0, count: 4 * width)
                dst.withUnsafeMutableBufferPointer { d in
                    VP8Upsampling.upsampleRow(y: y, nearU: nu, nearV: nv, farU: fu, farV: fv, dst: d.baseAddress!,
                                              width: width, vectorized: vectorized)
                }
                if out == 0 { a = dst } else { b = dst }
            }
            #expect(a == b, "width \(width)")
        }
    }
}
