/// Transforms from colour descriptions that are not ICC profiles: PNG `cHRM` + `gAMA`
/// (PNG 3rd edition 11.3.2.2, 11.3.2.3) and `cICP` (11.3.2.6, ITU-T H.273).
extension ColorTransform {
    /// A matrix/TRC transform of primaries and a white given as CIE xy, adapted to D50 by
    /// Bradford as LittleCMS's `cmsCreateRGBProfile` does, with `curve` on every channel.
    static func fromPrimaries(white: (Double, Double), red: (Double, Double), green: (Double, Double),
                              blue: (Double, Double), curve: ICCCurve) -> ColorTransform? {
        guard let m = ICCMath.rgbToXYZ(white: white, red: red, green: green, blue: blue) else { return nil }
        return ColorTransform(curves: [curve, curve, curve], toXYZ: m)
    }

    /// The sRGB transfer function as parametric type 3 (IEC 61966-2-1).
    static let sRGBCurve = ICCCurve.parametric(3, [2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045])
    /// The BT.709 / BT.601 / BT.2020 transfer function, inverted (ITU-R BT.709-6 1.2).
    static let bt709Curve = ICCCurve.parametric(3, [1 / 0.45, 1 / 1.099, 0.099 / 1.099, 1 / 4.5, 0.081])

    /// `cICP`: colour primaries 1 (BT.709, sRGB), 9 (BT.2020) or 12 (P3 D65, Display P3) and
    /// transfer characteristics 1, 6, 14, 15 (BT.709 family), 13 (sRGB), 8 (linear), 4 and 5
    /// (gamma 2.2 and 2.8), RGB (matrix 0), full range. Nil, with the reason, otherwise (PQ
    /// and HLG need tone mapping to fit sRGB and are refused). BT.709 with the sRGB curve
    /// needs no transform: `.success(nil)`.
    static func fromCICP(_ cicp: [Int]) -> Result<ColorTransform?, DecodingError> {
        guard cicp.count == 4 else { return .failure(.invalidData("cICP must have four values")) }
        guard cicp[2] == 0, cicp[3] == 1 else { return .failure(.unsupported("cICP: only full-range RGB is converted")) }
        let curve: ICCCurve
        switch cicp[1] {
        case 1, 6, 14, 15: curve = bt709Curve
        case 13: curve = sRGBCurve
        case 8: curve = .identity
        case 4: curve = .gamma(2.2)
        case 5: curve = .gamma(2.8)
        case 16, 18: return .failure(.unsupported("cICP: PQ and HLG transfer functions are not converted"))
        default: return .failure(.unsupported("cICP transfer characteristics not supported"))
        }
        let d65 = (0.3127, 0.3290)
        let transform: ColorTransform?
        switch cicp[0] {
        case 1:
            if cicp[1] == 13 { return .success(nil) }
            transform = fromPrimaries(white: d65, red: (0.64, 0.33), green: (0.30, 0.60), blue: (0.15, 0.06), curve: curve)
        case 9:
            transform = fromPrimaries(white: d65, red: (0.708, 0.292), green: (0.170, 0.797), blue: (0.131, 0.046), curve: curve)
        case 12:
            transform = fromPrimaries(white: d65, red: (0.680, 0.320), green: (0.265, 0.690), blue: (0.150, 0.060), curve: curve)
        default:
            return .failure(.unsupported("cICP colour primaries not supported"))
        }
        return transform.map { .success($0) } ?? .failure(.invalidData("cICP primaries are degenerate"))
    }

    /// `cHRM` (white and primaries × 100000) and `gAMA` (the encoding exponent × 100000):
    /// decoding raises samples to 1 / gamma, as libpng does. A missing `gAMA` means the sRGB
    /// curve; a missing `cHRM` the sRGB (BT.709) primaries.
    static func fromChromaticities(_ chromaticities: [Int]?, gamma: Int?) -> Result<ColorTransform?, DecodingError> {
        var curve = sRGBCurve
        if let gamma {
            guard gamma > 0 else { return .failure(.invalidData("gAMA must be positive")) }
            curve = .gamma(100000 / Double(gamma))
        }
        let c = (chromaticities ?? [31270, 32900, 64000, 33000, 30000, 60000, 15000, 6000]).map { Double($0) / 100000 }
        guard c.count == 8 else { return .failure(.invalidData("cHRM must have eight values")) }
        guard let t = fromPrimaries(white: (c[0], c[1]), red: (c[2], c[3]), green: (c[4], c[5]), blue: (c[6], c[7]), curve: curve) else {
            return .failure(.invalidData("cHRM primaries are degenerate"))
        }
        return .success(t)
    }
}
