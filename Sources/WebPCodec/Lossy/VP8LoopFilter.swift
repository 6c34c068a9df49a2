/// The loop filter's parameters for one macroblock (RFC 6386 15.1 and 9.6), derived as
/// libwebp derives them: `limit = 2 * level + interior`, edges between macroblocks use
/// `limit + 4`, and an edge pixel pair is filtered when `4 |p0 - q0| + |p1 - q1| <= 2 * limit + 1`.
struct VP8FilterInfo: Sendable {
    /// 0 means no filtering.
    var limit: Int32 = 0
    var interiorLimit: Int32 = 0
    var hevThreshold: Int32 = 0
    /// Whether the inner (sub-block) edges are filtered: B_PRED, or any non-zero coefficient.
    var filtersInner = false

    /// The parameters of every segment (4) × B_PRED (2) pair, RFC 6386 15.1 and 9.3, 9.4.
    static func strengths(_ header: VP8FrameHeader) -> [VP8FilterInfo] {
        var out = [VP8FilterInfo](repeating: VP8FilterInfo(), count: 8)
        let f = header.filter
        let seg = header.segmentation
        for s in 0..<4 {
            var base = f.level
            if seg.isEnabled {
                base = seg.filterLevel[s] + (seg.isAbsolute ? 0 : f.level)
            }
            for i4x4 in 0..<2 {
                var level = base
                if f.usesDeltas {
                    level += f.referenceDeltas[0]  // intra frame
                    if i4x4 == 1 { level += f.modeDeltas[0] }  // B_PRED
                }
                level = min(max(level, 0), 63)
                var info = VP8FilterInfo()
                if level > 0 {
                    var interior = level
                    if f.sharpness > 0 {
                        interior >>= f.sharpness > 4 ? 2 : 1
                        interior = min(interior, 9 - f.sharpness)
                    }
                    interior = max(interior, 1)
                    info.interiorLimit = Int32(interior)
                    info.limit = Int32(2 * level + interior)
                    info.hevThreshold = level >= 40 ? 2 : level >= 15 ? 1 : 0
                }
                info.filtersInner = i4x4 == 1
                out[s * 2 + i4x4] = info
            }
        }
        return out
    }
}

/// The loop filters of RFC 6386 section 15 (simple 15.2, normal 15.3), with libwebp's
/// arithmetic. `p` points at the first pixel past the edge (q0); `step` crosses the edge,
/// `advance` moves along it.
enum VP8LoopFilter {
    @inline(__always) static func clampS8(_ v: Int32) -> Int32 { v < -128 ? -128 : v > 127 ? 127 : v }
    @inline(__always) static func clampS4(_ v: Int32) -> Int32 { v < -16 ? -16 : v > 15 ? 15 : v }
    @inline(__always) static func clampU8(_ v: Int32) -> UInt8 {
        v & ~0xFF == 0 ? UInt8(truncatingIfNeeded: v) : (v < 0 ? 0 : 255)
    }
    @inline(__always) static func abs(_ v: Int32) -> Int32 { v < 0 ? 0 &- v : v }

    /// Adjusts p0 and q0 using the outer taps (the simple filter, and high edge variance).
    @inline(__always)
    static func filter2(_ p: UnsafeMutablePointer<UInt8>, _ step: Int) {
        let p1 = Int32(p[-2 * step]), p0 = Int32(p[-step]), q0 = Int32(p[0]), q1 = Int32(p[step])
        let a = 3 &* (q0 &- p0) &+ clampS8(p1 &- q1)
        let a1 = clampS4((a &+ 4) &>> 3)
        let a2 = clampS4((a &+ 3) &>> 3)
        p[-step] = clampU8(p0 &+ a2)
        p[0] = clampU8(q0 &- a1)
    }

