/// The forward transforms of the encoder, inverse to ``VP8Transform`` (RFC 6386 14.3, 14.4).
///
/// The DCT is the fixed-point 4×4 transform whose inverse RFC 6386 14.3 gives: a horizontal
/// pass scaled by 8 with the rotation by `sqrt(2)·cos(π/8)` and `sqrt(2)·sin(π/8)` (2217 and
/// 5352 in 12-bit fixed point), then a vertical pass with rounding to `>> 4`. Its outputs are
/// twice an orthonormal DCT's, the scale the inverse's final `>> 3` expects. The Walsh–Hadamard
/// transform of the 16 luma DC values is the inverse's own butterfly (its matrix is symmetric),
/// halved.
enum VP8ForwardTransform {
    /// The DCT of `source − prediction` over one 4×4 block (both at row stride
    /// ``VP8Prediction/stride``), in raster order.
    static func forwardDCT(_ source: UnsafePointer<UInt8>, _ prediction: UnsafePointer<UInt8>,
                           _ out: UnsafeMutablePointer<Int16>) {
        var tmp = (Int32(0), Int32(0), Int32(0), Int32(0), Int32(0), Int32(0), Int32(0), Int32(0),
                   Int32(0), Int32(0), Int32(0), Int32(0), Int32(0), Int32(0), Int32(0), Int32(0))
        withUnsafeMutableBytes(of: &tmp) { raw in
            let t = raw.baseAddress!.assumingMemoryBound(to: Int32.self)
            let bps = VP8Prediction.stride
            for i in 0..<4 {
                let s = source + i * bps, p = prediction + i * bps
                let d0 = Int32(s[0]) &- Int32(p[0]), d1 = Int32(s[1]) &- Int32(p[1])
                let d2 = Int32(s[2]) &- Int32(p[2]), d3 = Int32(s[3]) &- Int32(p[3])
                let a0 = d0 &+ d3, a1 = d1 &+ d2, a2 = d1 &- d2, a3 = d0 &- d3
                t[4 * i] = (a0 &+ a1) &* 8
                t[4 * i + 1] = (a2 &* 2217 &+ a3 &* 5352 &+ 1812) &>> 9
                t[4 * i + 2] = (a0 &- a1) &* 8
                t[4 * i + 3] = (a3 &* 2217 &- a2 &* 5352 &+ 937) &>> 9
            }
            for i in 0..<4 {
                let a0 = t[i] &+ t[12 + i], a1 = t[4 + i] &+ t[8 + i]
                let a2 = t[4 + i] &- t[8 + i], a3 = t[i] &- t[12 + i]
                out[i] = Int16(truncatingIfNeeded: (a0 &+ a1 &+ 7) &>> 4)
                out[4 + i] = Int16(truncatingIfNeeded: ((a2 &* 2217 &+ a3 &* 5352 &+ 12000) &>> 16) &+ (a3 != 0 ? 1 : 0))
                out[8 + i] = Int16(truncatingIfNeeded: (a0 &- a1 &+ 7) &>> 4)
                out[12 + i] = Int16(truncatingIfNeeded: (a3 &* 2217 &- a2 &* 5352 &+ 51000) &>> 16)
            }
        }
    }

    /// The Walsh–Hadamard transform of the 16 luma DC coefficients (`input[16 * k]`, block `k`
    /// in raster order) into the Y2 block, raster order.
    static func forwardWHT(_ input: UnsafePointer<Int16>, _ out: UnsafeMutablePointer<Int16>) {
        var tmp = (Int32(0), Int32(0), Int32(0), Int32(0), Int32(0), Int32(0), Int32(0), Int32(0),
                   Int32(0), Int32(0), Int32(0), Int32(0), Int32(0), Int32(0), Int32(0), Int32(0))
        withUnsafeMutableBytes(of: &tmp) { raw in
            let t = raw.baseAddress!.assumingMemoryBound(to: Int32.self)
            for i in 0..<4 {
                let row = input + 64 * i
                let y0 = Int32(row[0]), y1 = Int32(row[16]), y2 = Int32(row[32]), y3 = Int32(row[48])
                let a0 = y0 &+ y3, a1 = y1 &+ y2, a2 = y1 &- y2, a3 = y0 &- y3
                t[4 * i] = a0 &+ a1
                t[4 * i + 1] = a3 &+ a2
                t[4 * i + 2] = a0 &- a1
                t[4 * i + 3] = a3 &- a2
            }
            for i in 0..<4 {
                let a0 = t[i] &+ t[12 + i], a1 = t[4 + i] &+ t[8 + i]
                let a2 = t[4 + i] &- t[8 + i], a3 = t[i] &- t[12 + i]
                out[i] = Int16(truncatingIfNeeded: (a0 &+ a1) &>> 1)
                out[4 + i] = Int16(truncatingIfNeeded: (a3 &+ a2) &>> 1)
                out[8 + i] = Int16(truncatingIfNeeded: (a0 &- a1) &>> 1)
                out[12 + i] = Int16(truncatingIfNeeded: (a3 &- a2) &>> 1)
            }
        }
    }
}
