/// The 8×8 ISLOW IDCT eight lanes at a time, laid out as libjpeg-turbo's `jidctint-sse2.asm`:
/// pass 1 transforms all eight columns at once (a vector per coefficient row, a lane per
/// column), a transpose turns columns into rows, pass 2 transforms all eight rows at once, and a
/// second transpose brings the samples back into rows for the stores.
/// ``JPEGIDCT/islowScalar(_:_:_:stride:)`` is the scalar twin a test holds equal.
extension JPEGIDCT {
    typealias Words = SIMD8<Int16>
    typealias Longs = SIMD8<Int32>
    /// Eight vectors: the rows (or, transposed, the columns) of a block.
    typealias Block = (Words, Words, Words, Words, Words, Words, Words, Words)

    /// ``JPEGIDCT/islow(_:_:_:stride:)``: the decoder's hot kernel, written out in one piece so
    /// that the block stays in registers.
    static func islowSIMD(_ coefficients: UnsafePointer<Int16>, _ quantization: UnsafePointer<Int16>,
                          _ output: UnsafeMutablePointer<UInt8>, stride: Int) {
        let c = UnsafeRawPointer(coefficients), q = UnsafeRawPointer(quantization)
        let r1 = c.loadUnaligned(fromByteOffset: 16, as: Words.self)
        let r2 = c.loadUnaligned(fromByteOffset: 32, as: Words.self)
        let r3 = c.loadUnaligned(fromByteOffset: 48, as: Words.self)
        let r4 = c.loadUnaligned(fromByteOffset: 64, as: Words.self)
        let r5 = c.loadUnaligned(fromByteOffset: 80, as: Words.self)
        let r6 = c.loadUnaligned(fromByteOffset: 96, as: Words.self)
        let r7 = c.loadUnaligned(fromByteOffset: 112, as: Words.self)
        let r0 = c.loadUnaligned(as: Words.self)
        let d0 = r0 &* q.loadUnaligned(as: Words.self)

        var columns: Block
        if isZero(r1 | r2 | r3 | r4 | r5 | r6 | r7) {
            // libjpeg-turbo's block-wide shortcut: pass 1 is (c·q) << 2 in 16 bits.
            let first = d0 &<< 2
            if isZero(r0 & Words(0, -1, -1, -1, -1, -1, -1, -1)) {
                // DC only: every pass-2 output is (first·2^13 + 2^17) >> 18 = (first + 16) >> 5.
                let sample = clampedSample((Int32(first[0]) &+ 16) &>> 5)
                let row = SIMD8<UInt8>(repeating: sample)
                for y in 0..<8 { UnsafeMutableRawPointer(output + y &* stride).storeBytes(of: row, as: SIMD8<UInt8>.self) }
                return
            }
            columns = (Words(repeating: first[0]), Words(repeating: first[1]), Words(repeating: first[2]),
                       Words(repeating: first[3]), Words(repeating: first[4]), Words(repeating: first[5]),
                       Words(repeating: first[6]), Words(repeating: first[7]))
        } else {
            let o = transform(d0,
                              r1 &* q.loadUnaligned(fromByteOffset: 16, as: Words.self),
                              r2 &* q.loadUnaligned(fromByteOffset: 32, as: Words.self),
                              r3 &* q.loadUnaligned(fromByteOffset: 48, as: Words.self),
                              r4 &* q.loadUnaligned(fromByteOffset: 64, as: Words.self),
                              r5 &* q.loadUnaligned(fromByteOffset: 80, as: Words.self),
                              r6 &* q.loadUnaligned(fromByteOffset: 96, as: Words.self),
                              r7 &* q.loadUnaligned(fromByteOffset: 112, as: Words.self))
            let bias = Longs(repeating: pass1Bias)
            columns = transpose((saturated((o.0 &+ bias) &>> pass1Shift),
                                 saturated((o.1 &+ bias) &>> pass1Shift),
                                 saturated((o.2 &+ bias) &>> pass1Shift),
                                 saturated((o.3 &+ bias) &>> pass1Shift),
                                 saturated((o.4 &+ bias) &>> pass1Shift),
                                 saturated((o.5 &+ bias) &>> pass1Shift),
                                 saturated((o.6 &+ bias) &>> pass1Shift),
                                 saturated((o.7 &+ bias) &>> pass1Shift)))
        }

        // Pass 2: `columns.k` holds horizontal frequency k of all eight rows (a lane per row);
        // output vector x holds sample column x of all eight rows.
        let o = transform(columns.0, columns.1, columns.2, columns.3,
                          columns.4, columns.5, columns.6, columns.7)
        let rows = transpose((samples(o.0), samples(o.1), samples(o.2), samples(o.3),
                              samples(o.4), samples(o.5), samples(o.6), samples(o.7)))
        store(rows.0, output)
        store(rows.1, output + stride)
        store(rows.2, output + 2 &* stride)
        store(rows.3, output + 3 &* stride)
        store(rows.4, output + 4 &* stride)
        store(rows.5, output + 5 &* stride)
        store(rows.6, output + 6 &* stride)
        store(rows.7, output + 7 &* stride)
    }

