/// A device-to-PCS lookup pipeline (an `AToB` tag): `lut8Type`/`lut16Type` (ICC.1:2022
/// clauses 10.11, 10.10) as input tables → CLUT → output tables, or `lutAToBType` (clause
/// 10.12) as A curves → CLUT → M curves → matrix → B curves. Outputs are PCS values
/// normalised to [0, 1] in the tag's encoding (``PCSEncoding``).
struct ICCLut: Sendable {
    /// How the normalised outputs map to PCS values.
    enum PCSEncoding: Sendable {
        /// `u1Fixed15` XYZ: 1.0 is 0x8000 of 0xFFFF (clause 6.3.4.2).
        case xyz
        /// Version 4 CIELAB: L* = 100·v, a* = 255·v − 128 (clause 6.3.4.2, table 12).
        case lab
        /// Version 2 16-bit CIELAB of `lut16Type`: L* 100 is 0xFF00 (clause 10.10, table 42).
        case legacyLab16
    }

    var inputCount: Int
    var aCurves: [ICCCurve]
    var grid: ICCGrid?
    var mCurves: [ICCCurve] = []
    /// Row-major 3×3 matrix then the offset (clause 10.12.5), applied after the M curves.
    var matrix: (Matrix3, Vector3)?
    var bCurves: [ICCCurve]
    var encoding: PCSEncoding

    /// The pipeline at `device` (one value in [0, 1] per input channel): PCS XYZ (D50).
    func evaluate(_ device: [Double]) -> Vector3 {
        var v = [Double](repeating: 0, count: max(inputCount, 3))
        for i in 0..<inputCount { v[i] = aCurves[i].evaluate(device[i]) }
        if let grid {
            var out = [Double](repeating: 0, count: grid.outputCount)
            grid.evaluate(Array(v.prefix(inputCount)), into: &out)
            v = out
        }
        if !mCurves.isEmpty {
            for i in 0..<3 { v[i] = mCurves[i].evaluate(v[i]) }
        }
        if let (m, offset) = matrix {
            let r = m * Vector3(v[0], v[1], v[2]) + offset
            v = [r.x, r.y, r.z]
        }
        for i in 0..<3 { v[i] = bCurves[i].evaluate(v[i]) }
        return decode(v[0], v[1], v[2])
    }

    /// Normalised PCS values to XYZ (D50, Y of white 1).
    private func decode(_ a: Double, _ b: Double, _ c: Double) -> Vector3 {
        switch encoding {
        case .xyz:
            let s = 65535.0 / 32768
            return Vector3(a * s, b * s, c * s)
        case .lab:
            return ICCMath.labToXYZ(a * 100, b * 255 - 128, c * 255 - 128)
        case .legacyLab16:
            let s = 65535.0
            return ICCMath.labToXYZ(a * s * 100 / 65280, b * s / 256 - 128, c * s / 256 - 128)
        }
    }
}
