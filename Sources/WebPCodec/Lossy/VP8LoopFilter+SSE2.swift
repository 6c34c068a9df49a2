#if arch(x86_64)
import _Builtin_intrinsics.intel

/// The loop filters of ``VP8LoopFilter`` (RFC 6386 15) on 16 positions at once in SSE2
/// registers: a whole luma edge, or the U and V edges side by side (8 + 8 positions). This is
/// the x86-64 kernel; other architectures run the portable ``VP8LoopFilterSIMD``.
///
/// Pixels stay bytes, as libwebp's SSE2 code keeps them, so one register holds 16 positions
/// where the portable kernel's `Int16` lanes hold 8:
/// - the tests use unsigned saturating differences (`|a − b|` is `(a ⊖ b) | (b ⊖ a)`);
/// - the filter taps work on signed bytes after flipping the sign bit (`x ^ 0x80` maps
///   0...255 onto −128...127 keeping order and differences), where saturating adds and
///   subtracts are the scalar code's clamps: `p0 + a` clamped to 0...255 is the flipped
///   `p0 ⊕ a`, and `3(q0 − p0) + c` summed one term at a time with saturation equals the
///   scalar sum clamped to −128...127 (a saturated partial sum only ever saturates in the
///   direction of the terms still to come). Every later use of that sum clamps it anyway;
/// - the 6-tap products (27a, 18a, 9a) in 16-bit lanes.
///
/// The scalar functions are its twin (`VP8LoopFilterTests`).
enum VP8LoopFilterSSE2 {
    typealias Lanes = __m128i

    /// The 8 rows (or columns) across an edge, p3 … p0 | q0 … q3, at 16 positions.
    struct Edge {
        var p3: Lanes, p2: Lanes, p1: Lanes, p0: Lanes, q0: Lanes, q1: Lanes, q2: Lanes, q3: Lanes
    }

    // MARK: Byte arithmetic

    @inline(__always) static func splat(_ b: UInt8) -> Lanes { _mm_set1_epi8(CChar(bitPattern: b)) }
    @inline(__always) static func splat(_ v: Int32) -> Lanes { splat(UInt8(truncatingIfNeeded: v)) }
    @inline(__always) static var zero: Lanes { _mm_setzero_si128() }

    /// `|a − b|` of unsigned bytes.
    @inline(__always) static func distance(_ a: Lanes, _ b: Lanes) -> Lanes {
        _mm_or_si128(_mm_subs_epu8(a, b), _mm_subs_epu8(b, a))
    }
    /// All ones where `a ≤ b` (unsigned bytes).
    @inline(__always) static func atMost(_ a: Lanes, _ b: Lanes) -> Lanes {
        _mm_cmpeq_epi8(_mm_subs_epu8(a, b), zero)
    }
    /// Unsigned bytes as signed (and back): the sign bit flipped.
    @inline(__always) static func flip(_ v: Lanes) -> Lanes { _mm_xor_si128(v, splat(UInt8(0x80))) }
    /// Signed bytes shifted right by 3, rounding down (through 16-bit lanes: SSE2 has no byte shift).
    @inline(__always) static func shiftRight3(_ v: Lanes) -> Lanes {
        let low = _mm_srai_epi16(_mm_unpacklo_epi8(zero, v), 11)
        let high = _mm_srai_epi16(_mm_unpackhi_epi8(zero, v), 11)
        return _mm_packs_epi16(low, high)
    }
    /// `(v + 1) >> 1` of signed bytes in −16...15: shifted up by 128, the unsigned average with
    /// 0 rounds up, and 64 is half the shift.
    @inline(__always) static func halfRoundingUp(_ v: Lanes) -> Lanes {
        _mm_sub_epi8(_mm_avg_epu8(_mm_add_epi8(v, splat(UInt8(0x80))), zero), splat(UInt8(64)))
    }

    // MARK: Tests (RFC 6386 15.2, 15.3)

    /// All ones where `4|p0 − q0| + |p1 − q1| ≤ 2·limit + 1`, tested as the equal
    /// `2|p0 − q0| + ⌊|p1 − q1| / 2⌋ ≤ limit` (limit ≤ 193, so saturating at 255 keeps the answer).
    @inline(__always)
    static func needsFilter(_ e: Edge, limit: Lanes) -> Lanes {
        let outer = _mm_srli_epi16(_mm_and_si128(distance(e.p1, e.q1), splat(UInt8(0xFE))), 1)
        let inner = distance(e.p0, e.q0)
        return atMost(_mm_adds_epu8(_mm_adds_epu8(inner, inner), outer), limit)
    }