    /// Sub-block edge without high edge variance: p1, p0, q0, q1.
    @inline(__always)
    static func filter4(_ p: UnsafeMutablePointer<UInt8>, _ step: Int) {
        let p1 = Int32(p[-2 * step]), p0 = Int32(p[-step]), q0 = Int32(p[0]), q1 = Int32(p[step])
        let a = 3 &* (q0 &- p0)
        let a1 = clampS4((a &+ 4) &>> 3)
        let a2 = clampS4((a &+ 3) &>> 3)
        let a3 = (a1 &+ 1) &>> 1
        p[-2 * step] = clampU8(p1 &+ a3)
        p[-step] = clampU8(p0 &+ a2)
        p[0] = clampU8(q0 &- a1)
        p[step] = clampU8(q1 &- a3)
    }

    /// Macroblock edge without high edge variance: three pixels each side.
    @inline(__always)
    static func filter6(_ p: UnsafeMutablePointer<UInt8>, _ step: Int) {
        let p2 = Int32(p[-3 * step]), p1 = Int32(p[-2 * step]), p0 = Int32(p[-step])
        let q0 = Int32(p[0]), q1 = Int32(p[step]), q2 = Int32(p[2 * step])
        let a = clampS8(3 &* (q0 &- p0) &+ clampS8(p1 &- q1))
        let a1 = (27 &* a &+ 63) &>> 7
        let a2 = (18 &* a &+ 63) &>> 7
        let a3 = (9 &* a &+ 63) &>> 7
        p[-3 * step] = clampU8(p2 &+ a3)
        p[-2 * step] = clampU8(p1 &+ a2)
        p[-step] = clampU8(p0 &+ a1)
        p[0] = clampU8(q0 &- a1)
        p[step] = clampU8(q1 &- a2)
        p[2 * step] = clampU8(q2 &- a3)
    }

    @inline(__always)
    static func highEdgeVariance(_ p: UnsafeMutablePointer<UInt8>, _ step: Int, _ threshold: Int32) -> Bool {
        let p1 = Int32(p[-2 * step]), p0 = Int32(p[-step]), q0 = Int32(p[0]), q1 = Int32(p[step])
        return abs(p1 &- p0) > threshold || abs(q1 &- q0) > threshold
    }

    @inline(__always)
    static func needsFilter(_ p: UnsafeMutablePointer<UInt8>, _ step: Int, _ t: Int32) -> Bool {
        let p1 = Int32(p[-2 * step]), p0 = Int32(p[-step]), q0 = Int32(p[0]), q1 = Int32(p[step])
        return 4 &* abs(p0 &- q0) &+ abs(p1 &- q1) <= t
    }

    @inline(__always)
    static func needsFilter2(_ p: UnsafeMutablePointer<UInt8>, _ step: Int, _ t: Int32, _ it: Int32) -> Bool {
        let p3 = Int32(p[-4 * step]), p2 = Int32(p[-3 * step]), p1 = Int32(p[-2 * step]), p0 = Int32(p[-step])
        let q0 = Int32(p[0]), q1 = Int32(p[step]), q2 = Int32(p[2 * step]), q3 = Int32(p[3 * step])
        if 4 &* abs(p0 &- q0) &+ abs(p1 &- q1) > t { return false }
        return abs(p3 &- p2) <= it && abs(p2 &- p1) <= it && abs(p1 &- p0) <= it
            && abs(q3 &- q2) <= it && abs(q2 &- q1) <= it && abs(q1 &- q0) <= it
    }

    /// The simple filter along one edge of `count` pixels. (Out of line, as ``normal``: inlined
    /// into ``filterMacroblock`` in optimised builds, the two gave other pixels than the same
    /// calls made one by one, and than the SIMD twin; the cause is not known.)
    @inline(never)
    static func simple(_ p: UnsafeMutablePointer<UInt8>, step: Int, advance: Int, count: Int, limit: Int32) {
        let t = 2 &* limit &+ 1
        var q = p
        for _ in 0..<count {
            if needsFilter(q, step, t) { filter2(q, step) }
            q += advance
        }
    }

