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
