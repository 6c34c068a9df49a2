/// The ISLOW forward DCT on eight rows or columns at once, as libjpeg-turbo's SSE2
/// `jfdctint` does it: the block is transposed so that the row pass acts on whole vectors (lane
/// r holds row r), transposed back, and the column pass acts on rows. Every intermediate that
/// libjpeg-turbo keeps in 16-bit words is kept in Int16 lanes; only the products are widened,
/// each a sign-extended 16-bit value times a 16-bit constant (which SSE2 does with 16-bit
/// multiplies). Sums of products are the products of sums of the scalar twin, exactly: the same
/// results lane by lane (`JPEGEncoderKernelTests`).
extension JPEGForwardDCT {
    typealias Row = SIMD8<Int32>
    typealias Word = SIMD8<Int16>

    /// An 8×8 block as eight rows of Int16 lanes (libjpeg-turbo's 16-bit DCTELEM).
    typealias Block = (Word, Word, Word, Word, Word, Word, Word, Word)

    /// The transform of the 8×8 samples at `samples` (rows `stride` apart), as rows in natural
    /// order: what ``transform(_:stride:_:)`` writes, each value fitting 16 bits.
    @inline(__always)
    static func transformSIMD(_ samples: UnsafePointer<UInt8>, stride: Int) -> Block {
        @inline(__always)
        func load(_ row: Int) -> Word {
            let bytes = UnsafeRawPointer(samples + row &* stride).loadUnaligned(as: SIMD8<UInt8>.self)
            return Word(widening: bytes) &- 128
        }
        var m = (load(0), load(1), load(2), load(3), load(4), load(5), load(6), load(7))
        transpose(&m)
        let p = pass(m, first: true)
        m = (Word(narrowing: p.0), Word(narrowing: p.1), Word(narrowing: p.2),
             Word(narrowing: p.3), Word(narrowing: p.4), Word(narrowing: p.5),
             Word(narrowing: p.6), Word(narrowing: p.7))
        transpose(&m)
        let q = pass(m, first: false)
        return (Word(narrowing: q.0), Word(narrowing: q.1), Word(narrowing: q.2), Word(narrowing: q.3),
                Word(narrowing: q.4), Word(narrowing: q.5), Word(narrowing: q.6), Word(narrowing: q.7))
    }

    /// Loads a block of 64 Int16 values (natural order).
    @inline(__always)
    static func load(_ block: UnsafePointer<Int16>) -> Block {
        let raw = UnsafeRawPointer(block)
        func row(_ i: Int) -> Word { raw.loadUnaligned(fromByteOffset: i &* 16, as: Word.self) }
        return (row(0), row(1), row(2), row(3), row(4), row(5), row(6), row(7))
    }

    /// Stores a block as 64 Int16 values (natural order).
    @inline(__always)
    static func store(_ b: Block, _ out: UnsafeMutablePointer<Int16>) {
        let raw = UnsafeMutableRawPointer(out)
        raw.storeBytes(of: b.0, toByteOffset: 0, as: Word.self)
        raw.storeBytes(of: b.1, toByteOffset: 16, as: Word.self)
        raw.storeBytes(of: b.2, toByteOffset: 32, as: Word.self)
        raw.storeBytes(of: b.3, toByteOffset: 48, as: Word.self)
        raw.storeBytes(of: b.4, toByteOffset: 64, as: Word.self)
        raw.storeBytes(of: b.5, toByteOffset: 80, as: Word.self)
        raw.storeBytes(of: b.6, toByteOffset: 96, as: Word.self)
        raw.storeBytes(of: b.7, toByteOffset: 112, as: Word.self)
    }

    /// Transposes an 8×8 block of words by three perfect shuffles of its 64 entries (each
    /// interleaves the first 32 with the last 32, rotating the 6-bit index (row, column) left by
    /// one bit, so three swap row and column): per step four low and four high interleaves of
    /// two rows, which LLVM emits as punpcklwd and punpckhwd, as libjpeg-turbo's SSE2 transpose.
    @inline(__always)
    static func transpose(_ m: inout (Word, Word, Word, Word, Word, Word, Word, Word)) {
        @inline(__always)
        func zip(_ a: Word, _ b: Word) -> (Word, Word) {
            (Word(a[0], b[0], a[1], b[1], a[2], b[2], a[3], b[3]),
             Word(a[4], b[4], a[5], b[5], a[6], b[6], a[7], b[7]))
        }
        for _ in 0..<3 {
            let (n0, n1) = zip(m.0, m.4), (n2, n3) = zip(m.1, m.5)
            let (n4, n5) = zip(m.2, m.6), (n6, n7) = zip(m.3, m.7)
            m = (n0, n1, n2, n3, n4, n5, n6, n7)
        }
    }