    /// The normal filter's lanes: ``needsFilter(_:limit:)`` and every difference inside each
    /// side at most `interior`.
    @inline(__always)
    static func normalMask(_ e: Edge, limit: Lanes, interior: Lanes) -> Lanes {
        var m = _mm_max_epu8(distance(e.p3, e.p2), distance(e.p2, e.p1))
        m = _mm_max_epu8(m, _mm_max_epu8(distance(e.p1, e.p0), distance(e.q1, e.q0)))
        m = _mm_max_epu8(m, _mm_max_epu8(distance(e.q2, e.q1), distance(e.q3, e.q2)))
        return _mm_and_si128(atMost(m, interior), needsFilter(e, limit: limit))
    }

    /// All ones where the edge variance is not high: `|p1 − p0|` and `|q1 − q0|` ≤ threshold.
    @inline(__always)
    static func lowVariance(_ e: Edge, threshold: Lanes) -> Lanes {
        atMost(_mm_max_epu8(distance(e.p1, e.p0), distance(e.q1, e.q0)), threshold)
    }

    // MARK: Filters, on sign-flipped bytes

    /// `3(q0 − p0) + (p1 − q1)`, clamped to a signed byte (the scalar `filter2` and `filter6` base).
    @inline(__always)
    static func baseDelta(p1: Lanes, p0: Lanes, q0: Lanes, q1: Lanes) -> Lanes {
        let d = _mm_subs_epi8(q0, p0)
        return _mm_adds_epi8(_mm_adds_epi8(_mm_adds_epi8(_mm_subs_epi8(p1, q1), d), d), d)
    }

    /// p0 += clamp((a + 3) >> 3), q0 −= clamp((a + 4) >> 3) (RFC 6386 15.2 `common_adjust`).
    @inline(__always)
    static func adjust(_ p0: inout Lanes, _ q0: inout Lanes, _ a: Lanes) -> Lanes {
        let a1 = shiftRight3(_mm_adds_epi8(a, splat(UInt8(4))))
        let a2 = shiftRight3(_mm_adds_epi8(a, splat(UInt8(3))))
        q0 = _mm_subs_epi8(q0, a1)
        p0 = _mm_adds_epi8(p0, a2)
        return a1
    }

    /// The simple filter (15.2) on p0 and q0.
    @inline(__always)
    static func simple(_ e: inout Edge, limit: Lanes) {
        let mask = needsFilter(e, limit: limit)
        var p0 = flip(e.p0), q0 = flip(e.q0)
        let a = _mm_and_si128(baseDelta(p1: flip(e.p1), p0: p0, q0: q0, q1: flip(e.q1)), mask)
        _ = adjust(&p0, &q0, a)
        e.p0 = flip(p0)
        e.q0 = flip(q0)
    }

    /// A sub-block edge (15.3): where the variance is high, the simple adjustment; elsewhere
    /// the 4-tap one (no outer taps, and p1, q1 move by half of q0's step, rounded up).
    @inline(__always)
    static func innerEdge(_ e: inout Edge, limit: Lanes, interior: Lanes, hevThreshold: Lanes) {
        let mask = normalMask(e, limit: limit, interior: interior)
        let low = lowVariance(e, threshold: hevThreshold)
        var p1 = flip(e.p1), p0 = flip(e.p0), q0 = flip(e.q0), q1 = flip(e.q1)
        let outer = _mm_andnot_si128(low, _mm_subs_epi8(p1, q1))
        let d = _mm_subs_epi8(q0, p0)
        let a = _mm_and_si128(_mm_adds_epi8(_mm_adds_epi8(_mm_adds_epi8(outer, d), d), d), mask)
        let a1 = adjust(&p0, &q0, a)
        let a3 = _mm_and_si128(halfRoundingUp(a1), low)
        p1 = _mm_adds_epi8(p1, a3)
        q1 = _mm_subs_epi8(q1, a3)
        e.p1 = flip(p1); e.p0 = flip(p0); e.q0 = flip(q0); e.q1 = flip(q1)
    }

