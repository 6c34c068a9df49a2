/// A conversion of device colour to sRGB, built once per profile and then applied to rows.
///
/// It follows what LittleCMS 2 does for `cmsCreateTransform(profile → built-in sRGB,
/// INTENT_PERCEPTUAL, flags 0)` (Pillow's `ImageCms.profileToProfile` defaults):
/// - the source model is chosen as `ColorSourceModel` says (the perceptual `A2B0` table first);
/// - black point compensation is on, because LittleCMS turns it on for a version 4 output
///   profile (its sRGB) under the perceptual intent; it scales XYZ so that the source's
///   black point (the darkest colorant's neutral L*, or the fixed v4 perceptual black for a
///   v4 LUT profile) meets sRGB's, which is zero (ICC.1:2022 Annex, LittleCMS `cmsDetectBlackPoint`);
/// - XYZ (D50) goes to linear sRGB by the inverse of sRGB's D50-adapted colorant matrix,
///   clipped to [0, 1], then through the sRGB transfer function.
///
/// Matrix/TRC sources run per pixel (a linearising table per channel, a 3×3 matrix, an encoding
/// table); one-channel sources become a table per output channel; lookup-table sources are
/// sampled into a device link grid (33³ for three channels, 17⁴ for CMYK, LittleCMS's default
/// sizes) read by tetrahedral interpolation. 16-bit samples are converted at 16 bits.
public final class ColorTransform: Sendable {
    /// Device channels the transform takes: 1 (gray), 3 (RGB) or 4 (CMYK, ink amounts).
    public let inputChannelCount: Int
    let kernel: ColorKernel

    /// A transform from `profile`'s colour space to sRGB; throws when the profile has no
    /// usable model (a typed error, to be reported as a warning).
    public convenience init(profile: ICCProfile) throws(DecodingError) {
        let model = try ColorSourceModel(profile)
        let channels = profile.channelCount ?? 3
        let black = Self.blackPoint(model, channels: channels, isV4LUT: profile.majorVersion >= 4 && { if case .lut = model { true } else { false } }())
        try self.init(model: model, channels: channels, blackPoint: black)
    }

    /// A transform from an RGB matrix/TRC model (PNG cICP, cHRM + gAMA); nil when its matrix
    /// reaches too far (``ColorMatrixKernel/maximumSpan``).
    convenience init?(curves: [ICCCurve], toXYZ: Matrix3) {
        let model = ColorSourceModel.matrixTRC(curves, toXYZ)
        do {
            try self.init(model: model, channels: 3, blackPoint: Self.blackPoint(model, channels: 3, isV4LUT: false))
        } catch {
            return nil
        }
    }

    private init(model: ColorSourceModel, channels: Int, blackPoint: Vector3) throws(DecodingError) {
        inputChannelCount = channels
        let toSRGB = ICCMath.sRGBToXYZ.inverted ?? ICCMath.sRGBToXYZ
        let compensation = Self.compensation(blackPoint)
        /// Device values to linear sRGB, with black point compensation.
        func linear(_ device: [Double]) -> Vector3 {
            let xyz = model.evaluate(device)
            return toSRGB * Vector3(xyz.x * compensation.scale.x + compensation.offset.x,
                                    xyz.y * compensation.scale.y + compensation.offset.y,
                                    xyz.z * compensation.scale.z + compensation.offset.z)
        }
        switch model {
        case .matrixTRC(let curves, let m):
            let s = compensation.scale
            let scaled = toSRGB * Matrix3(rows: [s.x, 0, 0], [0, s.y, 0], [0, 0, s.z]) * m
            guard let matrix = ColorMatrixKernel(curves: curves, matrix: scaled, offset: toSRGB * compensation.offset) else {
                throw .invalidData("ICC: the colorant matrix reaches beyond eight times white")
            }
            kernel = .matrix(matrix)
        default:
            if channels == 1 {
                kernel = .curves(ColorCurveKernel { x in linear([x]) })
            } else {
                kernel = .grid(ColorGridKernel(dimensions: channels, points: channels == 4 ? 17 : 33, linear))
            }
        }
    }

