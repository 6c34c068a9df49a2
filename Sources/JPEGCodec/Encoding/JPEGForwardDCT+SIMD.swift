/// The ISLOW forward DCT with its column pass on eight columns at once: the row pass is the
/// scalar one (``JPEGForwardDCT/butterfly(_:step:pass:)``), each of its output rows then is one
/// vector, and the column butterflies act on whole rows, so no transposition is needed. The
/// same results as the scalar twin, lane by lane.
extension JPEGForwardDCT {
    typealias Row = SIMD8<Int32>

    static func transformSIMD(_ samples: UnsafePointer<UInt8>, stride: Int, _ out: UnsafeMutablePointer<Int32>) {
        for row in 0..<8 {
            let s = samples + row &* stride
            let d = out + row &* 8
            let bytes = UnsafeRawPointer(s).loadUnaligned(as: SIMD8<UInt8>.self)
            let centred = Row(truncatingIfNeeded: bytes) &- 128
            UnsafeMutableRawPointer(d).storeBytes(of: centred, as: Row.self)
            butterfly(d, step: 1, pass: 1)
        }
        // The row pass leaves values whose butterfly sums below fit 16 bits (libjpeg-turbo's SSE2
        // code forms them in 16-bit words), so they are formed in Int16 lanes and widened only
        // for the multiplies: each product is of a sign-extended 16-bit value by a 16-bit
        // constant, which SSE2 does with 16-bit multiplies. Sums of products are the products of
        // sums of the scalar code, exactly.
        let raw = UnsafeMutableRawPointer(out)
        typealias Word = SIMD8<Int16>
        func load(_ i: Int) -> Word { Word(truncatingIfNeeded: raw.loadUnaligned(fromByteOffset: i &* 32, as: Row.self)) }
        func store(_ i: Int, _ v: Row) { raw.storeBytes(of: v, toByteOffset: i &* 32, as: Row.self) }
        func wide(_ w: Word) -> Row { Row(truncatingIfNeeded: w) }
        let d0 = load(0), d1 = load(1), d2 = load(2), d3 = load(3)
        let d4 = load(4), d5 = load(5), d6 = load(6), d7 = load(7)
        let tmp0 = d0 &+ d7, tmp7 = wide(d0 &- d7), tmp1 = d1 &+ d6, tmp6 = wide(d1 &- d6)
        let tmp2 = d2 &+ d5, tmp5 = wide(d2 &- d5), tmp3 = d3 &+ d4, tmp4 = wide(d3 &- d4)
        let tmp10 = wide(tmp0 &+ tmp3), tmp13 = wide(tmp0 &- tmp3), tmp11 = wide(tmp1 &+ tmp2), tmp12 = wide(tmp1 &- tmp2)
        let shift = constBits &+ pass1Bits
        let roundPass1 = Row(repeating: 1 &<< (pass1Bits &- 1)), round = Row(repeating: 1 &<< (shift &- 1))
        store(0, (tmp10 &+ tmp11 &+ roundPass1) &>> Row(repeating: pass1Bits))
        store(4, (tmp10 &- tmp11 &+ roundPass1) &>> Row(repeating: pass1Bits))
        let z1 = tmp12 &* c0_541196100 &+ tmp13 &* c0_541196100
        let s = Row(repeating: shift)
        store(2, (z1 &+ tmp13 &* c0_765366865 &+ round) &>> s)
        store(6, (z1 &- tmp12 &* c1_847759065 &+ round) &>> s)
        let z5 = (tmp4 &* c1_175875602 &+ tmp6 &* c1_175875602) &+ (tmp5 &* c1_175875602 &+ tmp7 &* c1_175875602)
        let o1 = tmp4 &* -c0_899976223 &+ tmp7 &* -c0_899976223
        let o2 = tmp5 &* -c2_562915447 &+ tmp6 &* -c2_562915447
        let o3 = tmp4 &* -c1_961570560 &+ tmp6 &* -c1_961570560 &+ z5
        let o4 = tmp5 &* -c0_390180644 &+ tmp7 &* -c0_390180644 &+ z5
        store(7, (tmp4 &* c0_298631336 &+ o1 &+ o3 &+ round) &>> s)
        store(5, (tmp5 &* c2_053119869 &+ o2 &+ o4 &+ round) &>> s)
        store(3, (tmp6 &* c3_072711026 &+ o2 &+ o3 &+ round) &>> s)
        store(1, (tmp7 &* c1_501321110 &+ o1 &+ o4 &+ round) &>> s)
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
            let sum = SIMD8<UInt16>(truncatingIfNeeded: (x ^ sign) &- sign) &+ vectors[8 &+ i]
            let high = (Long(truncatingIfNeeded: sum) &* Long(truncatingIfNeeded: vectors[i])) &>> 16
            let q = SIMD8<Int32>(truncatingIfNeeded: (high &* Long(truncatingIfNeeded: vectors[16 &+ i])) &>> 16)
            let signed = (q ^ sign) &- sign
            UnsafeMutableRawPointer(out + i &* 8).storeBytes(of: SIMD8<Int16>(truncatingIfNeeded: signed), as: SIMD8<Int16>.self)
        }
    }
}
