/// The loop filters of ``VP8LoopFilter`` on 16 edge positions at once: the 16 pixels along a
/// luma edge, or 8 of U then 8 of V along a chroma edge (libwebp's SSE2 pairs them the same
/// way). The arithmetic is the scalar code's, lane by lane in `Int16`; every variant is computed
/// and the lanes' masks pick one. The scalar functions are its twin (`VP8LoopFilterTests`).
enum VP8LoopFilterSIMD {
    typealias Lanes = SIMD16<Int16>

    /// Whether whole decodes use these kernels: in optimised builds. Unoptimised (debug)
    /// builds run the scalar twin, since generic SIMD code is many times slower there; the
    /// twin tests run the SIMD kernels in every build.
    #if DEBUG
    static let isPreferred = false
    #else
    static let isPreferred = true
    #endif

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

    /// Transposes an 8×8 byte matrix held as 8 little-endian words (row r, byte j) in three
    /// rounds of block swaps (4×4, 2×2, then single bytes): word j ends up holding column j.
    @inline(__always)
    static func transpose(_ w: inout (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64)) {
        @inline(__always) func swap(_ a: inout UInt64, _ b: inout UInt64, _ shift: UInt64, _ mask: UInt64) {
            let x = ((a &>> shift) ^ b) & mask
            a ^= x &<< shift
            b ^= x
        }
        let m32: UInt64 = 0x0000_0000_FFFF_FFFF, m16: UInt64 = 0x0000_FFFF_0000_FFFF, m8: UInt64 = 0x00FF_00FF_00FF_00FF
        swap(&w.0, &w.4, 32, m32); swap(&w.1, &w.5, 32, m32); swap(&w.2, &w.6, 32, m32); swap(&w.3, &w.7, 32, m32)
        swap(&w.0, &w.2, 16, m16); swap(&w.1, &w.3, 16, m16); swap(&w.4, &w.6, 16, m16); swap(&w.5, &w.7, 16, m16)
        swap(&w.0, &w.1, 8, m8); swap(&w.2, &w.3, 8, m8); swap(&w.4, &w.5, 8, m8); swap(&w.6, &w.7, 8, m8)
    }

    /// The 8 bytes at columns -4 ..< 4 of 8 rows starting at `p`, transposed.
    @inline(__always)
    static func loadBlock(_ p: UnsafeMutablePointer<UInt8>, _ stride: Int)
        -> (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) {
        @inline(__always) func row(_ k: Int) -> UInt64 {
            UnsafeRawPointer(p + k &* stride - 4).loadUnaligned(as: UInt64.self)
        }
        var w = (row(0), row(1), row(2), row(3), row(4), row(5), row(6), row(7))
        transpose(&w)
        return w
    }

    @inline(__always)
    static func storeBlock(_ block: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64),
                           _ p: UnsafeMutablePointer<UInt8>, _ stride: Int) {
        var w = block
        transpose(&w)
        @inline(__always) func row(_ k: Int, _ v: UInt64) {
            UnsafeMutableRawPointer(p + k &* stride - 4).storeBytes(of: v, as: UInt64.self)
        }
        row(0, w.0); row(1, w.1); row(2, w.2); row(3, w.3); row(4, w.4); row(5, w.5); row(6, w.6); row(7, w.7)
    }

    /// Columns `-4 ..< 4` around a vertical edge in 16 rows: 8 from `top` (lanes 0 ..< 8) and 8
    /// from `bottom` (lanes 8 ..< 16; for luma 8 rows below `top`, for chroma the V plane).
    @inline(__always)
    static func loadColumns(_ top: UnsafeMutablePointer<UInt8>, _ bottom: UnsafeMutablePointer<UInt8>,
                            _ stride: Int) -> Edge {
        let a = loadBlock(top, stride), b = loadBlock(bottom, stride)
        @inline(__always) func column(_ lo: UInt64, _ hi: UInt64) -> Lanes {
            widen(unsafeBitCast(SIMD2<UInt64>(lo, hi), to: SIMD16<UInt8>.self))
        }
        return Edge(p3: column(a.0, b.0), p2: column(a.1, b.1), p1: column(a.2, b.2), p0: column(a.3, b.3),
                    q0: column(a.4, b.4), q1: column(a.5, b.5), q2: column(a.6, b.6), q3: column(a.7, b.7))
    }

    @inline(__always)
    static func storeColumns(_ e: Edge, _ top: UnsafeMutablePointer<UInt8>, _ bottom: UnsafeMutablePointer<UInt8>,
                             _ stride: Int) {
        @inline(__always) func words(_ v: Lanes) -> SIMD2<UInt64> { unsafeBitCast(narrow(v), to: SIMD2<UInt64>.self) }
        let c0 = words(e.p3), c1 = words(e.p2), c2 = words(e.p1), c3 = words(e.p0)
        let c4 = words(e.q0), c5 = words(e.q1), c6 = words(e.q2), c7 = words(e.q3)
        storeBlock((c0.x, c1.x, c2.x, c3.x, c4.x, c5.x, c6.x, c7.x), top, stride)
        storeBlock((c0.y, c1.y, c2.y, c3.y, c4.y, c5.y, c6.y, c7.y), bottom, stride)
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
