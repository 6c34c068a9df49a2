/// The loop filters of ``VP8LoopFilter`` on 16 edge positions at once: the 16 pixels along a
/// luma edge, or 8 of U then 8 of V along a chroma edge (libwebp's SSE2 pairs them the same
/// way). The arithmetic is the scalar code's, lane by lane in `Int16`; every variant is computed
/// and the lanes' masks pick one. The scalar functions are its twin (`VP8LoopFilterTests`).
enum VP8LoopFilterSIMD {
    typealias Lanes = SIMD16<Int16>

    /// The 8 pixels across an edge (p3 … p0 | q0 … q3) at 16 positions.
    struct Edge {
        var p3: Lanes, p2: Lanes, p1: Lanes, p0: Lanes, q0: Lanes, q1: Lanes, q2: Lanes, q3: Lanes
    }

    // Masks are lanes of all ones or zeros, and comparisons, selection, min and max are
    // built from wrapping arithmetic and bit operations (which compile to vector instructions;
    // the standard library's SIMDMask operations loop over the lanes). Every difference here
    // is far inside Int16's range.

    /// All ones where `a < b`.
    @inline(__always) static func less(_ a: Lanes, _ b: Lanes) -> Lanes { (a &- b) &>> 15 }
    /// All ones where `a <= b`.
    @inline(__always) static func lessOrEqual(_ a: Lanes, _ b: Lanes) -> Lanes { ~less(b, a) }
    /// `x` where `mask`, else `y`.
    @inline(__always) static func select(_ mask: Lanes, _ x: Lanes, _ y: Lanes) -> Lanes { (x & mask) | (y & ~mask) }
    @inline(__always) static func minimum(_ a: Lanes, _ b: Lanes) -> Lanes {
        let d = a &- b
        return b &+ (d & (d &>> 15))
    }
    @inline(__always) static func maximum(_ a: Lanes, _ b: Lanes) -> Lanes {
        let d = a &- b
        return a &- (d & (d &>> 15))
    }
    @inline(__always) static func absolute(_ v: Lanes) -> Lanes {
        let s = v &>> 15
        return (v ^ s) &- s
    }
    @inline(__always) static func clamp(_ v: Lanes, _ low: Int16, _ high: Int16) -> Lanes {
        minimum(maximum(v, Lanes(repeating: low)), Lanes(repeating: high))
    }

    // MARK: Loading and storing

    @inline(__always) static func widen(_ v: SIMD16<UInt8>) -> Lanes { Lanes(truncatingIfNeeded: v) }
    @inline(__always) static func narrow(_ v: Lanes) -> SIMD16<UInt8> {
        SIMD16<UInt8>(truncatingIfNeeded: clamp(v, 0, 255))
    }

    /// Rows `-4 ..< 4` around `p` (a horizontal edge: the lanes run along the row).
    @inline(__always)
    static func loadRows(_ p: UnsafeMutablePointer<UInt8>, _ stride: Int) -> Edge {
        @inline(__always) func row(_ i: Int) -> Lanes {
            widen(UnsafeRawPointer(p + i * stride).loadUnaligned(as: SIMD16<UInt8>.self))
        }
        return Edge(p3: row(-4), p2: row(-3), p1: row(-2), p0: row(-1), q0: row(0), q1: row(1), q2: row(2), q3: row(3))
    }

    @inline(__always)
    static func storeRow(_ p: UnsafeMutablePointer<UInt8>, _ v: Lanes) {
        UnsafeMutableRawPointer(p).storeBytes(of: narrow(v), as: SIMD16<UInt8>.self)
    }

    /// Rows `-4 ..< 4` of two 8-wide planes, U in the low lanes and V in the high lanes.
    @inline(__always)
    static func loadRows(_ u: UnsafeMutablePointer<UInt8>, _ v: UnsafeMutablePointer<UInt8>, _ stride: Int) -> Edge {
        @inline(__always) func row(_ i: Int) -> Lanes {
            let lo = UnsafeRawPointer(u + i * stride).loadUnaligned(as: SIMD8<UInt8>.self)
            let hi = UnsafeRawPointer(v + i * stride).loadUnaligned(as: SIMD8<UInt8>.self)
            return widen(SIMD16(lowHalf: lo, highHalf: hi))
        }
        return Edge(p3: row(-4), p2: row(-3), p1: row(-2), p0: row(-1), q0: row(0), q1: row(1), q2: row(2), q3: row(3))
    }

