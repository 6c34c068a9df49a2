/// The loop filters of ``VP8LoopFilter`` on 8 edge positions at once: half of a luma edge, or
/// a chroma edge of U or of V (8 lanes of `Int16` fill one SSE2 register, so the 8 rows across
/// an edge and the filter's temporaries stay in registers). The arithmetic is the scalar code's,
/// lane by lane in `Int16`; every variant is computed and the lanes' masks pick one. The scalar
/// functions are its twin (`VP8LoopFilterTests`).
enum VP8LoopFilterSIMD {
    typealias Lanes = SIMD8<Int16>

    /// The 8 pixels across an edge (p3 … p0 | q0 … q3) at 8 positions.
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

    // The lanes hold 8 pixels in the order 0, 2, 4, 6, 1, 3, 5, 7 (the even bytes of a 64-bit
    // word, then the odd ones): widening and narrowing are then masks and shifts, with no call
    // to the standard library's lane conversions (which the optimiser leaves out of line, and a
    // call spills every vector register). The filters work lane by lane, so the order is free.

    /// The 8 bytes of `w` (little-endian) as lanes.
    @inline(__always) static func widen(_ w: UInt64) -> Lanes {
        let m: UInt64 = 0x00FF_00FF_00FF_00FF
        return unsafeBitCast(SIMD2<UInt64>(w & m, (w &>> 8) & m), to: Lanes.self)
    }
    /// The lanes clamped to 0...255, as the 8 bytes of a word (little-endian).
    @inline(__always) static func narrow(_ v: Lanes) -> UInt64 {
        let halves = unsafeBitCast(clamp(v, 0, 255), to: SIMD2<UInt64>.self)
        return halves[0] | (halves[1] &<< 8)
    }

    /// Rows `-4 ..< 4` around `p` (a horizontal edge: the lanes run along the row).
    @inline(__always)
    static func loadRows(_ p: UnsafeMutablePointer<UInt8>, _ stride: Int) -> Edge {
        @inline(__always) func row(_ i: Int) -> Lanes {
            widen(UnsafeRawPointer(p + i * stride).loadUnaligned(as: UInt64.self))
        }
        return Edge(p3: row(-4), p2: row(-3), p1: row(-2), p0: row(-1), q0: row(0), q1: row(1), q2: row(2), q3: row(3))
    }

