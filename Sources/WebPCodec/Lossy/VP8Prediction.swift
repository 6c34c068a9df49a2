/// Intra prediction, RFC 6386 section 12, on a macroblock work area of stride
/// ``VP8Prediction/stride``: each predictor writes its block at `dst` from the row above
/// (`dst - stride`, with the corner at `dst - stride - 1` and, for 4×4 blocks, four more
/// samples to the right) and the column to the left (`dst - 1`).
///
/// Frame edges are libwebp's: the work area's row above the top macroblock row holds 127,
/// the column left of the first macroblock 129 (the corner 129 below the top row), and only
/// the DC predictors of 16×16 luma and 8×8 chroma treat missing edges specially
/// (``Mode16`` has the `noTop`/`noLeft`/`noTopLeft` variants). Sub-block (4×4) modes use the
/// edge values as they are.
enum VP8Prediction {
    /// Bytes per row of the work area (libwebp's BPS).
    static let stride = 32

    /// Whole-block modes of luma 16×16 and chroma 8×8 (RFC 6386 12.2), plus the DC variants
    /// for frame edges.
    enum BlockMode: UInt8 {
        case dc = 0, tm = 1, v = 2, h = 3, dcNoTop = 4, dcNoLeft = 5, dcNoTopLeft = 6
    }

    /// The DC variant for a macroblock at (`mbX`, `mbY`), as libwebp's CheckMode.
    @inline(__always)
    static func edgeMode(_ mode: UInt8, mbX: Int, mbY: Int) -> BlockMode {
        guard mode == 0 else { return BlockMode(rawValue: mode) ?? .dc }
        if mbX == 0 { return mbY == 0 ? .dcNoTopLeft : .dcNoLeft }
        return mbY == 0 ? .dcNoTop : .dc
    }

    /// Predicts a `size`×`size` block (16 for luma, 8 for chroma).
    static func predictBlock(_ mode: BlockMode, size: Int, _ dst: UnsafeMutablePointer<UInt8>) {
        let bps = stride
        let shift = size == 16 ? 5 : 4
        switch mode {
        case .dc, .dcNoTop, .dcNoLeft:
            var sum = 0
            var count = 0
            if mode != .dcNoTop {
                for i in 0..<size { sum &+= Int(dst[i - bps]) }
                count &+= 1
            }
            if mode != .dcNoLeft {
                for j in 0..<size { sum &+= Int(dst[j * bps - 1]) }
                count &+= 1
            }
            // Both edges: (sum + size) >> shift; one edge: (sum + size / 2) >> (shift - 1).
            let s = count == 2 ? shift : shift - 1
            fill(dst, size: size, value: UInt8(truncatingIfNeeded: (sum + (1 << (s - 1))) >> s))
        case .dcNoTopLeft:
            fill(dst, size: size, value: 0x80)
        case .tm:
            trueMotion(dst, size: size)
        case .v:
            for j in 1..<(size + 1) {
                (dst + j * bps - bps).update(from: dst - bps, count: size)
            }
        case .h:
            for j in 0..<size {
                let left = dst[j * bps - 1]
                (dst + j * bps).update(repeating: left, count: size)
            }
        }
    }

    @inline(__always)
    static func fill(_ dst: UnsafeMutablePointer<UInt8>, size: Int, value: UInt8) {
        for j in 0..<size { (dst + j * stride).update(repeating: value, count: size) }
    }

    /// TM_PRED (RFC 6386 12.2): `clamp(left + above - corner)`.
    @inline(__always)
    static func trueMotion(_ dst: UnsafeMutablePointer<UInt8>, size: Int) {
        let top = dst - stride
        let corner = Int(top[-1])
        for j in 0..<size {
            let row = dst + j * stride
            let base = Int(row[-1]) &- corner
            for i in 0..<size { row[i] = clamp255(base &+ Int(top[i])) }
        }
    }

    @inline(__always)
    static func clamp255(_ v: Int) -> UInt8 {
        v & ~0xFF == 0 ? UInt8(truncatingIfNeeded: v) : (v < 0 ? 0 : 255)
    }