    /// Descales pass-2 outputs and saturates them to `Int16` (`packssdw`); ``store(_:_:)``
    /// does the rest after the transpose.
    @inline(__always)
    static func samples(_ o: Longs) -> Words {
        saturated((o &+ Longs(repeating: pass2Bias)) &>> pass2Shift)
    }

    /// `packssdw`: saturation to `Int16`.
    @inline(__always)
    static func saturated(_ x: Longs) -> Words { narrowed(clamp(x, -32768, 32767)) }

    // Conversions, comparisons and `min`/`max` on SIMD values are generic standard-library code
    // that the optimizer may leave as calls or lower lane by lane with branches; lane-wise
    // initializers and arithmetic compile to the vector instructions (`punpck`, `packssdw`).

    /// `x` clamped to `low…high` with arithmetic only; needs |x|, |low|, |high| < 2^30.
    @inline(__always)
    static func clamp(_ x: Longs, _ low: Int32, _ high: Int32) -> Longs {
        let d = x &- high
        let e = (d & (d &>> 31)) &+ high &- low
        return (e & ~(e &>> 31)) &+ low
    }

    @inline(__always)
    static func widened(_ v: Words) -> Longs {
        Longs(Int32(v[0]), Int32(v[1]), Int32(v[2]), Int32(v[3]), Int32(v[4]), Int32(v[5]), Int32(v[6]), Int32(v[7]))
    }

    /// The low 16 bits of each lane.
    @inline(__always)
    static func narrowed(_ x: Longs) -> Words {
        Words(Int16(truncatingIfNeeded: x[0]), Int16(truncatingIfNeeded: x[1]), Int16(truncatingIfNeeded: x[2]),
              Int16(truncatingIfNeeded: x[3]), Int16(truncatingIfNeeded: x[4]), Int16(truncatingIfNeeded: x[5]),
              Int16(truncatingIfNeeded: x[6]), Int16(truncatingIfNeeded: x[7]))
    }

    @inline(__always)
    static func isZero(_ v: Words) -> Bool {
        let halves = unsafeBitCast(v, to: SIMD2<UInt64>.self)
        return halves[0] | halves[1] == 0
    }

    /// Stores a row of eight samples: saturated to `Int8` and level-shifted by +128
    /// (`packsswb`, `paddb`).
    @inline(__always)
    static func store(_ signed: Words, _ destination: UnsafeMutablePointer<UInt8>) {
        let row = clamp(widened(signed), -128, 127) &+ 128
        let bytes = SIMD8<UInt8>(UInt8(truncatingIfNeeded: row[0]), UInt8(truncatingIfNeeded: row[1]),
                                 UInt8(truncatingIfNeeded: row[2]), UInt8(truncatingIfNeeded: row[3]),
                                 UInt8(truncatingIfNeeded: row[4]), UInt8(truncatingIfNeeded: row[5]),
                                 UInt8(truncatingIfNeeded: row[6]), UInt8(truncatingIfNeeded: row[7]))
        UnsafeMutableRawPointer(destination).storeBytes(of: bytes, as: SIMD8<UInt8>.self)
    }

