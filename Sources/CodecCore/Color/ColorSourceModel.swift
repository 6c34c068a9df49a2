/// How a profile takes device values to the PCS, chosen as LittleCMS's `_cmsReadInputLUT`
/// chooses for the perceptual intent: the `A2B0` lookup table (perceptual) when the profile
/// has one (ICC.1:2022 clause 8.3: otherwise `A2B1`, relative colorimetric), else the gray
/// TRC (clause 8.3.4) or the RGB matrix/TRC model (clause 8.3.3, F.3).
enum ColorSourceModel: Sendable {
    /// Per-channel curves, then the colorant matrix (columns rXYZ, gXYZ, bXYZ).
    case matrixTRC([ICCCurve], Matrix3)
    /// `grayTRC`: Y = curve(gray) on the D50 white, or L* = 100 · curve(gray) for a Lab PCS.
    case grayTRC(ICCCurve, pcsIsLab: Bool)
    case lut(ICCLut)

    /// The model of `profile`, or the reason it has none usable.
    init(_ profile: ICCProfile) throws(DecodingError) {
        guard let channels = profile.channelCount else { throw .unsupported("ICC colour space is not RGB, gray or CMYK") }
        let pcsIsLab = profile.connectionSpace == ICCSignature("Lab ")
        guard pcsIsLab || profile.connectionSpace == ICCSignature("XYZ ") else { throw .invalidData("ICC PCS is not XYZ or Lab") }
        let d = profile.data
        if let (offset, size) = profile.tag("A2B0") ?? profile.tag("A2B1") {
            guard let lut = ICCLut.read(d, at: offset, size: size, inputs: channels, pcsIsLab: pcsIsLab) else {
                throw .invalidData("ICC AToB tag is malformed or of an unsupported type")
            }
            self = .lut(lut)
            return
        }
        if channels == 1 {
            guard let (offset, size) = profile.tag("kTRC"), let (curve, _) = ICCCurve.read(d, at: offset, end: offset + size) else {
                throw .invalidData("ICC gray profile has no readable grayTRC")
            }
            self = .grayTRC(curve, pcsIsLab: pcsIsLab)
            return
        }
        guard channels == 3, !pcsIsLab else { throw .invalidData("ICC profile has no AToB table and no matrix/TRC") }
        var curves: [ICCCurve] = [], columns: [Vector3] = []
        for (trc, xyz) in [("rTRC", "rXYZ"), ("gTRC", "gXYZ"), ("bTRC", "bXYZ")] as [(StaticString, StaticString)] {
            guard let (co, cs) = profile.tag(trc), let (curve, _) = ICCCurve.read(d, at: co, end: co + cs),
                  let (xo, xs) = profile.tag(xyz), xs >= 20, profile.type(at: xo) == ICCSignature("XYZ "),
                  let x = d.s15Fixed16(xo + 8), let y = d.s15Fixed16(xo + 12), let z = d.s15Fixed16(xo + 16) else {
                throw .invalidData("ICC RGB profile lacks a readable matrix/TRC")
            }
            curves.append(curve)
            columns.append(Vector3(x, y, z))
        }
        self = .matrixTRC(curves, Matrix3(columns: columns[0], columns[1], columns[2]))
    }

    /// Device values in [0, 1] (1, 3 or 4 of them) to PCS XYZ (D50).
    func evaluate(_ device: [Double]) -> Vector3 {
        switch self {
        case .matrixTRC(let curves, let m):
            return m * Vector3(curves[0].evaluate(device[0]), curves[1].evaluate(device[1]), curves[2].evaluate(device[2]))
        case .grayTRC(let curve, let pcsIsLab):
            let v = curve.evaluate(device[0])
            if pcsIsLab { return ICCMath.labToXYZ(v * 100, 0, 0) }
            return Vector3(ICCMath.d50.x * v, ICCMath.d50.y * v, ICCMath.d50.z * v)
        case .lut(let lut):
            return lut.evaluate(device)
        }
    }
}
