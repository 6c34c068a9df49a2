/// The per-pixel part of a ``ColorTransform``: one of the three kernels.
///
/// A struct of optionals, not an enum with three payloads: such an enum keeps its case in the
/// spare high bits of a payload's array pointer (here the grid kernel's last array), and
/// LeakSanitizer, which does not recognise a pointer with those bits set, then reported the
/// arrays of every grid transform still cached when a fuzz run ended as leaked. An optional
/// marks absence with values no pointer takes, and leaves a present pointer as it is.
struct ColorKernel: Sendable {
    let matrix: ColorMatrixKernel?
    let curves: ColorCurveKernel?
    let grid: ColorGridKernel?

    static func matrix(_ k: ColorMatrixKernel) -> ColorKernel { ColorKernel(matrix: k, curves: nil, grid: nil) }
    static func curves(_ k: ColorCurveKernel) -> ColorKernel { ColorKernel(matrix: nil, curves: k, grid: nil) }
    static func grid(_ k: ColorGridKernel) -> ColorKernel { ColorKernel(matrix: nil, curves: nil, grid: k) }

    /// Converts `count` RGBA8 pixels from `src` to `dst` (alpha copied); they may be the same.
    func apply8(_ src: UnsafePointer<UInt8>, _ dst: UnsafeMutablePointer<UInt8>, count: Int) {
        if let k = matrix {
            k.apply8(src, dst, count: count)
        } else if let k = curves {
            k.apply8(src, dst, count: count)
        } else if let k = grid {
            k.apply8(src, dst, count: count)
        }
    }

    func apply16(_ p: UnsafeMutablePointer<UInt16>, count: Int) {
        if let k = matrix {
            k.apply16(p, count: count)
        } else if let k = curves {
            k.apply16(p, count: count)
        } else if let k = grid {
            k.apply16(p, count: count)
        }
    }
}

/// The sRGB transfer function as tables over linear light in [0, 1].
enum SRGBEncoding {
    /// Steps of the 8-bit table: linear light is rounded to 1/16384 (under 0.1 of an 8-bit
    /// step even where the curve is steepest, 12.92 × 255 / 16384).
    static let steps8 = 16384
    /// 8-bit sRGB code of linear `i / steps8`, rounded.
    static let table8: [UInt8] = (0...steps8).map { UInt8(ICCMath.sRGBEncode(Double($0) / Double(steps8)) * 255 + 0.5) }
    /// Steps of the interpolated 16-bit table.
    static let steps16 = 4096
    static let table16: [Float] = (0...steps16).map { Float(ICCMath.sRGBEncode(Double($0) / Double(steps16))) }

    /// The 16-bit sRGB code of linear `v`, interpolated in ``table16``.
    @inline(__always)
    static func encode16(_ v: Float, _ t: UnsafePointer<Float>) -> UInt16 {
        let x = min(max(v, 0), 1) * Float(steps16)
        let i = min(Int(x), steps16 - 1)
        let f = x - Float(i)
        return UInt16((t[i] + (t[i + 1] - t[i]) * f) * 65535 + 0.5)
    }
}

/// Interpolates a table of `steps + 1` samples over [0, 1] at a 16-bit code.
@inline(__always)
func interpolate16(_ code: UInt16, _ t: UnsafePointer<Float>, steps: Int) -> Float {
    let x = Float(code) * (Float(steps) / 65535)
    let i = min(Int(x), steps - 1)
    let f = x - Float(i)
    return t[i] + (t[i + 1] - t[i]) * f
}

