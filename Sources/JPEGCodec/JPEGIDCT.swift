/// Dequantization (ITU T.81 A.3.4) and the 8×8 inverse DCT (T.81 A.3.3), computed by the
/// Loeffler–Ligtenberg–Moschytz factorisation in 13-bit fixed point that libjpeg calls ISLOW,
/// bit-exact with libjpeg-turbo 2.1.5 as `djpeg -dct int` runs it on x86-64.
///
/// On x86-64 djpeg does not run `jidctint.c`: `jsimd_can_idct_islow` picks
/// `jsimd_idct_islow_avx2` (or the SSE2 twin, which computes the same values). That code keeps
/// the C file's constants (13 fraction bits, two extra bits between passes) but differs from the
/// C arithmetic in ways that show only on extreme coefficients (corrupt or hostile files, 16-bit
/// quantization tables), which real encoders do not produce. This type follows the SIMD code:
///
/// - **Dequantization** is a 16-bit multiply keeping the low half (`pmullw`), so `c·q` wraps
///   modulo 2^16. The multipliers are the DQT values cast to `Int16` (`ISLOW_MULT_TYPE` is
///   `short` in SIMD builds), so a 16-bit DQT entry above 32767 acts as a negative multiplier; the
///   caller does that cast.
/// - **Sums of two inputs** (`x0 ± x4`, `x7 + x3`, `x5 + x1`) are 16-bit and wrap; products are
///   16×16→32 bits with the constants pre-combined so each output is a sum of such products
///   (`pmaddwd`); everything else is 32-bit wrapping arithmetic.
/// - **Between passes** results are saturated to `Int16` (`packssdw`); the C code keeps `int`.
/// - **Block-wide DC shortcut**: when coefficient rows 1…7 are all zero, pass 1 is replaced by
///   `(c·q) << 2` computed in 16 bits (wrapping, not saturating); the C code tests each column
///   and computes exactly.
/// - **Output** saturates to `Int8` and adds 128 (`packssdw`, `packsswb`, `paddb`): a clamp to
///   0…255. The C code instead indexes libjpeg's range-limit table with `x & 1023`, which wraps
///   values beyond ±512 (see ``rangeLimit(_:)``; only the 1×1 scaled IDCT, which has no SIMD
///   version, uses that table).
///
/// For inputs where none of those limits is reached (dequantized values and all pass-1 results
/// within 16 bits, outputs within −512…511) both agree exactly; a test holds the two equal there.
enum JPEGIDCT {
    // FIX(x) = round(x · 2^13), the constants of jidctint.c (CONST_BITS = 13).
    static let fix0_298631336: Int32 = 2446
    static let fix0_390180644: Int32 = 3196
    static let fix0_541196100: Int32 = 4433
    static let fix0_765366865: Int32 = 6270
    static let fix0_899976223: Int32 = 7373
    static let fix1_175875602: Int32 = 9633
    static let fix1_501321110: Int32 = 12299
    static let fix1_847759065: Int32 = 15137
    static let fix1_961570560: Int32 = 16069
    static let fix2_053119869: Int32 = 16819
    static let fix2_562915447: Int32 = 20995
    static let fix3_072711026: Int32 = 25172

    /// Fraction bits of the constants, and the extra precision bits kept between the passes.
    static let constBits: Int32 = 13
    static let pass1Bits: Int32 = 2
    /// Pass 1 drops `constBits − pass1Bits` bits, pass 2 `constBits + pass1Bits + 3` (the 3 is
    /// the 1/8 of the 2-D transform's scale), both rounding half up: `(x + 2^(n−1)) >> n`.
    static let pass1Shift: Int32 = 11
    static let pass2Shift: Int32 = 18
    static let pass1Bias: Int32 = 1 << 10
    static let pass2Bias: Int32 = 1 << 17

    /// Dequantizes and inverse-transforms one block: `coefficients` and `quantization` are 64
    /// values each in natural (row-major, not zigzag) order; writes 8 rows of 8 samples,
    /// level-shifted by +128 and clamped to 0…255, `stride` bytes apart. The SIMD version the
    /// decoder uses; ``islowScalar(_:_:_:stride:)`` is its twin.
    static func islow(_ coefficients: UnsafePointer<Int16>, _ quantization: UnsafePointer<Int16>,
                      _ output: UnsafeMutablePointer<UInt8>, stride: Int) {
        islowSIMD(coefficients, quantization, output, stride: stride)
    }

    /// The scalar twin of ``islow(_:_:_:stride:)``: one column, then one row, at a time, with
    /// the same 16- and 32-bit arithmetic.
    static func islowScalar(_ coefficients: UnsafePointer<Int16>, _ quantization: UnsafePointer<Int16>,
                            _ output: UnsafeMutablePointer<UInt8>, stride: Int) {
        withUnsafeTemporaryAllocation(of: Int16.self, capacity: 128) { buffer in
            let dequantized = buffer.baseAddress!, workspace = dequantized + 64
            // Pass 1: columns (vertical frequencies) into `workspace`, row-major.
            if rowsBelowFirstAreZero(coefficients) {
                for u in 0..<8 {
                    let value = (coefficients[u] &* quantization[u]) &<< pass1Bits
                    for y in 0..<8 { workspace[y &* 8 &+ u] = value }
                }
            } else {
                for i in 0..<64 { dequantized[i] = coefficients[i] &* quantization[i] }
                for u in 0..<8 {
                    let o = transform(dequantized + u, step: 8)
                    store(o, workspace + u, step: 8) { saturatingInt16(($0 &+ pass1Bias) &>> pass1Shift) }
                }
            }
            // Pass 2: rows into samples.
            for y in 0..<8 {
                let o = transform(workspace + y &* 8, step: 1)
                store(o, output + y &* stride, step: 1) { clampedSample(($0 &+ pass2Bias) &>> pass2Shift) }
            }
        }
    }

