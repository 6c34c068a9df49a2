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

    /// Each vector kernel's pairs (the portable one, and SSE2 on x86-64) against the scalar
    /// row, byte for byte over the pixels the kernel wrote.
    @Test func kernelsMatchScalar() {
        typealias Pairs = (UnsafePointer<UInt8>, UnsafePointer<UInt8>, UnsafePointer<UInt8>, UnsafePointer<UInt8>,
                           UnsafePointer<UInt8>, UnsafeMutablePointer<UInt8>, Int) -> Int
        var kernels: [(String, Pairs)] = [("simd", { VP8UpsamplingSIMD.pairs(y: $0, nearU: $1, nearV: $2, farU: $3, farV: $4, dst: $5, lastPair: $6) })]
        #if arch(x86_64)
        kernels.append(("sse2", { VP8UpsamplingSSE2.pairs(y: $0, nearU: $1, nearV: $2, farU: $3, farV: $4, dst: $5, lastPair: $6) }))
        #endif
        var rng = SplitMix64(seed: 10)
        for width in stride(from: 17, through: 97, by: 8) {
            let uvWidth = (width + 1) / 2
            func row(_ n: Int) -> [UInt8] { (0..<n).map { _ in UInt8.random(in: 0...255, using: &rng) } }
            let y = row(width), nu = row(uvWidth), nv = row(uvWidth), fu = row(uvWidth), fv = row(uvWidth)
            var expected = [UInt8](repeating: 0, count: 4 * width)
            expected.withUnsafeMutableBufferPointer { d in
                VP8Upsampling.upsampleRow(y: y, nearU: nu, nearV: nv, farU: fu, farV: fv, dst: d.baseAddress!,
                                          width: width, vectorized: false)
            }
            for (name, pairs) in kernels {
                var dst = [UInt8](repeating: 0, count: 4 * width)
                let end = dst.withUnsafeMutableBufferPointer { d in pairs(y, nu, nv, fu, fv, d.baseAddress!, (width - 1) >> 1) }
                #expect(end > 1, "\(name) width \(width): no group written")
                let written = 4..<(4 * (2 * end - 1))
                #expect(Array(dst[written]) == Array(expected[written]), "\(name) width \(width)")
            }
        }
    }
}