    /// A macroblock edge (15.3): where the variance is high, the simple adjustment; elsewhere
    /// the 6-tap one, p2 … q2 moved by (9a + 63) >> 7, (18a + 63) >> 7 and (27a + 63) >> 7.
    @inline(__always)
    static func macroblockEdge(_ e: inout Edge, limit: Lanes, interior: Lanes, hevThreshold: Lanes) {
        let mask = normalMask(e, limit: limit, interior: interior)
        let low = lowVariance(e, threshold: hevThreshold)
        var p2 = flip(e.p2), p1 = flip(e.p1), p0 = flip(e.p0)
        var q0 = flip(e.q0), q1 = flip(e.q1), q2 = flip(e.q2)
        let a = baseDelta(p1: p1, p0: p0, q0: q0, q1: q1)
        _ = adjust(&p0, &q0, _mm_and_si128(a, _mm_andnot_si128(low, mask)))
        let f = _mm_and_si128(a, _mm_and_si128(low, mask))
        // Signed bytes widened to 16 bits: the byte in the high half, shifted down.
        let fLow = _mm_srai_epi16(_mm_unpacklo_epi8(zero, f), 8)
        let fHigh = _mm_srai_epi16(_mm_unpackhi_epi8(zero, f), 8)
        let nine = _mm_set1_epi16(9), round = _mm_set1_epi16(63)
        let f9Low = _mm_mullo_epi16(fLow, nine), f9High = _mm_mullo_epi16(fHigh, nine)
        @inline(__always) func taps(_ times: Int32) -> Lanes {
            let k = _mm_set1_epi16(Int16(truncatingIfNeeded: times))
            let low = _mm_srai_epi16(_mm_add_epi16(_mm_mullo_epi16(f9Low, k), round), 7)
            let high = _mm_srai_epi16(_mm_add_epi16(_mm_mullo_epi16(f9High, k), round), 7)
            return _mm_packs_epi16(low, high)
        }
        let a1 = taps(3), a2 = taps(2), a3 = taps(1)
        p0 = _mm_adds_epi8(p0, a1); q0 = _mm_subs_epi8(q0, a1)
        p1 = _mm_adds_epi8(p1, a2); q1 = _mm_subs_epi8(q1, a2)
        p2 = _mm_adds_epi8(p2, a3); q2 = _mm_subs_epi8(q2, a3)
        e.p2 = flip(p2); e.p1 = flip(p1); e.p0 = flip(p0)
        e.q0 = flip(q0); e.q1 = flip(q1); e.q2 = flip(q2)
    }

    // MARK: Loading and storing

    /// 8 bytes at `a` then 8 at `b`.
    @inline(__always)
    static func load(_ a: UnsafeMutablePointer<UInt8>, _ b: UnsafeMutablePointer<UInt8>) -> Lanes {
        _mm_unpacklo_epi64(load8(a), load8(b))
    }
    @inline(__always) static func load8(_ p: UnsafeMutablePointer<UInt8>) -> Lanes {
        _mm_cvtsi64_si128(Int64(bitPattern: UnsafeRawPointer(p).loadUnaligned(as: UInt64.self)))
    }
    @inline(__always) static func store8(_ p: UnsafeMutablePointer<UInt8>, _ v: Lanes) {
        UnsafeMutableRawPointer(p).storeBytes(of: _mm_cvtsi128_si64(v), as: Int64.self)
    }
    @inline(__always)
    static func store(_ a: UnsafeMutablePointer<UInt8>, _ b: UnsafeMutablePointer<UInt8>, _ v: Lanes) {
        store8(a, v)
        store8(b, _mm_unpackhi_epi64(v, v))
    }

    /// Rows −4 ..< 4 around a horizontal edge: positions 0–7 from `a`, 8–15 from `b`.
    @inline(__always)
    static func loadRows(_ a: UnsafeMutablePointer<UInt8>, _ b: UnsafeMutablePointer<UInt8>, _ stride: Int) -> Edge {
        @inline(__always) func row(_ i: Int) -> Lanes { load(a + i &* stride, b + i &* stride) }
        return Edge(p3: row(-4), p2: row(-3), p1: row(-2), p0: row(-1), q0: row(0), q1: row(1), q2: row(2), q3: row(3))
    }

