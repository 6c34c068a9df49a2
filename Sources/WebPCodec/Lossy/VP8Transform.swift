/// The inverse transforms of RFC 6386 section 14, computed as libwebp computes them
/// (the 16-bit fixed-point multiplies of 14.3, a rounding of +4 before the final `>> 3`, and
/// the residue added to the prediction with clamping to 0...255).
enum VP8Transform {
    /// `x * sqrt(2) * cos(pi/8)`, as `x + (x * 20091) >> 16`.
    @inline(__always) static func mul1(_ a: Int32) -> Int32 { ((a &* 20091) &>> 16) &+ a }
    /// `x * sqrt(2) * sin(pi/8)`, as `(x * 35468) >> 16`.
    @inline(__always) static func mul2(_ a: Int32) -> Int32 { (a &* 35468) &>> 16 }

    @inline(__always)
    static func addClamped(_ dst: UnsafeMutablePointer<UInt8>, _ v: Int32) {
        let s = Int32(dst.pointee) &+ (v &>> 3)
        dst.pointee = s & ~0xFF == 0 ? UInt8(truncatingIfNeeded: s) : (s < 0 ? 0 : 255)
    }

    /// The inverse DCT of one 4×4 block of dequantised coefficients (in raster order), added
    /// to the prediction at `dst` (row stride ``VP8Prediction/stride``). RFC 6386 14.3:
    /// vertical pass first, then horizontal with the rounding.
    static func inverseDCT(_ input: UnsafePointer<Int16>, _ dst: UnsafeMutablePointer<UInt8>) {
        var tmp = (Int32(0), Int32(0), Int32(0), Int32(0), Int32(0), Int32(0), Int32(0), Int32(0),
                   Int32(0), Int32(0), Int32(0), Int32(0), Int32(0), Int32(0), Int32(0), Int32(0))
        withUnsafeMutableBytes(of: &tmp) { raw in
            let t = raw.baseAddress!.assumingMemoryBound(to: Int32.self)
            for i in 0..<4 {
                let i0 = Int32(input[i]), i4 = Int32(input[4 + i]), i8 = Int32(input[8 + i]), i12 = Int32(input[12 + i])
                let a = i0 &+ i8
                let b = i0 &- i8
                let c = mul2(i4) &- mul1(i12)
                let d = mul1(i4) &+ mul2(i12)
                t[4 * i + 0] = a &+ d
                t[4 * i + 1] = b &+ c
                t[4 * i + 2] = b &- c
                t[4 * i + 3] = a &- d
            }
            let bps = VP8Prediction.stride
            for i in 0..<4 {
                let dc = t[i] &+ 4
                let a = dc &+ t[8 + i]
                let b = dc &- t[8 + i]
                let c = mul2(t[4 + i]) &- mul1(t[12 + i])
                let d = mul1(t[4 + i]) &+ mul2(t[12 + i])
                let row = dst + i * bps
                addClamped(row, a &+ d)
                addClamped(row + 1, b &+ c)
                addClamped(row + 2, b &- c)
                addClamped(row + 3, a &- d)
            }
        }
    }

    /// The inverse DCT of a block whose only non-zero coefficient is the DC.
    static func inverseDCTDCOnly(_ input: UnsafePointer<Int16>, _ dst: UnsafeMutablePointer<UInt8>) {
        let dc = Int32(input[0]) &+ 4
        for j in 0..<4 {
            let row = dst + j * VP8Prediction.stride
            for i in 0..<4 { addClamped(row + i, dc) }
        }
    }

    /// The inverse Walsh-Hadamard transform of the Y2 block (RFC 6386 14.3): its 16 outputs
    /// become the DC coefficients of the 16 luma blocks (`output[16 * k]`), truncated to 16 bits
    /// as libwebp stores them.
    static func inverseWHT(_ input: UnsafePointer<Int16>, _ output: UnsafeMutablePointer<Int16>) {
        var tmp = (Int32(0), Int32(0), Int32(0), Int32(0), Int32(0), Int32(0), Int32(0), Int32(0),
                   Int32(0), Int32(0), Int32(0), Int32(0), Int32(0), Int32(0), Int32(0), Int32(0))
        withUnsafeMutableBytes(of: &tmp) { raw in
            let t = raw.baseAddress!.assumingMemoryBound(to: Int32.self)
            for i in 0..<4 {
                let a0 = Int32(input[i]) &+ Int32(input[12 + i])
                let a1 = Int32(input[4 + i]) &+ Int32(input[8 + i])
                let a2 = Int32(input[4 + i]) &- Int32(input[8 + i])
                let a3 = Int32(input[i]) &- Int32(input[12 + i])
                t[i] = a0 &+ a1
                t[8 + i] = a0 &- a1
                t[4 + i] = a3 &+ a2
                t[12 + i] = a3 &- a2
            }
            for i in 0..<4 {
                let dc = t[4 * i] &+ 3
                let a0 = dc &+ t[4 * i + 3]
                let a1 = t[4 * i + 1] &+ t[4 * i + 2]
                let a2 = t[4 * i + 1] &- t[4 * i + 2]
                let a3 = dc &- t[4 * i + 3]
                let out = output + 64 * i
                out[0] = Int16(truncatingIfNeeded: (a0 &+ a1) &>> 3)
                out[16] = Int16(truncatingIfNeeded: (a3 &+ a2) &>> 3)
                out[32] = Int16(truncatingIfNeeded: (a0 &- a1) &>> 3)
                out[48] = Int16(truncatingIfNeeded: (a3 &- a2) &>> 3)
            }
        }
    }
}