/// Matrix/TRC: linearise each channel by table, a 3×3 matrix (with offset, for black point
/// compensation) to linear sRGB, then encode.
struct ColorMatrixKernel: Sendable {
    /// For 8-bit pixels, per input channel (3 × 256): the column of the matrix that channel
    /// meets, times the channel's linear value, as the three output channels' terms (lanes 0–2)
    /// in 2.28 fixed point. Linear values are in 1.14 fixed point (16384 is 1) and so is the
    /// matrix, as LittleCMS's 8-bit matrix/TRC path keeps them. Red's terms also carry the
    /// offset, the rounding of the final shift and the bias that makes every sum non-negative
    /// (`-lowest << 14`), so a pixel's three sums are three vector reads and two vector adds.
    /// When the encoding table has fewer than 2¹⁶ entries (every real profile: P3 spans about
    /// 1.5 units of linear light, 24 Ki entries) the terms are scaled by 4 (``indexShift`` 16),
    /// so a sum's encoding index is its upper 16 bits, read without a shift.
    let terms8: [SIMD4<Int32>]
    /// How far a sum shifts right to its encoding index: 16 (terms scaled by 4) or 14.
    let indexShift: Int
    /// The 8-bit sRGB code of every index the sums can reach: entry `k` is the code of linear
    /// `(k + lowest) / 16384`, clipped to [0, 1]. Out-of-gamut sums land on 0 or 255 without a
    /// clamp per pixel.
    let encoding8: [UInt8]
    /// Linear values at 4097 evenly spaced inputs, per channel, for 16-bit codes.
    let linear16: [Float]
    /// Row-major matrix (9) then offset (3).
    let coefficients: [Float]