    /// Writes the eight transform outputs `o` through `finish` to `destination`, `step` apart.
    @inline(__always)
    static func store<T>(_ o: (Int32, Int32, Int32, Int32, Int32, Int32, Int32, Int32),
                         _ destination: UnsafeMutablePointer<T>, step: Int, _ finish: (Int32) -> T) {
        destination[0] = finish(o.0)
        destination[step] = finish(o.1)
        destination[2 &* step] = finish(o.2)
        destination[3 &* step] = finish(o.3)
        destination[4 &* step] = finish(o.4)
        destination[5 &* step] = finish(o.5)
        destination[6 &* step] = finish(o.6)
        destination[7 &* step] = finish(o.7)
    }

    /// Whether coefficients 8…63 (rows 1…7 of the natural-order block) are all zero: the
    /// condition of libjpeg-turbo's SIMD pass-1 shortcut.
    @inline(__always)
    static func rowsBelowFirstAreZero(_ coefficients: UnsafePointer<Int16>) -> Bool {
        let raw = UnsafeRawPointer(coefficients + 8)
        var any: UInt64 = 0
        for i in 0..<14 { any |= raw.loadUnaligned(fromByteOffset: i &* 8, as: UInt64.self) }
        return any == 0
    }

    /// One 8-point ISLOW inverse DCT of the 16-bit inputs `p[k·step]`, k = 0…7 (frequency
    /// order), returning the eight outputs before descaling. Arranged as libjpeg-turbo's SIMD
    /// code arranges it: sums of two inputs in 16 bits, each output a sum of 16×16-bit products
    /// with pre-combined constants (e.g. `tmp3 = d2·(c0.541 + c0.765) + d6·c0.541` where the C
    /// code has `z1 = (d2 + d6)·c0.541; tmp3 = z1 + d2·c0.765`).
    @inline(__always)
    static func transform(_ p: UnsafePointer<Int16>, step: Int)
        -> (Int32, Int32, Int32, Int32, Int32, Int32, Int32, Int32) {
        let d = (p[0], p[step], p[2 &* step], p[3 &* step], p[4 &* step], p[5 &* step], p[6 &* step], p[7 &* step])
        let (d1, d2, d3, d5, d6, d7) = (Int32(d.1), Int32(d.2), Int32(d.3), Int32(d.5), Int32(d.6), Int32(d.7))
        // Even part: the rotation by sqrt(2)·c6 of (d2, d6), and d0 ± d4.
        let tmp3 = d2 &* (fix0_541196100 &+ fix0_765366865) &+ d6 &* fix0_541196100
        let tmp2 = d2 &* fix0_541196100 &+ d6 &* (fix0_541196100 &- fix1_847759065)
        let sum04 = Int32(d.0 &+ d.4) &<< constBits
        let difference04 = Int32(d.0 &- d.4) &<< constBits
        let tmp10 = sum04 &+ tmp3, tmp13 = sum04 &- tmp3
        let tmp11 = difference04 &+ tmp2, tmp12 = difference04 &- tmp2
        // Odd part: z3 = d7 + d3, z4 = d5 + d1 (16-bit), then four rotations.
        let z3 = Int32(d.7 &+ d.3), z4 = Int32(d.5 &+ d.1)
        let z3r = z3 &* (fix1_175875602 &- fix1_961570560) &+ z4 &* fix1_175875602
        let z4r = z3 &* fix1_175875602 &+ z4 &* (fix1_175875602 &- fix0_390180644)
        let t0 = d7 &* (fix0_298631336 &- fix0_899976223) &+ d1 &* (0 &- fix0_899976223) &+ z3r
        let t1 = d5 &* (fix2_053119869 &- fix2_562915447) &+ d3 &* (0 &- fix2_562915447) &+ z4r
        let t2 = d5 &* (0 &- fix2_562915447) &+ d3 &* (fix3_072711026 &- fix2_562915447) &+ z3r
        let t3 = d7 &* (0 &- fix0_899976223) &+ d1 &* (fix1_501321110 &- fix0_899976223) &+ z4r
        return (tmp10 &+ t3, tmp11 &+ t2, tmp12 &+ t1, tmp13 &+ t0,
                tmp13 &- t0, tmp12 &- t1, tmp11 &- t2, tmp10 &- t3)
    }

    @inline(__always)
    static func saturatingInt16(_ value: Int32) -> Int16 {
        Int16(truncatingIfNeeded: min(max(value, Int32(Int16.min)), Int32(Int16.max)))
    }

    /// `packsswb` then `+128`: the SIMD code's final range limit, a clamp to 0…255.
    @inline(__always)
    static func clampedSample(_ value: Int32) -> UInt8 {
        UInt8(truncatingIfNeeded: min(max(value, -128), 127) &+ 128)
    }

    /// libjpeg's post-IDCT range limit for the C IDCTs (`jdmaster.c`
    /// `prepare_range_limit_table`, indexed as `IDCT_range_limit(cinfo)[x & RANGE_MASK]` with
    /// `RANGE_MASK` = 1023): `x` is the descaled IDCT output before the +128 level shift. Values
    /// in −128…127 map to `x + 128`; 128…511 to 255; −512…−129 to 0; beyond, `x` wraps modulo
    /// 1024 first, so e.g. 1024 gives 128 and 600 gives 0. Equivalently
    /// `clamp(((x + 512) & 1023) − 384, 0, 255)`.
    @inline(__always)
    static func rangeLimit(_ x: Int32) -> UInt8 {
        UInt8(truncatingIfNeeded: min(max(((x &+ 512) & 1023) &- 384, 0), 255))
    }
}