    /// The normal filter along a macroblock edge (`isMacroblockEdge`) or a sub-block edge.
    @inline(never)
    static func normal(_ p: UnsafeMutablePointer<UInt8>, step: Int, advance: Int, count: Int,
                       limit: Int32, interior: Int32, hevThreshold: Int32, isMacroblockEdge: Bool) {
        let t = 2 &* limit &+ 1
        var q = p
        for _ in 0..<count {
            if needsFilter2(q, step, t, interior) {
                if highEdgeVariance(q, step, hevThreshold) {
                    filter2(q, step)
                } else if isMacroblockEdge {
                    filter6(q, step)
                } else {
                    filter4(q, step)
                }
            }
            q += advance
        }
    }

    /// Filters one macroblock in place in the frame planes, in libwebp's order: left edge,
    /// inner vertical edges, top edge, inner horizontal edges (RFC 6386 15.1).
    static func filterMacroblock(_ info: VP8FilterInfo, isSimple: Bool, mbX: Int, mbY: Int,
                                 y: UnsafeMutablePointer<UInt8>, yStride: Int,
                                 u: UnsafeMutablePointer<UInt8>, v: UnsafeMutablePointer<UInt8>, uvStride: Int) {
        let limit = info.limit
        guard limit > 0 else { return }
        if isSimple {
            if mbX > 0 { simple(y, step: 1, advance: yStride, count: 16, limit: limit + 4) }
            if info.filtersInner {
                for k in 1..<4 { simple(y + 4 * k, step: 1, advance: yStride, count: 16, limit: limit) }
            }
            if mbY > 0 { simple(y, step: yStride, advance: 1, count: 16, limit: limit + 4) }
            if info.filtersInner {
                for k in 1..<4 { simple(y + 4 * k * yStride, step: yStride, advance: 1, count: 16, limit: limit) }
            }
            return
        }
        let it = info.interiorLimit, hev = info.hevThreshold
        if mbX > 0 {
            normal(y, step: 1, advance: yStride, count: 16, limit: limit + 4, interior: it, hevThreshold: hev, isMacroblockEdge: true)
            normal(u, step: 1, advance: uvStride, count: 8, limit: limit + 4, interior: it, hevThreshold: hev, isMacroblockEdge: true)
            normal(v, step: 1, advance: uvStride, count: 8, limit: limit + 4, interior: it, hevThreshold: hev, isMacroblockEdge: true)
        }
        if info.filtersInner {
            for k in 1..<4 {
                normal(y + 4 * k, step: 1, advance: yStride, count: 16, limit: limit, interior: it, hevThreshold: hev, isMacroblockEdge: false)
            }
            normal(u + 4, step: 1, advance: uvStride, count: 8, limit: limit, interior: it, hevThreshold: hev, isMacroblockEdge: false)
            normal(v + 4, step: 1, advance: uvStride, count: 8, limit: limit, interior: it, hevThreshold: hev, isMacroblockEdge: false)
        }
        if mbY > 0 {
            normal(y, step: yStride, advance: 1, count: 16, limit: limit + 4, interior: it, hevThreshold: hev, isMacroblockEdge: true)
            normal(u, step: uvStride, advance: 1, count: 8, limit: limit + 4, interior: it, hevThreshold: hev, isMacroblockEdge: true)
            normal(v, step: uvStride, advance: 1, count: 8, limit: limit + 4, interior: it, hevThreshold: hev, isMacroblockEdge: true)
        }
        if info.filtersInner {
            for k in 1..<4 {
                normal(y + 4 * k * yStride, step: yStride, advance: 1, count: 16, limit: limit, interior: it, hevThreshold: hev, isMacroblockEdge: false)
            }
            normal(u + 4 * uvStride, step: uvStride, advance: 1, count: 8, limit: limit, interior: it, hevThreshold: hev, isMacroblockEdge: false)
            normal(v + 4 * uvStride, step: uvStride, advance: 1, count: 8, limit: limit, interior: it, hevThreshold: hev, isMacroblockEdge: false)
        }
    }
}
