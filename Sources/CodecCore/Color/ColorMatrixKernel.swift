/// Matrix/TRC: linearise each channel by table, a 3×3 matrix (with offset, for black point
/// compensation) to linear sRGB, then encode.
///
/// For 8-bit pixels the arithmetic is LittleCMS's 8-bit matrix/TRC path's: linear values and
/// the matrix in 1.14 fixed point (16384 is 1), their products and the offset in 2.28, and a
/// sum's index into the sRGB encoding is the sum shifted right by 14 (rounded: the offset
/// carries half a step). Each input channel's code has a table of its terms, the matrix column
/// it meets times its linear value, so a pixel's three sums are three table reads and two adds.
struct ColorMatrixKernel: Sendable {
    /// For matrices whose sums span fewer than 2¹⁶ indices (every real profile: P3 spans about
    /// 1.5 units of linear light, 24 Ki indices), per input channel and code (3 × 256): the
    /// three output channels' terms in one 64-bit word (``PackedTerms``). Empty otherwise.
    let packedTerms8: [UInt64]
    /// For wider matrices, per input channel and code: the three terms as 2.28 lanes (red's
    /// carrying the bias that makes every sum non-negative). Empty when ``packedTerms8`` is used.
    let terms8: [SIMD4<Int32>]
    /// The 8-bit sRGB code of every index the sums can reach: entry `k` is the code of linear
    /// `(k + lowest) / 16384` (`lowest` the smallest index a sum reaches, one lower for packed
    /// terms), clipped to [0, 1]. Out-of-gamut sums land on 0 or 255 without a clamp per pixel.
    let encoding8: [UInt8]
    /// Linear values at 4097 evenly spaced inputs, per channel, for 16-bit codes.
    let linear16: [Float]
    /// Row-major matrix (9) then offset (3).
    let coefficients: [Float]

    /// Indices the encoding table may span: 8 units of linear light (a real wide-gamut matrix
    /// spans about 3), so that biased sums stay below 2³¹.
    static let maximumSpan = 8 << 14

    /// Whether 8-bit pixels go through ``packedTerms8``.
    var packsTerms: Bool { !packedTerms8.isEmpty }

    /// Nil when the matrix reaches further than ``maximumSpan`` (no usable profile does).
    init?(curves: [ICCCurve], matrix: Matrix3, offset: Vector3) {
        guard curves.count == 3 else { return nil }
        let one = Double(SRGBEncoding.steps8)
        let m = matrix.m.map { Self.fixed($0 * one) }
        let round = Int64(SRGBEncoding.steps8 / 2)
        let o = [offset.x, offset.y, offset.z].map { Int64(Self.fixed($0 * one * one)) + round }
        let linear = curves.map { c in (0..<256).map { Int64((c.evaluate(Double($0) / 255) * one).rounded()) } }
        /// Term of input channel `j`, sample `v`, to output channel `c` (offset on red's).
        func term(_ j: Int, _ v: Int, _ c: Int) -> Int64 { Int64(m[3 * c + j]) * linear[j][v] + (j == 0 ? o[c] : 0) }
        var lowest = Int64.max, highest = Int64.min
        for c in 0..<3 {
            let range = (0..<3).map { j in (0..<256).map { term(j, $0, c) } }
            lowest = min(lowest, range.map { $0.min()! }.reduce(0, +) >> 14)
            highest = max(highest, range.map { $0.max()! }.reduce(0, +) >> 14)
        }
        guard highest - lowest < Int64(Self.maximumSpan) else { return nil }
        if highest - lowest + PackedTerms.margin * 2 < 1 << 16 {
            lowest -= PackedTerms.margin
            highest += PackedTerms.margin
            let bias = -lowest << 14
            packedTerms8 = (0..<3).flatMap { j in
                (0..<256).map { v in PackedTerms.word { c in term(j, v, c) + (j == 0 ? bias : 0) } }
            }
            terms8 = []
        } else {
            let bias = -lowest << 14
            terms8 = (0..<3).flatMap { j in
                (0..<256).map { v in
                    SIMD4<Int32>((0..<3).map { c in Int32(truncatingIfNeeded: term(j, v, c) + (j == 0 ? bias : 0)) } + [0])
                }
            }
            packedTerms8 = []
        }
        let top = Int64(SRGBEncoding.steps8)
        encoding8 = (lowest...highest).map { SRGBEncoding.table8[Int(min(max($0, 0), top))] }
        linear16 = curves.flatMap { c in (0...SRGBEncoding.steps16).map { Float(c.evaluate(Double($0) / Double(SRGBEncoding.steps16))) } }
        coefficients = (matrix.m + [offset.x, offset.y, offset.z]).map(Float.init)
    }