    /// Indices the encoding table may span: 8 units of linear light (a real wide-gamut matrix
    /// spans about 3), so that biased sums stay below 2³¹.
    static let maximumSpan = 8 << 14

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
        let bias = -lowest << 14
        // Scaled by 4, a biased sum stays below 2³² (its index is below 2¹⁶): the terms wrap
        // to 32 bits alone, but their sum, taken modulo 2³², is exact.
        let narrow = highest - lowest < 1 << 16
        let scale: Int64 = narrow ? 4 : 1
        indexShift = narrow ? 16 : 14
        terms8 = (0..<3).flatMap { j in
            (0..<256).map { v in
                SIMD4<Int32>((0..<3).map { c in Int32(truncatingIfNeeded: (term(j, v, c) + (j == 0 ? bias : 0)) &* scale) } + [0])
            }
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

    /// Converts `count` RGBA8 pixels from `src` to `dst` (alpha copied; they may be the same);
    /// the sums equal the plain fixed-point ones (nine multiplies a pixel, and a clamp of
    /// each: 2.6× as long measured).
    func apply8(_ src: UnsafePointer<UInt8>, _ dst: UnsafeMutablePointer<UInt8>, count: Int) {
        terms8.withUnsafeBufferPointer { terms in
            encoding8.withUnsafeBufferPointer { enc in
                let t = terms.baseAddress!, e = enc.baseAddress!
                if indexShift == 16 {
                    Self.applyUpperHalves(t, e, UnsafeRawPointer(src), UnsafeMutableRawPointer(dst), count: count)
                } else {
                    Self.applyShifted(t, e, UnsafeRawPointer(src), UnsafeMutableRawPointer(dst), count: count)
                }
            }
        }
    }

    /// Hot loop for terms scaled by 4: a pixel is one 32-bit read, three reads of a vector of
    /// terms (from three bases, so each address is one byte and a shift), two vector adds, the
    /// three indices taken as 16-bit lanes (`pextrw` on x86-64: no shift, no 32-bit lane
    /// moves), three encoding reads and three byte writes over R, G and B (in place the alpha
    /// byte is left where it is; into other storage it is one more byte written), two pixels a
    /// step: 25 instructions a pixel in place against 31 for the same loop writing one 32-bit
    /// word assembled with shifts and ORs, one pixel a step. Terms as 64-bit scalar words
    /// instead (six reads a pixel, no vector) were no faster: the table reads bound it.
    private static func applyUpperHalves(_ t: UnsafePointer<SIMD4<Int32>>, _ e: UnsafePointer<UInt8>,
                                         _ input: UnsafeRawPointer, _ output: UnsafeMutableRawPointer, count: Int) {
        if input == UnsafeRawPointer(output) {
            applyUpperHalves(t, e, input, output, count: count, copiesAlpha: false)
        } else {
            applyUpperHalves(t, e, input, output, count: count, copiesAlpha: true)
        }
    }

    @inline(__always)
    private static func applyUpperHalves(_ t: UnsafePointer<SIMD4<Int32>>, _ e: UnsafePointer<UInt8>,
                                         _ input: UnsafeRawPointer, _ output: UnsafeMutableRawPointer, count: Int,
                                         copiesAlpha: Bool) {
        let red = t, green = t + 256, blue = t + 512
        #if _endian(little)
        let upper = (1, 3, 5)
        #else
        let upper = (0, 2, 4)
        #endif
        /// Writes pixel `i`'s three sRGB codes over its R, G and B bytes.
        @inline(__always) func convert(_ i: Int) {
            let pixel = UInt32(littleEndian: input.loadUnaligned(fromByteOffset: i &* 4, as: UInt32.self))
            let sum = red[Int(pixel & 0xFF)] &+ green[Int(pixel >> 8 & 0xFF)] &+ blue[Int(pixel >> 16 & 0xFF)]
            let halves = unsafeBitCast(sum, to: SIMD8<UInt16>.self)
            let o = output + i &* 4
            o.storeBytes(of: e[Int(halves[upper.0])], toByteOffset: 0, as: UInt8.self)
            o.storeBytes(of: e[Int(halves[upper.1])], toByteOffset: 1, as: UInt8.self)
            o.storeBytes(of: e[Int(halves[upper.2])], toByteOffset: 2, as: UInt8.self)
            if copiesAlpha { o.storeBytes(of: UInt8(truncatingIfNeeded: pixel >> 24), toByteOffset: 3, as: UInt8.self) }
        }
        var i = 0
        while i &+ 2 <= count {
            convert(i)
            convert(i &+ 1)
            i &+= 2
        }
        if i < count { convert(i) }
    }

    /// Hot loop for unscaled terms (a matrix reaching past 4 units of linear light): as
    /// ``applyUpperHalves(_:_:_:_:count:)``, with each sum shifted right by 14 and its lanes
    /// moved out as 32-bit values; two pixels a step.
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

/// One input channel (gray): sampled at 33 evenly spaced inputs and read by linear
/// interpolation, as LittleCMS resamples a gray → RGB pipeline (33 grid points, its default
/// for one channel), so results match it even where the sRGB curve is steep near black.
struct ColorCurveKernel: Sendable {
    static let intervals = 32
    /// Encoded outputs in [0, 1] at the 33 nodes, per output channel (3 × 33).
    let nodes: [Float]
    /// For each 8-bit code, the three 8-bit outputs as a pixel's R, G and B bytes (a
    /// little-endian 32-bit word, alpha 0): a pixel is one table read.
    let table8: [UInt32]

    /// Samples `linear` (gray in [0, 1] to linear sRGB).
    init(_ linear: (Double) -> Vector3) {
        let n = Self.intervals
        let samples = (0...n).map { i -> [Double] in
            let v = linear(Double(i) / Double(n))
            return [v.x, v.y, v.z].map(ICCMath.sRGBEncode)
        }
        let nodes = (0..<3).flatMap { c in samples.map { Float($0[c]) } }
        self.nodes = nodes
        table8 = nodes.withUnsafeBufferPointer { t in
            (0..<256).map { v in
                (0..<3).reduce(UInt32(0)) { word, c in
                    word | UInt32(interpolate16(UInt16(v * 257), t.baseAddress! + c * (n + 1), steps: n) * 255 + 0.5) << (8 * c)
                }
            }
        }
    }

    /// Hot loop: one 32-bit read, one table read and one 32-bit write a pixel (red is the gray).
    func apply8(_ src: UnsafePointer<UInt8>, _ dst: UnsafeMutablePointer<UInt8>, count: Int) {
        table8.withUnsafeBufferPointer { table in
            let t = table.baseAddress!, input = UnsafeRawPointer(src), output = UnsafeMutableRawPointer(dst)
            for i in 0..<count {
                let pixel = UInt32(littleEndian: input.loadUnaligned(fromByteOffset: i &* 4, as: UInt32.self))
                let out = t[Int(pixel & 0xFF)] | pixel & 0xFF00_0000
                output.storeBytes(of: out.littleEndian, toByteOffset: i &* 4, as: UInt32.self)
            }
        }
    }

    func apply16(_ p: UnsafeMutablePointer<UInt16>, count: Int) {
        let n = Self.intervals
        nodes.withUnsafeBufferPointer { t in
            let base = t.baseAddress!
            for i in stride(from: 0, to: count &* 4, by: 4) {
                let v = p[i]
                for c in 0..<3 {
                    p[i + c] = UInt16(min(max(interpolate16(v, base + c * (n + 1), steps: n), 0), 1) * 65535 + 0.5)
                }
            }
        }
    }
}