    @inline(__always)
    static func storeRow(_ u: UnsafeMutablePointer<UInt8>, _ v: UnsafeMutablePointer<UInt8>, _ value: Lanes) {
        let n = narrow(value)
        UnsafeMutableRawPointer(u).storeBytes(of: n.lowHalf, as: SIMD8<UInt8>.self)
        UnsafeMutableRawPointer(v).storeBytes(of: n.highHalf, as: SIMD8<UInt8>.self)
    }

    /// Lane k's row: rows 0 ..< 8 from `top`, 8 ..< 16 from `bottom` (for luma, `bottom` is 8
    /// rows below `top`; for chroma, U then V).
    @inline(__always)
    static func lane(_ k: Int, _ top: UnsafeMutablePointer<UInt8>, _ bottom: UnsafeMutablePointer<UInt8>,
                     _ stride: Int) -> UnsafeMutablePointer<UInt8> {
        (k < 8 ? top : bottom) + (k & 7) &* stride
    }

    /// Columns `-4 ..< 4` around a vertical edge in 16 rows (see `lane`): lane k is row k.
    @inline(__always)
    static func loadColumns(_ top: UnsafeMutablePointer<UInt8>, _ bottom: UnsafeMutablePointer<UInt8>,
                            _ stride: Int) -> Edge {
        // Transpose through 128 bytes on the stack: byte j of row k goes to column j, lane k.
        var buffer = (SIMD16<UInt8>(), SIMD16<UInt8>(), SIMD16<UInt8>(), SIMD16<UInt8>(),
                      SIMD16<UInt8>(), SIMD16<UInt8>(), SIMD16<UInt8>(), SIMD16<UInt8>())
        withUnsafeMutableBytes(of: &buffer) { raw in
            for k in 0..<16 {
                let w = UnsafeRawPointer(lane(k, top, bottom, stride) - 4).loadUnaligned(as: UInt64.self)
                for j in 0..<8 { raw[j &* 16 &+ k] = UInt8(truncatingIfNeeded: w &>> UInt64(j &* 8)) }
            }
        }
        return Edge(p3: widen(buffer.0), p2: widen(buffer.1), p1: widen(buffer.2), p0: widen(buffer.3),
                    q0: widen(buffer.4), q1: widen(buffer.5), q2: widen(buffer.6), q3: widen(buffer.7))
    }

    @inline(__always)
    static func storeColumns(_ e: Edge, _ top: UnsafeMutablePointer<UInt8>, _ bottom: UnsafeMutablePointer<UInt8>,
                             _ stride: Int) {
        var buffer = (narrow(e.p3), narrow(e.p2), narrow(e.p1), narrow(e.p0),
                      narrow(e.q0), narrow(e.q1), narrow(e.q2), narrow(e.q3))
        withUnsafeBytes(of: &buffer) { raw in
            for k in 0..<16 {
                var w: UInt64 = 0
                for j in 0..<8 { w |= UInt64(raw[j &* 16 &+ k]) &<< UInt64(j &* 8) }
                UnsafeMutableRawPointer(lane(k, top, bottom, stride) - 4).storeBytes(of: w, as: UInt64.self)
            }
        }
    }

    // MARK: Filters

    /// The simple filter (RFC 6386 15.2): p0 and q0 where `4|p0 − q0| + |p1 − q1| ≤ 2·limit + 1`.
    @inline(__always)
    static func simple(_ e: inout Edge, limit: Int16) {
        let t = Lanes(repeating: 2 &* limit &+ 1)
        let needs = lessOrEqual(4 &* absolute(e.p0 &- e.q0) &+ absolute(e.p1 &- e.q1), t)
        let (p0, q0) = filter2(e)
        e.p0 = select(needs, p0, e.p0)
        e.q0 = select(needs, q0, e.q0)
    }

