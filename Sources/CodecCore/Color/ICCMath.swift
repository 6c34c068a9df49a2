#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The colorimetry a transform is built from: the D50 profile connection space (ICC.1:2022
/// clause 6.3.4.3, with LittleCMS's rounding of its white), CIELAB (CIE 15), Bradford
/// chromatic adaptation (ICC.1 Annex E) and matrices made from primaries.
enum ICCMath {
    /// The PCS illuminant as LittleCMS defines it (`cmsD50X/Y/Z`).
    static let d50 = Vector3(0.9642, 1.0, 0.8249)

    static func pow(_ x: Double, _ y: Double) -> Double { libcPow(x, y) }

    /// CIELAB (D50) to XYZ.
    static func labToXYZ(_ l: Double, _ a: Double, _ b: Double) -> Vector3 {
        let fy = (l + 16) / 116, fx = fy + a / 500, fz = fy - b / 200
        func inverse(_ t: Double) -> Double { t > 24.0 / 116 ? t * t * t : 108.0 / 841 * (t - 16.0 / 116) }
        return Vector3(d50.x * inverse(fx), d50.y * inverse(fy), d50.z * inverse(fz))
    }

    /// XYZ to CIELAB (D50).
    static func xyzToLab(_ xyz: Vector3) -> (l: Double, a: Double, b: Double) {
        func f(_ t: Double) -> Double { t > 216.0 / 24389 ? pow(t, 1.0 / 3) : 841.0 / 108 * t + 16.0 / 116 }
        let fx = f(xyz.x / d50.x), fy = f(xyz.y / d50.y), fz = f(xyz.z / d50.z)
        return (116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz))
    }

    /// The Bradford cone response matrix (ICC.1 Annex E.3).
    static let bradford = Matrix3(rows: [0.8951, 0.2664, -0.1614], [-0.7502, 1.7135, 0.0367], [0.0389, -0.0685, 1.0296])

    /// A Bradford adaptation from `white` to D50.
    static func adaptationToD50(from white: Vector3) -> Matrix3? {
        guard let inverse = bradford.inverted else { return nil }
        let source = bradford * white, target = bradford * d50
        guard source.x != 0, source.y != 0, source.z != 0 else { return nil }
        let scale = Matrix3(rows: [target.x / source.x, 0, 0], [0, target.y / source.y, 0], [0, 0, target.z / source.z])
        return inverse * scale * bradford
    }

    /// The RGB → XYZ (D50) matrix of primaries and a white given as CIE xy, adapted to D50
    /// by Bradford as LittleCMS's `cmsCreateRGBProfile` does; nil for degenerate input.
    static func rgbToXYZ(white: (x: Double, y: Double), red: (x: Double, y: Double),
                         green: (x: Double, y: Double), blue: (x: Double, y: Double)) -> Matrix3? {
        guard white.y > 0, red.y > 0, green.y > 0, blue.y > 0 else { return nil }
        func xyz(_ p: (x: Double, y: Double)) -> Vector3 { Vector3(p.x / p.y, 1, (1 - p.x - p.y) / p.y) }
        let primaries = Matrix3(columns: xyz(red), xyz(green), xyz(blue))
        guard let inverse = primaries.inverted else { return nil }
        let whiteXYZ = xyz(white)
        let s = inverse * whiteXYZ
        let scaled = primaries * Matrix3(rows: [s.x, 0, 0], [0, s.y, 0], [0, 0, s.z])
        guard let adapt = adaptationToD50(from: whiteXYZ) else { return nil }
        return adapt * scaled
    }

    /// sRGB (IEC 61966-2-1) primaries and D65 white adapted to D50: LittleCMS's built-in sRGB
    /// profile, the destination of every transform.
    static let sRGBToXYZ = rgbToXYZ(white: (0.3127, 0.3290), red: (0.64, 0.33), green: (0.30, 0.60), blue: (0.15, 0.06))
        ?? Matrix3(rows: [1, 0, 0], [0, 1, 0], [0, 0, 1])

    /// Linear light to the sRGB transfer function (IEC 61966-2-1), the inverse of the
    /// parametric type 4 curve with g = 2.4, a = 1/1.055, b = 0.055/1.055, c = 1/12.92, d = 0.04045.
    static func sRGBEncode(_ v: Double) -> Double {
        guard v > 0 else { return 0 }   // NaN too
        if v >= 1 { return 1 }
        return v <= 0.04045 / 12.92 ? v * 12.92 : 1.055 * pow(v, 1 / 2.4) - 0.055
    }
}

/// The C library's `pow`, which `ICCMath.pow` would otherwise shadow.
private func libcPow(_ x: Double, _ y: Double) -> Double { pow(x, y) }
