/// A one-dimensional transfer function: `curveType` (ICC.1:2022 clause 10.6) as identity, a
/// pure gamma or a table, or `parametricCurveType` (clause 10.18) of function types 0–4.
/// Curves are evaluated only while a transform is built, never per pixel.
enum ICCCurve: Sendable {
    case identity
    case gamma(Double)
    /// Samples at evenly spaced inputs over [0, 1], each in [0, 1]; linear between them.
    case table([Double])
    /// Function type 0–4 and its parameters g, a, b, c, d, e, f (as many as the type has).
    case parametric(Int, [Double])

    /// Parameters per parametric function type (clause 10.18, table 68).
    private static let parameterCounts = [1, 3, 4, 5, 7]

    /// Reads a `curv` or `para` element at `offset`, returning it and the bytes it takes
    /// (before padding to four bytes), or nil when it is malformed or runs past `end`.
    static func read(_ d: ICCBytes, at offset: Int, end: Int) -> (curve: ICCCurve, length: Int)? {
        guard let type = d.u32(offset) else { return nil }
        if type == ICCSignature("curv").rawValue {
            guard let n32 = d.u32(offset + 8), n32 <= UInt32(end - offset) / 2 else { return nil }
            let n = Int(n32), length = 12 + 2 * n
            guard length <= end - offset else { return nil }
            if n == 0 { return (.identity, length) }
            if n == 1 { return d.u8Fixed8(offset + 12).map { (.gamma($0), length) } }
            var samples = [Double](repeating: 0, count: n)
            for i in 0..<n {
                guard let v = d.u16(offset + 12 + 2 * i) else { return nil }
                samples[i] = Double(v) / 65535
            }
            return (.table(samples), length)
        }
        guard type == ICCSignature("para").rawValue, let function = d.u16(offset + 8),
              Int(function) < parameterCounts.count else { return nil }
        let count = parameterCounts[Int(function)], length = 12 + 4 * count
        guard length <= end - offset else { return nil }
        var parameters: [Double] = []
        for i in 0..<count {
            guard let p = d.s15Fixed16(offset + 12 + 4 * i) else { return nil }
            parameters.append(p)
        }
        return (.parametric(Int(function), parameters), length)
    }

    /// The curve at `x` (clamped to [0, 1]), clamped to [0, 1] as a 16-bit pipeline keeps it.
    func evaluate(_ x: Double) -> Double {
        let x = min(max(x, 0), 1)
        let y: Double
        switch self {
        case .identity:
            y = x
        case .gamma(let g):
            y = Self.power(x, g)
        case .table(let t):
            let position = x * Double(t.count - 1)
            let i = min(Int(position), t.count - 2)
            let f = position - Double(i)
            y = t[i] + (t[i + 1] - t[i]) * f
        case .parametric(let type, let p):
            y = Self.parametric(type, p, x)
        }
        return y.isNaN ? 0 : min(max(y, 0), 1)
    }

    /// Clause 10.18, table 67.
    private static func parametric(_ type: Int, _ p: [Double], _ x: Double) -> Double {
        let g = p[0]
        switch type {
        case 0:
            return power(x, g)
        case 1:
            let (a, b) = (p[1], p[2])
            return x >= -b / a ? power(a * x + b, g) : 0
        case 2:
            let (a, b, c) = (p[1], p[2], p[3])
            return x >= -b / a ? power(a * x + b, g) + c : c
        case 3:
            let (a, b, c, d) = (p[1], p[2], p[3], p[4])
            return x >= d ? power(a * x + b, g) : c * x
        default:
            let (a, b, c, d, e, f) = (p[1], p[2], p[3], p[4], p[5], p[6])
            return x >= d ? power(a * x + b, g) + e : c * x + f
        }
    }

    /// `x^g` for x ≥ 0; a negative base gives 0.
    private static func power(_ x: Double, _ g: Double) -> Double {
        x <= 0 ? (g == 0 ? 1 : 0) : ICCMath.pow(x, g)
    }
}