    /// The source's black point as LittleCMS 2 (2.19, measured through Pillow) detects it for
    /// the perceptual intent: the fixed perceptual black of a version 4 LUT profile, else the
    /// darkest colorant (RGB 0, gray 0, CMYK 400 %) as the profile gives it, chroma included;
    /// L* above 95 or below 0 gives no black point, above 50 is clipped to 50.
    private static func blackPoint(_ model: ColorSourceModel, channels: Int, isV4LUT: Bool) -> Vector3 {
        if isV4LUT { return Vector3(0.00336, 0.0034731, 0.00287) }
        let darkest = model.evaluate([Double](repeating: channels == 4 ? 1 : 0, count: channels))
        let (l, a, b) = ICCMath.xyzToLab(darkest)
        guard l > 0, l <= 95 else { return Vector3(0, 0, 0) }
        return l <= 50 ? darkest : ICCMath.labToXYZ(50, a, b)
    }

    /// LittleCMS's `ComputeBlackPointCompensation` towards a zero black: per XYZ component,
    /// `out = a · in + b` mapping `black` to 0 and keeping the D50 white.
    private static func compensation(_ black: Vector3) -> (scale: Vector3, offset: Vector3) {
        let w = ICCMath.d50
        guard black != Vector3(0, 0, 0), black.x < w.x, black.y < w.y, black.z < w.z else {
            return (Vector3(1, 1, 1), Vector3(0, 0, 0))
        }
        func component(_ b: Double, _ white: Double) -> (Double, Double) {
            let t = b - white
            return ((0 - white) / t, -white * (0 - b) / t)
        }
        let (ax, bx) = component(black.x, w.x), (ay, by) = component(black.y, w.y), (az, bz) = component(black.z, w.z)
        return (Vector3(ax, ay, az), Vector3(bx, by, bz))
    }

    /// Converts RGBA rows in place (8 or 16 bits a sample, straight alpha; alpha is kept).
    /// A gray transform reads the red sample of each pixel (gray images are R = G = B here);
    /// a CMYK transform is not applied here (see ``convertInk(_:count:)``).
    public func apply(to raster: inout Raster) {
        let count = raster.width * raster.height
        if raster.bytesPerPixel == 8 {
            raster.pixels.withUnsafeMutableBytes { raw in
                let p = raw.bindMemory(to: UInt16.self)
                guard p.count >= count * 4 else { return }
                kernel.apply16(p.baseAddress!, count: count)
            }
            return
        }
        raster.pixels.withUnsafeMutableBufferPointer { p in
            guard p.count >= count * 4 else { return }
            kernel.apply8(p.baseAddress!, p.baseAddress!, count: count)
        }
    }

    /// `raster` converted into new storage: one pass that reads the source and writes the
    /// result, where converting a shared raster in place would copy it first. An 8-bit raster
    /// of several `bandPixels` is converted in bands on up to `maxThreads` threads (the
    /// caller's and the process's worker pool); the result is the same for every count.
    public func converted(_ raster: Raster, maxThreads: Int = 1) -> Raster {
        let count = raster.width * raster.height
        guard raster.bytesPerPixel == 4, raster.pixels.count == count * 4 else {
            var copy = raster
            apply(to: &copy)
            return copy
        }
        var pixels = PixelStorage.make(count: count * 4, zeroed: false)
        let bands = (count + Self.bandPixels - 1) / Self.bandPixels
        raster.pixels.withUnsafeBufferPointer { src in
            pixels.withUnsafeMutableBufferPointer { out in
                guard let from = src.baseAddress, let to = out.baseAddress else { return }
                WorkerPool.shared.concurrentForEach(count: bands, maxThreads: maxThreads) { band in
                    let first = band * Self.bandPixels, n = min(Self.bandPixels, count - first)
                    kernel.apply8(from + 4 * first, to + 4 * first, count: n)
                }
            }
        }
        return Raster(width: raster.width, height: raster.height, bytesPerPixel: 4, pixels: pixels)
    }

    /// Pixels a thread converts at a time: 1 MiB of RGBA8, a few milliseconds of work.
    static let bandPixels = 1 << 18

    /// Converts one RGBA8 row in place (a decoder's row sink); a CMYK transform leaves it as it is.
    public func convertRow(_ p: UnsafeMutablePointer<UInt8>, count: Int) {
        kernel.apply8(p, p, count: count)
    }

    /// Converts interleaved CMYK ink amounts (0 = no ink, as ICC CMYK data is; 4 bytes a
    /// pixel) to opaque RGBA8, in place.
    public func convertInk(_ p: UnsafeMutablePointer<UInt8>, count: Int) {
        guard let grid = kernel.grid, grid.dimensions == 4 else { return }
        grid.convertInk(p, count: count)
    }
}
