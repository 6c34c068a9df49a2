/// Quantization of forward-DCT output as libjpeg-turbo does it for 8-bit samples
/// (`jcdctmgr.c` `compute_reciprocal` and `quantize`, with its 16-bit DCTELEM): the divisor is
/// the table value times 8 (the DCT's scale), and x / d rounded to nearest is computed as
/// ((|x| + c) · m) >> r with a reciprocal m, a correction c and a shift r chosen per divisor.
/// T.81 A.3.4 asks for rounding to nearest; this is libjpeg-turbo's exact rounding of it.
struct JPEGQuantizer {
    /// Per coefficient (natural order): reciprocal, correction, total shift.
    private(set) var reciprocal: [UInt32]
    private(set) var correction: [UInt32]
    private(set) var shift: [UInt32]
    /// For the SIMD twin, 24 vectors of 8 lanes: reciprocals, corrections, and the shifts as
    /// multipliers 2^(32 − r) (libjpeg-turbo's `scale`; r ≥ 18 for every divisor 8q, so they
    /// fit 16 bits): ((|x| + c)·m >> 16)·2^(32 − r) >> 16 = (|x| + c)·m >> r.
    private(set) var vectors: [SIMD8<UInt16>]

    /// `table`: 64 quantizer values in natural order (1…32767).
    init(table: [UInt16]) {
        reciprocal = []
        correction = []
        shift = []
        for value in table {
            let (m, c, r) = Self.reciprocal(of: UInt16(truncatingIfNeeded: Int(value) << 3))
            reciprocal.append(m)
            correction.append(c)
            shift.append(r)
        }
        vectors = []
        let scale = shift.map { $0 >= 18 ? UInt32(1) << (32 - $0) : 0 }
        for values in [reciprocal, correction, scale] {
            for i in 0..<8 { vectors.append(SIMD8(values[(i * 8)..<(i * 8 + 8)].map { UInt16(truncatingIfNeeded: $0) })) }
        }
    }

    /// `compute_reciprocal` for a 16-bit DCTELEM: returns (m, c, r).
    static func reciprocal(of divisor: UInt16) -> (UInt32, UInt32, UInt32) {
        let d = UInt32(divisor)
        guard d > 1 else { return (1, 0, 0) }
        let b = UInt32(31 - d.leadingZeroBitCount)   // floor(log2 d)
        var r = 16 + b
        var fq = (UInt32(1) << r) / d
        let fr = (UInt32(1) << r) % d
        var c = d / 2
        if fr == 0 {
            fq >>= 1
            r -= 1
        } else if fr <= d / 2 {
            c += 1
        } else {
            fq += 1
        }
        return (UInt32(UInt16(truncatingIfNeeded: fq)), UInt32(UInt16(truncatingIfNeeded: c)), r)
    }

    /// Quantizes 64 DCT outputs (natural order) into `out`.
    @inline(__always)
    func quantize(_ input: UnsafePointer<Int32>, _ out: UnsafeMutablePointer<Int16>) {
        reciprocal.withUnsafeBufferPointer { m in
            correction.withUnsafeBufferPointer { c in
                shift.withUnsafeBufferPointer { r in
                    for i in 0..<64 {
                        let x = input[i]
                        let magnitude = UInt32(UInt16(truncatingIfNeeded: x < 0 ? 0 &- x : x))
                        let sum = magnitude &+ c[i]
                        let q = Int32(truncatingIfNeeded: (sum &* m[i]) &>> r[i])
                        out[i] = Int16(truncatingIfNeeded: x < 0 ? 0 &- q : q)
                    }
                }
            }
        }
    }
}