    @inline(__always)
    static func storeRow(_ p: UnsafeMutablePointer<UInt8>, _ v: Lanes) {
        UnsafeMutableRawPointer(p).storeBytes(of: narrow(v), as: UInt64.self)
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

    /// Columns `-4 ..< 4` around a vertical edge in the 8 rows from `p`.
    @inline(__always)
    static func loadColumns(_ p: UnsafeMutablePointer<UInt8>, _ stride: Int) -> Edge {
        let a = loadBlock(p, stride)
        @inline(__always) func column(_ w: UInt64) -> Lanes { widen(w) }
        return Edge(p3: column(a.0), p2: column(a.1), p1: column(a.2), p0: column(a.3),
                    q0: column(a.4), q1: column(a.5), q2: column(a.6), q3: column(a.7))
    }

    @inline(__always)
    static func storeColumns(_ e: Edge, _ p: UnsafeMutablePointer<UInt8>, _ stride: Int) {
        @inline(__always) func word(_ v: Lanes) -> UInt64 { narrow(v) }
        storeBlock((word(e.p3), word(e.p2), word(e.p1), word(e.p0), word(e.q0), word(e.q1), word(e.q2), word(e.q3)),
                   p, stride)
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

    /// ``VP8LoopFilter/filterMacroblock`` on 8 lanes: the same edges in the same order (the
    /// halves of an edge, and U and V, do not overlap, so their order does not matter).
    static func filterMacroblock(_ info: VP8FilterInfo, isSimple: Bool, mbX: Int, mbY: Int,
                                 y: UnsafeMutablePointer<UInt8>, yStride: Int,
                                 u: UnsafeMutablePointer<UInt8>, v: UnsafeMutablePointer<UInt8>, uvStride: Int) {
        guard info.limit > 0 else { return }
        let limit = Int16(truncatingIfNeeded: info.limit)
        let it = Int16(truncatingIfNeeded: info.interiorLimit)
        let hev = Int16(truncatingIfNeeded: info.hevThreshold)
        let y8 = y + 8 * yStride
        if isSimple {
            if mbX > 0 { simpleColumn(y, yStride, limit + 4); simpleColumn(y8, yStride, limit + 4) }
            if info.filtersInner {
                for x in stride(from: 4, through: 12, by: 4) { simpleColumn(y + x, yStride, limit); simpleColumn(y8 + x, yStride, limit) }
            }
            if mbY > 0 { simpleRow(y, yStride, limit + 4); simpleRow(y + 8, yStride, limit + 4) }
            if info.filtersInner {
                for r in stride(from: 4, through: 12, by: 4) {
                    simpleRow(y + r * yStride, yStride, limit); simpleRow(y + r * yStride + 8, yStride, limit)
                }
            }
            return
        }
        if mbX > 0 {
            edgeColumn(y, yStride, limit + 4, it, hev); edgeColumn(y8, yStride, limit + 4, it, hev)
            edgeColumn(u, uvStride, limit + 4, it, hev); edgeColumn(v, uvStride, limit + 4, it, hev)
        }
        if info.filtersInner {
            for x in stride(from: 4, through: 12, by: 4) {
                innerColumn(y + x, yStride, limit, it, hev); innerColumn(y8 + x, yStride, limit, it, hev)
            }
            innerColumn(u + 4, uvStride, limit, it, hev); innerColumn(v + 4, uvStride, limit, it, hev)
        }
        if mbY > 0 {
            edgeRow(y, yStride, limit + 4, it, hev); edgeRow(y + 8, yStride, limit + 4, it, hev)
            edgeRow(u, uvStride, limit + 4, it, hev); edgeRow(v, uvStride, limit + 4, it, hev)
        }
        if info.filtersInner {
            for r in stride(from: 4, through: 12, by: 4) {
                innerRow(y + r * yStride, yStride, limit, it, hev); innerRow(y + r * yStride + 8, yStride, limit, it, hev)
            }
            innerRow(u + 4 * uvStride, uvStride, limit, it, hev); innerRow(v + 4 * uvStride, uvStride, limit, it, hev)
        }
    }

    // One edge of 8 positions each, out of line: small enough that the optimiser also inlines
    // the standard library's lane conversions in them (a call to one of those would force every
    // live vector register to the stack).

    @inline(never)
    static func simpleColumn(_ p: UnsafeMutablePointer<UInt8>, _ stride: Int, _ limit: Int16) {
        var e = loadColumns(p, stride)
        simple(&e, limit: limit)
        storeColumns(e, p, stride)
    }

    @inline(never)
    static func simpleRow(_ p: UnsafeMutablePointer<UInt8>, _ stride: Int, _ limit: Int16) {
        var e = loadRows(p, stride)
        simple(&e, limit: limit)
        storeP0Q0(e, p, stride)
    }

    @inline(never)
    static func edgeColumn(_ p: UnsafeMutablePointer<UInt8>, _ stride: Int, _ limit: Int16, _ it: Int16, _ hev: Int16) {
        var e = loadColumns(p, stride)
        macroblockEdge(&e, limit: limit, interior: it, hevThreshold: hev)
        storeColumns(e, p, stride)
    }

    @inline(never)
    static func innerColumn(_ p: UnsafeMutablePointer<UInt8>, _ stride: Int, _ limit: Int16, _ it: Int16, _ hev: Int16) {
        var e = loadColumns(p, stride)
        innerEdge(&e, limit: limit, interior: it, hevThreshold: hev)
        storeColumns(e, p, stride)
    }

    @inline(never)
    static func edgeRow(_ p: UnsafeMutablePointer<UInt8>, _ stride: Int, _ limit: Int16, _ it: Int16, _ hev: Int16) {
        var e = loadRows(p, stride)
        macroblockEdge(&e, limit: limit, interior: it, hevThreshold: hev)
        storeP2Q2(e, p, stride)
    }

    @inline(never)
    static func innerRow(_ p: UnsafeMutablePointer<UInt8>, _ stride: Int, _ limit: Int16, _ it: Int16, _ hev: Int16) {
        var e = loadRows(p, stride)
        innerEdge(&e, limit: limit, interior: it, hevThreshold: hev)
        for i in -2..<2 { storeRow(p + i * stride, e[row: i]) }
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
    subscript(row i: Int) -> SIMD8<Int16> {
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