    /// Columns −4 ..< 4 around a vertical edge: rows 0–7 from `a`, rows 8–15 from `b`. The
    /// 16 × 8 bytes are transposed by interleaving bytes, then pairs, quads and halves.
    @inline(__always)
    static func loadColumns(_ a: UnsafeMutablePointer<UInt8>, _ b: UnsafeMutablePointer<UInt8>, _ stride: Int) -> Edge {
        @inline(__always) func pair(_ r: Int) -> Lanes {
            let p = r < 8 ? a + r &* stride - 4 : b + (r - 8) &* stride - 4
            return _mm_unpacklo_epi8(load8(p), load8(p + stride))
        }
        let r01 = pair(0), r23 = pair(2), r45 = pair(4), r67 = pair(6)
        let r89 = pair(8), rAB = pair(10), rCD = pair(12), rEF = pair(14)
        // Columns 0–3 and 4–7 of rows 0–3, 4–7, 8–11, 12–15.
        let l0 = _mm_unpacklo_epi16(r01, r23), h0 = _mm_unpackhi_epi16(r01, r23)
        let l1 = _mm_unpacklo_epi16(r45, r67), h1 = _mm_unpackhi_epi16(r45, r67)
        let l2 = _mm_unpacklo_epi16(r89, rAB), h2 = _mm_unpackhi_epi16(r89, rAB)
        let l3 = _mm_unpacklo_epi16(rCD, rEF), h3 = _mm_unpackhi_epi16(rCD, rEF)
        // Two columns each, rows 0–7 and rows 8–15.
        let c01 = _mm_unpacklo_epi32(l0, l1), c23 = _mm_unpackhi_epi32(l0, l1)
        let c45 = _mm_unpacklo_epi32(h0, h1), c67 = _mm_unpackhi_epi32(h0, h1)
        let d01 = _mm_unpacklo_epi32(l2, l3), d23 = _mm_unpackhi_epi32(l2, l3)
        let d45 = _mm_unpacklo_epi32(h2, h3), d67 = _mm_unpackhi_epi32(h2, h3)
        return Edge(p3: _mm_unpacklo_epi64(c01, d01), p2: _mm_unpackhi_epi64(c01, d01),
                    p1: _mm_unpacklo_epi64(c23, d23), p0: _mm_unpackhi_epi64(c23, d23),
                    q0: _mm_unpacklo_epi64(c45, d45), q1: _mm_unpackhi_epi64(c45, d45),
                    q2: _mm_unpacklo_epi64(c67, d67), q3: _mm_unpackhi_epi64(c67, d67))
    }

    /// ``loadColumns(_:_:_:)`` backwards: the 8 columns transposed into 16 rows and stored.
    @inline(__always)
    static func storeColumns(_ e: Edge, _ a: UnsafeMutablePointer<UInt8>, _ b: UnsafeMutablePointer<UInt8>, _ stride: Int) {
        // Two columns of rows 0–7 and of rows 8–15.
        let t01 = _mm_unpacklo_epi8(e.p3, e.p2), u01 = _mm_unpackhi_epi8(e.p3, e.p2)
        let t23 = _mm_unpacklo_epi8(e.p1, e.p0), u23 = _mm_unpackhi_epi8(e.p1, e.p0)
        let t45 = _mm_unpacklo_epi8(e.q0, e.q1), u45 = _mm_unpackhi_epi8(e.q0, e.q1)
        let t67 = _mm_unpacklo_epi8(e.q2, e.q3), u67 = _mm_unpackhi_epi8(e.q2, e.q3)
        // Columns 0–3 or 4–7 of four rows.
        let l0 = _mm_unpacklo_epi16(t01, t23), l1 = _mm_unpackhi_epi16(t01, t23)
        let l2 = _mm_unpacklo_epi16(u01, u23), l3 = _mm_unpackhi_epi16(u01, u23)
        let h0 = _mm_unpacklo_epi16(t45, t67), h1 = _mm_unpackhi_epi16(t45, t67)
        let h2 = _mm_unpacklo_epi16(u45, u67), h3 = _mm_unpackhi_epi16(u45, u67)
        @inline(__always) func rows(_ r: Int, _ v: Lanes) {
            let p = r < 8 ? a + r &* stride - 4 : b + (r - 8) &* stride - 4
            store(p, p + stride, v)
        }
        rows(0, _mm_unpacklo_epi32(l0, h0)); rows(2, _mm_unpackhi_epi32(l0, h0))
        rows(4, _mm_unpacklo_epi32(l1, h1)); rows(6, _mm_unpackhi_epi32(l1, h1))
        rows(8, _mm_unpacklo_epi32(l2, h2)); rows(10, _mm_unpackhi_epi32(l2, h2))
        rows(12, _mm_unpacklo_epi32(l3, h3)); rows(14, _mm_unpackhi_epi32(l3, h3))
    }

    // MARK: One macroblock

