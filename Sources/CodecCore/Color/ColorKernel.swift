/// The per-pixel part of a ``ColorTransform``.
enum ColorKernel: Sendable {
    case matrix(ColorMatrixKernel)
    case curves(ColorCurveKernel)
    case grid(ColorGridKernel)

    /// Converts `count` RGBA8 pixels from `src` to `dst` (alpha copied); they may be the same.
    func apply8(_ src: UnsafePointer<UInt8>, _ dst: UnsafeMutablePointer<UInt8>, count: Int) {
        switch self {
        case .matrix(let k): k.apply8(src, dst, count: count)
        case .curves(let k): k.apply8(src, dst, count: count)
        case .grid(let k): k.apply8(src, dst, count: count)
        }
    }

    func apply16(_ p: UnsafeMutablePointer<UInt16>, count: Int) {
        switch self {
        case .matrix(let k): k.apply16(p, count: count)
        case .curves(let k): k.apply16(p, count: count)
        case .grid(let k): k.apply16(p, count: count)
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
    /// Linear values of the 256 8-bit codes in 1.14 fixed point (16384 is 1), per channel
    /// (3 × 256), as LittleCMS's 8-bit matrix/TRC path keeps them.
    let linear8: [Int32]
    /// Linear values at 4097 evenly spaced inputs, per channel, for 16-bit codes.
    let linear16: [Float]
    /// Row-major matrix (9) then offset (3).
    let coefficients: [Float]
    /// The matrix in 1.14 fixed point (9) then the offset in 2.28 (3), for 8-bit pixels.
    let fixedCoefficients: [Int32]

    init(curves: [ICCCurve], matrix: Matrix3, offset: Vector3) {
        let one = Double(SRGBEncoding.steps8)
        linear8 = curves.flatMap { c in (0..<256).map { Int32((c.evaluate(Double($0) / 255) * one).rounded()) } }
        linear16 = curves.flatMap { c in (0...SRGBEncoding.steps16).map { Float(c.evaluate(Double($0) / Double(SRGBEncoding.steps16))) } }
        coefficients = (matrix.m + [offset.x, offset.y, offset.z]).map(Float.init)
        fixedCoefficients = matrix.m.map { Self.fixed($0 * one) } + [offset.x, offset.y, offset.z].map { Self.fixed($0 * one * one) }
    }

    /// `v` rounded to an Int32, saturating (a hostile profile's matrix can be anything).
    private static func fixed(_ v: Double) -> Int32 {
        guard v.isFinite else { return 0 }
        return Int32(min(max(v.rounded(), Double(Int32.min)), Double(Int32.max)))
    }

    /// Hot loop, in integers (an 8-lane SIMD version measured slower: its table reads are
    /// scalar lane inserts and extracts): one table read per channel, nine multiplies, three
    /// encoding reads a pixel. Products stay below 2³¹ for a usable matrix (samples ≤ 2¹⁴,
    /// coefficients < 2¹⁵); wrapping arithmetic otherwise.
    func apply8(_ src: UnsafePointer<UInt8>, _ dst: UnsafeMutablePointer<UInt8>, count: Int) {
        linear8.withUnsafeBufferPointer { lin in
            fixedCoefficients.withUnsafeBufferPointer { m in
                SRGBEncoding.table8.withUnsafeBufferPointer { enc in
                    let l = lin.baseAddress!, e = enc.baseAddress!
                    let (m0, m1, m2, m3, m4, m5, m6, m7, m8) = (m[0], m[1], m[2], m[3], m[4], m[5], m[6], m[7], m[8])
                    let round = Int32(SRGBEncoding.steps8 / 2)
                    let (o0, o1, o2) = (m[9] &+ round, m[10] &+ round, m[11] &+ round)
                    let top = Int32(SRGBEncoding.steps8)
                    @inline(__always) func code(_ acc: Int32) -> UInt8 { e[Int(min(max(acc &>> 14, 0), top))] }
                    var i = 0
                    let end = count &* 4
                    while i < end {
                        let r = l[Int(src[i])], g = l[256 &+ Int(src[i &+ 1])], b = l[512 &+ Int(src[i &+ 2])]
                        let a = src[i &+ 3]
                        dst[i] = code(m0 &* r &+ m1 &* g &+ m2 &* b &+ o0)
                        dst[i &+ 1] = code(m3 &* r &+ m4 &* g &+ m5 &* b &+ o1)
                        dst[i &+ 2] = code(m6 &* r &+ m7 &* g &+ m8 &* b &+ o2)
                        dst[i &+ 3] = a
                        i &+= 4
                    }
                }
            }
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
    /// 8-bit outputs for the 256 8-bit codes, per output channel (3 × 256).
    let table8: [UInt8]

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
            (0..<3).flatMap { c in
                (0..<256).map { v in UInt8(interpolate16(UInt16(v * 257), t.baseAddress! + c * (n + 1), steps: n) * 255 + 0.5) }
            }
        }
    }

    func apply8(_ src: UnsafePointer<UInt8>, _ dst: UnsafeMutablePointer<UInt8>, count: Int) {
        table8.withUnsafeBufferPointer { t in
            for i in stride(from: 0, to: count &* 4, by: 4) {
                let v = Int(src[i])
                dst[i &+ 3] = src[i &+ 3]
                dst[i] = t[v]
                dst[i &+ 1] = t[256 &+ v]
                dst[i &+ 2] = t[512 &+ v]
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