    /// ``butterfly(_:step:pass:)`` across eight vectors, lane by lane: the row pass (`first`,
    /// outputs scaled up by 2 bits) or the column pass (descaled by them). Every sum that is
    /// multiplied is formed in 16-bit lanes (as libjpeg-turbo's SSE2 code forms it); z1 is
    /// folded into its two uses, tmp13·(c0.541 + c0.765) + tmp12·c0.541 and tmp13·c0.541 +
    /// tmp12·(c0.541 − c1.847), and the odd part's z5 likewise, z3·(c1.175 − c1.961) + z4·c1.175 and
    /// z4·(c1.175 − c0.390) + z3·c1.175 (z3 = tmp4 + tmp6, z4 = tmp5 + tmp7): the same integers,
    /// with no 32-bit sum left to multiply.
    @inline(__always)
    static func pass(_ d: (Word, Word, Word, Word, Word, Word, Word, Word), first: Bool)
        -> (Row, Row, Row, Row, Row, Row, Row, Row) {
        @inline(__always)
        func wide(_ w: Word) -> Row { Row(widening: w) }
        let tmp0 = d.0 &+ d.7, tmp7 = d.0 &- d.7, tmp1 = d.1 &+ d.6, tmp6 = d.1 &- d.6
        let tmp2 = d.2 &+ d.5, tmp5 = d.2 &- d.5, tmp3 = d.3 &+ d.4, tmp4 = d.3 &- d.4
        let tmp10 = tmp0 &+ tmp3, tmp13 = tmp0 &- tmp3, tmp11 = tmp1 &+ tmp2, tmp12 = tmp1 &- tmp2
        let shift = first ? constBits &- pass1Bits : constBits &+ pass1Bits
        let s = Row(repeating: shift), round = Row(repeating: 1 &<< (shift &- 1))
        let even0: Row, even4: Row
        if first {
            even0 = wide((tmp10 &+ tmp11) &<< Word(repeating: Int16(pass1Bits)))
            even4 = wide((tmp10 &- tmp11) &<< Word(repeating: Int16(pass1Bits)))
        } else {
            let roundPass1 = Row(repeating: 1 &<< (pass1Bits &- 1))
            even0 = (wide(tmp10) &+ wide(tmp11) &+ roundPass1) &>> Row(repeating: pass1Bits)
            even4 = (wide(tmp10) &- wide(tmp11) &+ roundPass1) &>> Row(repeating: pass1Bits)
        }
        let (w12, w13) = (wide(tmp12), wide(tmp13))
        let even2 = (w13 &* (c0_541196100 &+ c0_765366865) &+ w12 &* c0_541196100 &+ round) &>> s
        let even6 = (w13 &* c0_541196100 &+ w12 &* (c0_541196100 &- c1_847759065) &+ round) &>> s
        let z3 = wide(tmp4 &+ tmp6), z4 = wide(tmp5 &+ tmp7)
        let o1 = wide(tmp4 &+ tmp7) &* -c0_899976223
        let o2 = wide(tmp5 &+ tmp6) &* -c2_562915447
        let o3 = z3 &* (c1_175875602 &- c1_961570560) &+ z4 &* c1_175875602
        let o4 = z4 &* (c1_175875602 &- c0_390180644) &+ z3 &* c1_175875602
        let odd7 = (wide(tmp4) &* c0_298631336 &+ o1 &+ o3 &+ round) &>> s
        let odd5 = (wide(tmp5) &* c2_053119869 &+ o2 &+ o4 &+ round) &>> s
        let odd3 = (wide(tmp6) &* c3_072711026 &+ o2 &+ o3 &+ round) &>> s
        let odd1 = (wide(tmp7) &* c1_501321110 &+ o1 &+ o4 &+ round) &>> s
        return (even0, odd1, even2, odd3, even4, odd5, even6, odd7)
    }
}

/// Quantization on eight coefficients at once, the lane-by-lane twin of
/// ``JPEGQuantizer/quantize(_:_:)``, in 16-bit lanes as libjpeg-turbo's SIMD code does it:
/// |x| + c, then two high halves of 16 × 16-bit products (by the reciprocal, then by 2^(32 − r),
/// which is the shift by r), then the sign back; each product written as the high 16 bits of a
/// widened multiply, which LLVM emits as pmulhuw.
extension JPEGQuantizer {
    @inline(__always)
    func quantizeSIMD(_ block: JPEGForwardDCT.Block, _ out: UnsafeMutablePointer<Int16>,
                      _ vectors: UnsafePointer<SIMD8<UInt16>>) {
        typealias Half = SIMD8<UInt16>
        @inline(__always)
        func high(_ a: Half, _ b: Half) -> Half {
            var r = Half()
            for i in 0..<8 { r[i] = UInt16(truncatingIfNeeded: (UInt32(a[i]) &* UInt32(b[i])) &>> 16) }
            return r
        }
        @inline(__always)
        func row(_ x: SIMD8<Int16>, _ i: Int) -> SIMD8<Int16> {
            // sign is all ones for negative lanes: |x| = (x ^ sign) − sign, and back the same way.
            let sign = x &>> 15
            let magnitude = unsafeBitCast((x ^ sign) &- sign, to: Half.self) &+ vectors[8 &+ i]
            let q = unsafeBitCast(high(high(magnitude, vectors[i]), vectors[16 &+ i]), to: SIMD8<Int16>.self)
            return (q ^ sign) &- sign
        }
        JPEGForwardDCT.store((row(block.0, 0), row(block.1, 1), row(block.2, 2), row(block.3, 3),
                              row(block.4, 4), row(block.5, 5), row(block.6, 6), row(block.7, 7)), out)
    }
}
