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

    static func transformSIMD(_ samples: UnsafePointer<UInt8>, stride: Int, _ out: UnsafeMutablePointer<Int32>) {
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
        let raw = UnsafeMutableRawPointer(out)
        raw.storeBytes(of: q.0, toByteOffset: 0, as: Row.self)
        raw.storeBytes(of: q.1, toByteOffset: 32, as: Row.self)
        raw.storeBytes(of: q.2, toByteOffset: 64, as: Row.self)
        raw.storeBytes(of: q.3, toByteOffset: 96, as: Row.self)
        raw.storeBytes(of: q.4, toByteOffset: 128, as: Row.self)
        raw.storeBytes(of: q.5, toByteOffset: 160, as: Row.self)
        raw.storeBytes(of: q.6, toByteOffset: 192, as: Row.self)
        raw.storeBytes(of: q.7, toByteOffset: 224, as: Row.self)
    }

    /// Transposes an 8×8 block of words by three perfect unshuffles of its 64 entries: each
    /// rotates the 6-bit index (row, column) right by one bit, so three swap row and column.
    @inline(__always)
    static func transpose(_ m: inout (Word, Word, Word, Word, Word, Word, Word, Word)) {
        @inline(__always)
        func unzip(_ a: Word, _ b: Word) -> (Word, Word) {
            let both = SIMD16<Int16>(lowHalf: a, highHalf: b)
            return (both.evenHalf, both.oddHalf)
        }
        for _ in 0..<3 {
            let (n0, n4) = unzip(m.0, m.1), (n1, n5) = unzip(m.2, m.3)
            let (n2, n6) = unzip(m.4, m.5), (n3, n7) = unzip(m.6, m.7)
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
/// ``JPEGQuantizer/quantize(_:_:)``: the shift by r done as libjpeg-turbo's SIMD code does it,
/// a multiply by 2^(32 − r) and constant shifts, with every multiply of two 16-bit values.
extension JPEGQuantizer {
    @inline(__always)
    func quantizeSIMD(_ input: UnsafePointer<Int32>, _ out: UnsafeMutablePointer<Int16>,
                      _ vectors: UnsafePointer<SIMD8<UInt16>>) {
        typealias Long = SIMD8<UInt32>
        let raw = UnsafeRawPointer(input)
        for i in 0..<8 {
            let x = raw.loadUnaligned(fromByteOffset: i &* 32, as: SIMD8<Int32>.self)
            // sign is all ones for negative lanes: |x| = (x ^ sign) − sign, and back the same way
            // (no comparisons: a SIMD mask is built lane by lane).
            let sign = x &>> 31
            let sum = SIMD8<UInt16>(narrowing: (x ^ sign) &- sign) &+ vectors[8 &+ i]
            let high = (Long(widening: sum) &* Long(widening: vectors[i])) &>> 16
            let q = SIMD8<Int32>(bitPattern: (high &* Long(widening: vectors[16 &+ i])) &>> 16)
            let signed = (q ^ sign) &- sign
            UnsafeMutableRawPointer(out + i &* 8).storeBytes(of: SIMD8<Int16>(narrowing: signed), as: SIMD8<Int16>.self)
        }
    }
}