    @inline(__always)
    static func filter2(_ e: Edge) -> (p0: Lanes, q0: Lanes) {
        let a = 3 &* (e.q0 &- e.p0) &+ clamp(e.p1 &- e.q1, -128, 127)
        let a1 = clamp((a &+ 4) &>> 3, -16, 15)
        let a2 = clamp((a &+ 3) &>> 3, -16, 15)
        return (e.p0 &+ a2, e.q0 &- a1)
    }

    /// The normal filter's tests (RFC 6386 15.3): which lanes are filtered, and which of those
    /// have high edge variance.
    @inline(__always)
    static func masks(_ e: Edge, limit: Int16, interior: Int16, hevThreshold: Int16)
        -> (filter: Lanes, hev: Lanes) {
        let t = Lanes(repeating: 2 &* limit &+ 1)
        let it = Lanes(repeating: interior)
        // The largest interior difference against the interior limit.
        var d = maximum(absolute(e.p3 &- e.p2), absolute(e.p2 &- e.p1))
        d = maximum(d, maximum(absolute(e.q3 &- e.q2), absolute(e.q2 &- e.q1)))
        let inner = maximum(absolute(e.p1 &- e.p0), absolute(e.q1 &- e.q0))
        d = maximum(d, inner)
        let m = lessOrEqual(4 &* absolute(e.p0 &- e.q0) &+ absolute(e.p1 &- e.q1), t) & lessOrEqual(d, it)
        let hev = less(Lanes(repeating: hevThreshold), inner)
        return (m, hev)
    }

    /// A macroblock edge: filter2 where the variance is high, else the 6-tap adjustment.
    @inline(__always)
    static func macroblockEdge(_ e: inout Edge, limit: Int16, interior: Int16, hevThreshold: Int16) {
        let (m, hev) = masks(e, limit: limit, interior: interior, hevThreshold: hevThreshold)
        let (p0h, q0h) = filter2(e)
        let a = clamp(3 &* (e.q0 &- e.p0) &+ clamp(e.p1 &- e.q1, -128, 127), -128, 127)
        let a1 = (27 &* a &+ 63) &>> 7
        let a2 = (18 &* a &+ 63) &>> 7
        let a3 = (9 &* a &+ 63) &>> 7
        let six = m & ~hev
        let two = m & hev
        e.p2 = select(six, e.p2 &+ a3, e.p2)
        e.p1 = select(six, e.p1 &+ a2, e.p1)
        e.q1 = select(six, e.q1 &- a2, e.q1)
        e.q2 = select(six, e.q2 &- a3, e.q2)
        let p0 = select(six, e.p0 &+ a1, e.p0), q0 = select(six, e.q0 &- a1, e.q0)
        e.p0 = select(two, p0h, p0)
        e.q0 = select(two, q0h, q0)
    }

    /// A sub-block edge: filter2 where the variance is high, else the 4-tap adjustment.
    @inline(__always)
    static func innerEdge(_ e: inout Edge, limit: Int16, interior: Int16, hevThreshold: Int16) {
        let (m, hev) = masks(e, limit: limit, interior: interior, hevThreshold: hevThreshold)
        let (p0h, q0h) = filter2(e)
        let a = 3 &* (e.q0 &- e.p0)
        let a1 = clamp((a &+ 4) &>> 3, -16, 15)
        let a2 = clamp((a &+ 3) &>> 3, -16, 15)
        let a3 = (a1 &+ 1) &>> 1
        let four = m & ~hev
        let two = m & hev
        e.p1 = select(four, e.p1 &+ a3, e.p1)
        e.q1 = select(four, e.q1 &- a3, e.q1)
        let p0 = select(four, e.p0 &+ a2, e.p0), q0 = select(four, e.q0 &- a1, e.q0)
        e.p0 = select(two, p0h, p0)
        e.q0 = select(two, q0h, q0)
    }

    // MARK: One macroblock