    /// ``VP8LoopFilter/filterMacroblock`` 16 positions at a time: the same edges in the same
    /// order (U and V side by side do not overlap).
    static func filterMacroblock(_ info: VP8FilterInfo, isSimple: Bool, mbX: Int, mbY: Int,
                                 y: UnsafeMutablePointer<UInt8>, yStride: Int,
                                 u: UnsafeMutablePointer<UInt8>, v: UnsafeMutablePointer<UInt8>, uvStride: Int) {
        guard info.limit > 0 else { return }
        let ys = yStride, uvs = uvStride, y8 = y + 8 * ys
        let edge = splat(info.limit + 4), inner = splat(info.limit)
        if isSimple {
            if mbX > 0 { simpleColumn(y, y8, ys, edge) }
            if info.filtersInner {
                for x in stride(from: 4, through: 12, by: 4) { simpleColumn(y + x, y8 + x, ys, inner) }
            }
            if mbY > 0 { simpleRow(y, y + 8, ys, edge) }
            if info.filtersInner {
                for r in stride(from: 4, through: 12, by: 4) { simpleRow(y + r * ys, y + r * ys + 8, ys, inner) }
            }
            return
        }
        let it = splat(info.interiorLimit), hev = splat(info.hevThreshold)
        if mbX > 0 {
            edgeColumn(y, y8, ys, edge, it, hev)
            edgeColumn(u, v, uvs, edge, it, hev)
        }
        if info.filtersInner {
            for x in stride(from: 4, through: 12, by: 4) { innerColumn(y + x, y8 + x, ys, inner, it, hev) }
            innerColumn(u + 4, v + 4, uvs, inner, it, hev)
        }
        if mbY > 0 {
            edgeRow(y, y + 8, ys, edge, it, hev)
            edgeRow(u, v, uvs, edge, it, hev)
        }
        if info.filtersInner {
            for r in stride(from: 4, through: 12, by: 4) { innerRow(y + r * ys, y + r * ys + 8, ys, inner, it, hev) }
            innerRow(u + 4 * uvs, v + 4 * uvs, uvs, inner, it, hev)
        }
    }

    // One edge each, out of line: the 8 rows and the temporaries fill the 16 vector registers.

    @inline(never)
    static func simpleColumn(_ a: UnsafeMutablePointer<UInt8>, _ b: UnsafeMutablePointer<UInt8>, _ stride: Int, _ limit: Lanes) {
        var e = loadColumns(a, b, stride)
        simple(&e, limit: limit)
        storeColumns(e, a, b, stride)
    }

    @inline(never)
    static func simpleRow(_ a: UnsafeMutablePointer<UInt8>, _ b: UnsafeMutablePointer<UInt8>, _ stride: Int, _ limit: Lanes) {
        var e = loadRows(a, b, stride)
        simple(&e, limit: limit)
        store(a - stride, b - stride, e.p0)
        store(a, b, e.q0)
    }

    @inline(never)
    static func edgeColumn(_ a: UnsafeMutablePointer<UInt8>, _ b: UnsafeMutablePointer<UInt8>, _ stride: Int,
                           _ limit: Lanes, _ it: Lanes, _ hev: Lanes) {
        var e = loadColumns(a, b, stride)
        macroblockEdge(&e, limit: limit, interior: it, hevThreshold: hev)
        storeColumns(e, a, b, stride)
    }

    @inline(never)
    static func innerColumn(_ a: UnsafeMutablePointer<UInt8>, _ b: UnsafeMutablePointer<UInt8>, _ stride: Int,
                            _ limit: Lanes, _ it: Lanes, _ hev: Lanes) {
        var e = loadColumns(a, b, stride)
        innerEdge(&e, limit: limit, interior: it, hevThreshold: hev)
        storeColumns(e, a, b, stride)
    }

    @inline(never)
    static func edgeRow(_ a: UnsafeMutablePointer<UInt8>, _ b: UnsafeMutablePointer<UInt8>, _ stride: Int,
                        _ limit: Lanes, _ it: Lanes, _ hev: Lanes) {
        var e = loadRows(a, b, stride)
        macroblockEdge(&e, limit: limit, interior: it, hevThreshold: hev)
        store(a - 3 * stride, b - 3 * stride, e.p2)
        store(a - 2 * stride, b - 2 * stride, e.p1)
        store(a - stride, b - stride, e.p0)
        store(a, b, e.q0)
        store(a + stride, b + stride, e.q1)
        store(a + 2 * stride, b + 2 * stride, e.q2)
    }

    @inline(never)
    static func innerRow(_ a: UnsafeMutablePointer<UInt8>, _ b: UnsafeMutablePointer<UInt8>, _ stride: Int,
                         _ limit: Lanes, _ it: Lanes, _ hev: Lanes) {
        var e = loadRows(a, b, stride)
        innerEdge(&e, limit: limit, interior: it, hevThreshold: hev)
        store(a - 2 * stride, b - 2 * stride, e.p1)
        store(a - stride, b - stride, e.p0)
        store(a, b, e.q0)
        store(a + stride, b + stride, e.q1)
    }
}
#endif