    /// `v` rounded to an Int32, saturating (a hostile profile's matrix can be anything).
    private static func fixed(_ v: Double) -> Int32 {
        guard v.isFinite else { return 0 }
        return Int32(min(max(v.rounded(), Double(Int32.min)), Double(Int32.max)))
    }

    /// Converts `count` RGBA8 pixels from `src` to `dst` (alpha copied; they may be the same).
    func apply8(_ src: UnsafePointer<UInt8>, _ dst: UnsafeMutablePointer<UInt8>, count: Int) {
        encoding8.withUnsafeBufferPointer { enc in
            let e = enc.baseAddress!, input = UnsafeRawPointer(src), output = UnsafeMutableRawPointer(dst)
            if packsTerms {
                packedTerms8.withUnsafeBufferPointer { terms in
                    if input == UnsafeRawPointer(output) {
                        PackedTerms.apply(terms.baseAddress!, e, input, output, count: count, copiesAlpha: false)
                    } else {
                        PackedTerms.apply(terms.baseAddress!, e, input, output, count: count, copiesAlpha: true)
                    }
                }
            } else {
                terms8.withUnsafeBufferPointer { Self.applyShifted($0.baseAddress!, e, input, output, count: count) }
            }
        }
    }

    /// Hot loop for wide matrices: a pixel's sums are three vector reads and two vector adds,
    /// each shifted right by 14 to its index and moved out as a 32-bit lane; two pixels a step.
    private static func applyShifted(_ t: UnsafePointer<SIMD4<Int32>>, _ e: UnsafePointer<UInt8>,
                                     _ input: UnsafeRawPointer, _ output: UnsafeMutableRawPointer, count: Int) {
        /// The three sRGB codes of `pixel`'s colour, in place of its R, G and B bytes.
        @inline(__always) func converted(_ pixel: UInt32) -> UInt32 {
            let sum = t[Int(pixel & 0xFF)] &+ t[256 &+ Int(pixel >> 8 & 0xFF)] &+ t[512 &+ Int(pixel >> 16 & 0xFF)]
            let index = SIMD4<UInt32>(truncatingIfNeeded: sum) &>> 14
            return UInt32(e[Int(index[0])]) | UInt32(e[Int(index[1])]) << 8 | UInt32(e[Int(index[2])]) << 16
                | pixel & 0xFF00_0000
        }
        var i = 0
        while i &+ 2 <= count {
            let pair = UInt64(littleEndian: input.loadUnaligned(fromByteOffset: i &* 4, as: UInt64.self))
            let first = converted(UInt32(truncatingIfNeeded: pair)), second = converted(UInt32(truncatingIfNeeded: pair >> 32))
            output.storeBytes(of: (UInt64(first) | UInt64(second) << 32).littleEndian, toByteOffset: i &* 4, as: UInt64.self)
            i &+= 2
        }
        if i < count {
            let pixel = UInt32(littleEndian: input.loadUnaligned(fromByteOffset: i &* 4, as: UInt32.self))
            output.storeBytes(of: converted(pixel).littleEndian, toByteOffset: i &* 4, as: UInt32.self)
        }
    }

    func apply16(_ p: UnsafeMutablePointer<UInt16>, count: Int) {
        let steps = SRGBEncoding.steps16
        linear16.withUnsafeBufferPointer { lin in
            SRGBEncoding.table16.withUnsafeBufferPointer { enc in
                let l = lin.baseAddress!, e = enc.baseAddress!, m = coefficients
                for i in stride(from: 0, to: count &* 4, by: 4) {
                    let r = interpolate16(p[i], l, steps: steps)
                    let g = interpolate16(p[i + 1], l + (steps + 1), steps: steps)
                    let b = interpolate16(p[i + 2], l + 2 * (steps + 1), steps: steps)
                    p[i] = SRGBEncoding.encode16(m[0] * r + m[1] * g + m[2] * b + m[9], e)
                    p[i + 1] = SRGBEncoding.encode16(m[3] * r + m[4] * g + m[5] * b + m[10], e)
                    p[i + 2] = SRGBEncoding.encode16(m[6] * r + m[7] * g + m[8] * b + m[11], e)
                }
            }
        }
    }
}