    /// ``VP8LoopFilter/filterMacroblock`` on 16 lanes: the same edges in the same order.
    static func filterMacroblock(_ info: VP8FilterInfo, isSimple: Bool, mbX: Int, mbY: Int,
                                 y: UnsafeMutablePointer<UInt8>, yStride: Int,
                                 u: UnsafeMutablePointer<UInt8>, v: UnsafeMutablePointer<UInt8>, uvStride: Int) {
        guard info.limit > 0 else { return }
        let limit = Int16(truncatingIfNeeded: info.limit)
        let it = Int16(truncatingIfNeeded: info.interiorLimit)
        let hev = Int16(truncatingIfNeeded: info.hevThreshold)
        let y8 = y + 8 * yStride
        if isSimple {
            if mbX > 0 { var e = loadColumns(y + 0, y8 + 0, yStride); simple(&e, limit: limit + 4); storeColumns(e, y + 0, y8 + 0, yStride) }
            if info.filtersInner {
                for x in stride(from: 4, through: 12, by: 4) { var e = loadColumns(y + x, y8 + x, yStride); simple(&e, limit: limit); storeColumns(e, y + x, y8 + x, yStride) }
            }
            if mbY > 0 { var e = loadRows(y, yStride); simple(&e, limit: limit + 4); storeP0Q0(e, y, yStride) }
            if info.filtersInner {
                for r in stride(from: 4, through: 12, by: 4) {
                    let p = y + r * yStride
                    var e = loadRows(p, yStride); simple(&e, limit: limit); storeP0Q0(e, p, yStride)
                }
            }
            return
        }
        if mbX > 0 {
            var e = loadColumns(y + 0, y8 + 0, yStride)
            macroblockEdge(&e, limit: limit + 4, interior: it, hevThreshold: hev)
            storeColumns(e, y + 0, y8 + 0, yStride)
            var c = loadColumns(u + 0, v + 0, uvStride)
            macroblockEdge(&c, limit: limit + 4, interior: it, hevThreshold: hev)
            storeColumns(c, u + 0, v + 0, uvStride)
        }
        if info.filtersInner {
            for x in stride(from: 4, through: 12, by: 4) {
                var e = loadColumns(y + x, y8 + x, yStride)
                innerEdge(&e, limit: limit, interior: it, hevThreshold: hev)
                storeColumns(e, y + x, y8 + x, yStride)
            }
            var c = loadColumns(u + 4, v + 4, uvStride)
            innerEdge(&c, limit: limit, interior: it, hevThreshold: hev)
            storeColumns(c, u + 4, v + 4, uvStride)
        }
        if mbY > 0 {
            var e = loadRows(y, yStride)
            macroblockEdge(&e, limit: limit + 4, interior: it, hevThreshold: hev)
            storeP2Q2(e, y, yStride)
            var c = loadRows(u, v, uvStride)
            macroblockEdge(&c, limit: limit + 4, interior: it, hevThreshold: hev)
            for i in -3..<3 { storeRow(u + i * uvStride, v + i * uvStride, c[row: i]) }
        }
        if info.filtersInner {
            for r in stride(from: 4, through: 12, by: 4) {
                let p = y + r * yStride
                var e = loadRows(p, yStride)
                innerEdge(&e, limit: limit, interior: it, hevThreshold: hev)
                for i in -2..<2 { storeRow(p + i * yStride, e[row: i]) }
            }
            let pu = u + 4 * uvStride, pv = v + 4 * uvStride
            var c = loadRows(pu, pv, uvStride)
            innerEdge(&c, limit: limit, interior: it, hevThreshold: hev)
            for i in -2..<2 { storeRow(pu + i * uvStride, pv + i * uvStride, c[row: i]) }
        }
    }

    @inline(__always)
    static func storeP0Q0(_ e: Edge, _ p: UnsafeMutablePointer<UInt8>, _ stride: Int) {
        storeRow(p - stride, e.p0)
        storeRow(p, e.q0)
    }

    @inline(__always)
    static func storeP2Q2(_ e: Edge, _ p: UnsafeMutablePointer<UInt8>, _ stride: Int) {
        for i in -3..<3 { storeRow(p + i * stride, e[row: i]) }
    }
}

extension VP8LoopFilterSIMD.Edge {
    /// The row (or column) at offset `i` from the edge, -4 ..< 4.
    @inline(__always)
    subscript(row i: Int) -> SIMD16<Int16> {
        switch i {
        case -4: return p3
        case -3: return p2
        case -2: return p1
        case -1: return p0
        case 0: return q0
        case 1: return q1
        case 2: return q2
        default: return q3
        }
    }
}
