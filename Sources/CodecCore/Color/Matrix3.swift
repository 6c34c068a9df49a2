/// A 3-vector of doubles (XYZ or linear RGB) for building transforms.
struct Vector3: Sendable, Equatable {
    var x, y, z: Double

    init(_ x: Double, _ y: Double, _ z: Double) {
        self.x = x
        self.y = y
        self.z = z
    }

    static func + (l: Vector3, r: Vector3) -> Vector3 { Vector3(l.x + r.x, l.y + r.y, l.z + r.z) }
}

/// A 3×3 matrix of doubles, row-major.
struct Matrix3: Sendable, Equatable {
    var m: [Double]

    init(rows r0: [Double], _ r1: [Double], _ r2: [Double]) { m = r0 + r1 + r2 }

    init(columns c0: Vector3, _ c1: Vector3, _ c2: Vector3) {
        m = [c0.x, c1.x, c2.x, c0.y, c1.y, c2.y, c0.z, c1.z, c2.z]
    }

    static func * (a: Matrix3, v: Vector3) -> Vector3 {
        Vector3(a.m[0] * v.x + a.m[1] * v.y + a.m[2] * v.z,
                a.m[3] * v.x + a.m[4] * v.y + a.m[5] * v.z,
                a.m[6] * v.x + a.m[7] * v.y + a.m[8] * v.z)
    }

    static func * (a: Matrix3, b: Matrix3) -> Matrix3 {
        var r = Matrix3(rows: [0, 0, 0], [0, 0, 0], [0, 0, 0])
        for i in 0..<3 {
            for j in 0..<3 {
                r.m[3 * i + j] = a.m[3 * i] * b.m[j] + a.m[3 * i + 1] * b.m[3 + j] + a.m[3 * i + 2] * b.m[6 + j]
            }
        }
        return r
    }

    /// The inverse, or nil when the matrix is singular.
    var inverted: Matrix3? {
        let (a, b, c, d, e, f, g, h, i) = (m[0], m[1], m[2], m[3], m[4], m[5], m[6], m[7], m[8])
        let det = a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g)
        guard det.isFinite, abs(det) > 1e-12 else { return nil }
        let r = [e * i - f * h, c * h - b * i, b * f - c * e,
                 f * g - d * i, a * i - c * g, c * d - a * f,
                 d * h - e * g, b * g - a * h, a * e - b * d].map { $0 / det }
        return Matrix3(rows: Array(r[0..<3]), Array(r[3..<6]), Array(r[6..<9]))
    }
}
