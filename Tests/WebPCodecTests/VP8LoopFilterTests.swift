import Testing
@testable import WebPCodec

/// The vector loop filters (the portable SIMD kernel, and SSE2 on x86-64) against their scalar
/// twin (RFC 6386 15), on random pixels whose edges are smooth enough that every branch (no
/// filter, high edge variance, 4- and 6-tap) is taken.
struct VP8LoopFilterTests {
    enum Kernel: CaseIterable { case simd, sse2 }

    @Test(arguments: [false, true], Kernel.allCases)
    func vectorMatchesScalar(isSimple: Bool, kernel: Kernel) {
        #if !arch(x86_64)
        if kernel == .sse2 { return }
        #endif
        var rng = SplitMix64(seed: isSimple ? 3 : 4)
        let yStride = 48, uvStride = 24
        for trial in 0..<150 {
            // Two macroblocks across and down, so every edge has neighbours.
            var y = [UInt8](repeating: 0, count: yStride * 32)
            var uv = [UInt8](repeating: 0, count: uvStride * 16 * 2)
            let base = Int.random(in: 0...255, using: &rng)
            let spread = [2, 6, 20, 80, 255][trial % 5]
            for i in y.indices { y[i] = UInt8(clamping: base + Int.random(in: -spread...spread, using: &rng)) }
            for i in uv.indices { uv[i] = UInt8(clamping: base + Int.random(in: -spread...spread, using: &rng)) }
            let level = Int32.random(in: 1...63, using: &rng)
            let interior = Int32.random(in: 1...9, using: &rng)
            let info = VP8FilterInfo(limit: 2 * level + interior, interiorLimit: interior,
                                     hevThreshold: Int32.random(in: 0...2, using: &rng), filtersInner: Bool.random(using: &rng))
            let mbX = Int.random(in: 0...1, using: &rng), mbY = Int.random(in: 0...1, using: &rng)
            var y2 = y, uv2 = uv
            func run(_ vector: Bool, _ y: inout [UInt8], _ uv: inout [UInt8]) {
                y.withUnsafeMutableBufferPointer { yp in
                    uv.withUnsafeMutableBufferPointer { up in
                        let yb = yp.baseAddress! + 16 * yStride + 16
                        let ub = up.baseAddress! + 8 * uvStride + 8
                        let vb = ub + 16 * uvStride
                        if vector, kernel == .simd {
                            VP8LoopFilterSIMD.filterMacroblock(info, isSimple: isSimple, mbX: mbX, mbY: mbY, y: yb,
                                                               yStride: yStride, u: ub, v: vb, uvStride: uvStride)
                        } else if vector {
                            #if arch(x86_64)
                            VP8LoopFilterSSE2.filterMacroblock(info, isSimple: isSimple, mbX: mbX, mbY: mbY, y: yb,
                                                               yStride: yStride, u: ub, v: vb, uvStride: uvStride)
                            #endif
                        } else {
                            VP8LoopFilter.filterMacroblock(info, isSimple: isSimple, mbX: mbX, mbY: mbY, y: yb,
                                                           yStride: yStride, u: ub, v: vb, uvStride: uvStride)
                        }
                    }
                }
            }
            run(false, &y, &uv)
            run(true, &y2, &uv2)
            if y != y2 || uv != uv2 {
                Issue.record("trial \(trial): \(kernel) differs from scalar (simple \(isSimple), \(info), mb \(mbX),\(mbY))")
                return
            }
        }
    }
}