    @inline(__always) static func avg2(_ a: UInt8, _ b: UInt8) -> UInt8 {
        UInt8(truncatingIfNeeded: (Int(a) &+ Int(b) &+ 1) &>> 1)
    }

    @inline(__always) static func avg3(_ a: UInt8, _ b: UInt8, _ c: UInt8) -> UInt8 {
        UInt8(truncatingIfNeeded: (Int(a) &+ 2 &* Int(b) &+ Int(c) &+ 2) &>> 2)
    }

    /// Predicts one 4×4 luma sub-block in `mode` (RFC 6386 12.3; the `intra_bmode` numbering:
    /// DC, TM, VE, HE, LD, RD, VR, VL, HD, HU).
    static func predictSubblock(_ mode: UInt8, _ dst: UnsafeMutablePointer<UInt8>) {
        let bps = stride
        let top = dst - bps
        // A[-1...7]: the corner, the four samples above and the four above-right.
        let p = top[-1]
        let a0 = top[0], a1 = top[1], a2 = top[2], a3 = top[3]
        let a4 = top[4], a5 = top[5], a6 = top[6], a7 = top[7]
        let l0 = dst[-1], l1 = dst[bps - 1], l2 = dst[2 * bps - 1], l3 = dst[3 * bps - 1]
        @inline(__always) func put(_ x: Int, _ y: Int, _ v: UInt8) { dst[x + y * bps] = v }
        switch mode {
        case 0:  // B_DC_PRED
            var sum = 4
            for i in 0..<4 { sum &+= Int(top[i]) &+ Int(dst[i * bps - 1]) }
            let v = UInt8(truncatingIfNeeded: sum >> 3)
            for y in 0..<4 { (dst + y * bps).update(repeating: v, count: 4) }
        case 1:  // B_TM_PRED
            trueMotion(dst, size: 4)
        case 2:  // B_VE_PRED: smoothed row above.
            let v0 = avg3(p, a0, a1), v1 = avg3(a0, a1, a2), v2 = avg3(a1, a2, a3), v3 = avg3(a2, a3, a4)
            for y in 0..<4 { put(0, y, v0); put(1, y, v1); put(2, y, v2); put(3, y, v3) }
        case 3:  // B_HE_PRED: smoothed left column.
            dst.update(repeating: avg3(p, l0, l1), count: 4)
            (dst + bps).update(repeating: avg3(l0, l1, l2), count: 4)
            (dst + 2 * bps).update(repeating: avg3(l1, l2, l3), count: 4)
            (dst + 3 * bps).update(repeating: avg3(l2, l3, l3), count: 4)
        case 4:  // B_LD_PRED
            // Each anti-diagonal x + y = d holds avg3(A[d], A[d + 1], A[d + 2]), A[8] = A[7].
            let d0 = avg3(a0, a1, a2), d1 = avg3(a1, a2, a3), d2 = avg3(a2, a3, a4), d3 = avg3(a3, a4, a5)
            let d4 = avg3(a4, a5, a6), d5 = avg3(a5, a6, a7), d6 = avg3(a6, a7, a7)
            put(0, 0, d0)
            put(1, 0, d1); put(0, 1, d1)
            put(2, 0, d2); put(1, 1, d2); put(0, 2, d2)
            put(3, 0, d3); put(2, 1, d3); put(1, 2, d3); put(0, 3, d3)
            put(3, 1, d4); put(2, 2, d4); put(1, 3, d4)
            put(3, 2, d5); put(2, 3, d5)
            put(3, 3, d6)
        case 5:  // B_RD_PRED: the edge from bottom-left through the corner to top-right.
            // Each diagonal x - y = k holds avg3(E[3 + k], E[4 + k], E[5 + k]) over the edge
            // E = L3 L2 L1 L0 P A0 A1 A2 A3.
            let m3 = avg3(l3, l2, l1), m2 = avg3(l2, l1, l0), m1 = avg3(l1, l0, p), k0 = avg3(l0, p, a0)
            let k1 = avg3(p, a0, a1), k2 = avg3(a0, a1, a2), k3 = avg3(a1, a2, a3)
            put(0, 3, m3)
            put(0, 2, m2); put(1, 3, m2)
            put(0, 1, m1); put(1, 2, m1); put(2, 3, m1)
            put(0, 0, k0); put(1, 1, k0); put(2, 2, k0); put(3, 3, k0)
            put(1, 0, k1); put(2, 1, k1); put(3, 2, k1)
            put(2, 0, k2); put(3, 1, k2)
            put(3, 0, k3)
        case 6:  // B_VR_PRED
            let e1 = l2, e2 = l1, e3 = l0, e4 = p, e5 = a0, e6 = a1, e7 = a2, e8 = a3
            put(0, 3, avg3(e1, e2, e3))
            put(0, 2, avg3(e2, e3, e4))
            put(1, 3, avg3(e3, e4, e5)); put(0, 1, avg3(e3, e4, e5))
            put(1, 2, avg2(e4, e5)); put(0, 0, avg2(e4, e5))
            put(2, 3, avg3(e4, e5, e6)); put(1, 1, avg3(e4, e5, e6))
            put(2, 2, avg2(e5, e6)); put(1, 0, avg2(e5, e6))
            put(3, 3, avg3(e5, e6, e7)); put(2, 1, avg3(e5, e6, e7))
            put(3, 2, avg2(e6, e7)); put(2, 0, avg2(e6, e7))
            put(3, 1, avg3(e6, e7, e8))
            put(3, 0, avg2(e7, e8))
        case 7:  // B_VL_PRED
            put(0, 0, avg2(a0, a1))
            put(0, 1, avg3(a0, a1, a2))
            put(0, 2, avg2(a1, a2)); put(1, 0, avg2(a1, a2))
            put(1, 1, avg3(a1, a2, a3)); put(0, 3, avg3(a1, a2, a3))
            put(1, 2, avg2(a2, a3)); put(2, 0, avg2(a2, a3))
            put(1, 3, avg3(a2, a3, a4)); put(2, 1, avg3(a2, a3, a4))
            put(2, 2, avg2(a3, a4)); put(3, 0, avg2(a3, a4))
            put(2, 3, avg3(a3, a4, a5)); put(3, 1, avg3(a3, a4, a5))
            // The last two do not follow the pattern (RFC 6386 12.3).
            put(3, 2, avg3(a4, a5, a6))
            put(3, 3, avg3(a5, a6, a7))
        case 8:  // B_HD_PRED
            let e0 = l3, e1 = l2, e2 = l1, e3 = l0, e4 = p, e5 = a0, e6 = a1, e7 = a2
            put(0, 3, avg2(e0, e1))
            put(1, 3, avg3(e0, e1, e2))
            put(0, 2, avg2(e1, e2)); put(2, 3, avg2(e1, e2))
            put(1, 2, avg3(e1, e2, e3)); put(3, 3, avg3(e1, e2, e3))
            put(2, 2, avg2(e2, e3)); put(0, 1, avg2(e2, e3))
            put(3, 2, avg3(e2, e3, e4)); put(1, 1, avg3(e2, e3, e4))
            put(2, 1, avg2(e3, e4)); put(0, 0, avg2(e3, e4))
            put(3, 1, avg3(e3, e4, e5)); put(1, 0, avg3(e3, e4, e5))
            put(2, 0, avg3(e4, e5, e6))
            put(3, 0, avg3(e5, e6, e7))
        default:  // 9, B_HU_PRED
            put(0, 0, avg2(l0, l1))
            put(1, 0, avg3(l0, l1, l2))
            put(2, 0, avg2(l1, l2)); put(0, 1, avg2(l1, l2))
            put(3, 0, avg3(l1, l2, l3)); put(1, 1, avg3(l1, l2, l3))
            put(2, 1, avg2(l2, l3)); put(0, 2, avg2(l2, l3))
            put(3, 1, avg3(l2, l3, l3)); put(1, 2, avg3(l2, l3, l3))
            put(2, 2, l3); put(3, 2, l3)
            for x in 0..<4 { put(x, 3, l3) }
        }
    }
}