    /// ``JPEGIDCT/transform(_:step:)`` on eight lanes: input vector k holds frequency k of eight
    /// independent 1-D transforms.
    @inline(__always)
    static func transform(_ d0: Words, _ d1: Words, _ d2: Words, _ d3: Words,
                          _ d4: Words, _ d5: Words, _ d6: Words, _ d7: Words)
        -> (Longs, Longs, Longs, Longs, Longs, Longs, Longs, Longs) {
        let w1 = widened(d1), w2 = widened(d2), w3 = widened(d3)
        let w5 = widened(d5), w6 = widened(d6), w7 = widened(d7)
        let tmp3 = w2 &* (fix0_541196100 &+ fix0_765366865) &+ w6 &* fix0_541196100
        let tmp2 = w2 &* fix0_541196100 &+ w6 &* (fix0_541196100 &- fix1_847759065)
        let sum04 = widened(d0 &+ d4) &<< constBits
        let difference04 = widened(d0 &- d4) &<< constBits
        let tmp10 = sum04 &+ tmp3, tmp13 = sum04 &- tmp3
        let tmp11 = difference04 &+ tmp2, tmp12 = difference04 &- tmp2
        let z3 = widened(d7 &+ d3), z4 = widened(d5 &+ d1)
        let z3r = z3 &* (fix1_175875602 &- fix1_961570560) &+ z4 &* fix1_175875602
        let z4r = z3 &* fix1_175875602 &+ z4 &* (fix1_175875602 &- fix0_390180644)
        let t0 = w7 &* (fix0_298631336 &- fix0_899976223) &+ w1 &* (0 &- fix0_899976223) &+ z3r
        let t1 = w5 &* (fix2_053119869 &- fix2_562915447) &+ w3 &* (0 &- fix2_562915447) &+ z4r
        let t2 = w5 &* (0 &- fix2_562915447) &+ w3 &* (fix3_072711026 &- fix2_562915447) &+ z3r
        let t3 = w7 &* (0 &- fix0_899976223) &+ w1 &* (fix1_501321110 &- fix0_899976223) &+ z4r
        return (tmp10 &+ t3, tmp11 &+ t2, tmp12 &+ t1, tmp13 &+ t0,
                tmp13 &- t0, tmp12 &- t1, tmp11 &- t2, tmp10 &- t3)
    }

    /// Transposes an 8×8 block of 16-bit values by three rounds of interleaving (16-, 32-, then
    /// 64-bit units), the `punpckl/h` sequence of the SSE2 code.
    @inline(__always)
    static func transpose(_ m: Block) -> Block {
        let a0 = zipLow(m.0, m.1), a1 = zipHigh(m.0, m.1), a2 = zipLow(m.2, m.3), a3 = zipHigh(m.2, m.3)
        let a4 = zipLow(m.4, m.5), a5 = zipHigh(m.4, m.5), a6 = zipLow(m.6, m.7), a7 = zipHigh(m.6, m.7)
        let b0 = zipLow(pairs(a0), pairs(a2)), b1 = zipHigh(pairs(a0), pairs(a2))
        let b2 = zipLow(pairs(a1), pairs(a3)), b3 = zipHigh(pairs(a1), pairs(a3))
        let b4 = zipLow(pairs(a4), pairs(a6)), b5 = zipHigh(pairs(a4), pairs(a6))
        let b6 = zipLow(pairs(a5), pairs(a7)), b7 = zipHigh(pairs(a5), pairs(a7))
        return (halves(b0, b4, high: false), halves(b0, b4, high: true),
                halves(b1, b5, high: false), halves(b1, b5, high: true),
                halves(b2, b6, high: false), halves(b2, b6, high: true),
                halves(b3, b7, high: false), halves(b3, b7, high: true))
    }

    @inline(__always)
    static func zipLow(_ a: Words, _ b: Words) -> Words {
        Words(a[0], b[0], a[1], b[1], a[2], b[2], a[3], b[3])
    }

    @inline(__always)
    static func zipHigh(_ a: Words, _ b: Words) -> Words {
        Words(a[4], b[4], a[5], b[5], a[6], b[6], a[7], b[7])
    }

    @inline(__always)
    static func pairs(_ a: Words) -> SIMD4<Int32> { unsafeBitCast(a, to: SIMD4<Int32>.self) }

    @inline(__always)
    static func zipLow(_ a: SIMD4<Int32>, _ b: SIMD4<Int32>) -> SIMD4<Int32> { SIMD4(a[0], b[0], a[1], b[1]) }

    @inline(__always)
    static func zipHigh(_ a: SIMD4<Int32>, _ b: SIMD4<Int32>) -> SIMD4<Int32> { SIMD4(a[2], b[2], a[3], b[3]) }

    /// The low (or high) 64 bits of `a` followed by those of `b`, as eight words.
    @inline(__always)
    static func halves(_ a: SIMD4<Int32>, _ b: SIMD4<Int32>, high: Bool) -> Words {
        let x = unsafeBitCast(a, to: SIMD2<Int64>.self), y = unsafeBitCast(b, to: SIMD2<Int64>.self)
        return unsafeBitCast(high ? SIMD2(x[1], y[1]) : SIMD2(x[0], y[0]), to: Words.self)
    }
}
