import BenchSupport
import Foundation
import ImageCodecs

/// `JPEGBench --srgb FILE`: what converting to sRGB through the file's ICC profile costs
/// against the decode itself (issue 20 asks for at most 25 %). Each round decodes the file
/// twice through `ImageSource`, with `colorSpace` `.original` and `.sRGB`, in an order that
/// rotates; each time is its best round. A transform is built once per profile (cached), so
/// the rounds after the first measure the per-pixel conversion. One row with `maxThreads` 1,
/// one with the default threads.
enum ColorBench {
    static func run(file: URL, iterations: Int) -> Int32 {
        guard let data = FileManager.default.contents(atPath: file.path) else {
            warn("cannot read \(file.path)")
            return 1
        }
        let bytes = [UInt8](data)
        let (inPlace, outOfPlace) = kernelTimes(bytes, iterations: iterations)
        let profile = ImageSource(bytes: bytes).properties?.iccProfile.flatMap { try? ICCProfile(bytes: $0) }
        print("| file | size MP | profile | threads | decode ms | decode + sRGB ms | conversion / decode | transform in place ms | transform to new storage ms |")
        print("|---|---|---|---|---|---|---|---|---|")
        for threads in [1, DecodingOptions().maxThreads] {
            guard let (megapixels, seconds) = decodeTimes(bytes, threads: threads, iterations: iterations) else { return 1 }
            print("| \(file.lastPathComponent) | \(String(format: "%.2f", megapixels)) | \(profile?.profileDescription ?? "none") | \(threads)"
                + " | \(String(format: "%.1f", seconds[0] * 1000)) | \(String(format: "%.1f", seconds[1] * 1000))"
                + " | \(String(format: "%.1f %%", (seconds[1] - seconds[0]) / seconds[0] * 100))"
                + " | \(String(format: "%.1f", inPlace * 1000)) | \(String(format: "%.1f", outOfPlace * 1000)) |")
        }
        return 0
    }

    /// Megapixels, and the best decode time without and with the conversion, on `threads`.
    static func decodeTimes(_ bytes: [UInt8], threads: Int, iterations: Int) -> (Double, [Double])? {
        var plain = DecodingOptions()
        plain.maxThreads = threads
        var srgb = plain
        srgb.colorSpace = .sRGB
        let options = [plain, srgb]
        var best = [UInt64.max, UInt64.max]
        var size = (0, 0)
        for round in 0...iterations {
            for k in 0..<2 {
                let which = (k + round) % 2
                let start = monotonicNanoseconds()
                guard let image = try? ImageSource(bytes: bytes, options: options[which]).image(at: 0) else {
                    warn("decode failed")
                    return nil
                }
                let elapsed = monotonicNanoseconds() - start
                consume(image.pixels)
                size = (image.width, image.height)
                if round > 0 { best[which] = min(best[which], elapsed) }
            }
        }
        return (Double(size.0 * size.1) / 1e6, best.map { Double($0) / 1e9 })
    }

    /// The transform alone on the decoded image, best of `iterations`: in place on a raster the
    /// loop owns (no allocation), and into new storage (what `ImageSource` does).
    static func kernelTimes(_ bytes: [UInt8], iterations: Int) -> (Double, Double) {
        let source = ImageSource(bytes: bytes)
        guard let image = try? source.image(at: 0), let profile = source.properties?.iccProfile,
              case .success(let transform) = ColorTransform.cached(profile: profile) else { return (0, 0) }
        var raster = Raster(width: image.width, height: image.height, bytesPerPixel: 4, pixels: image.pixels)
        var best = (UInt64.max, UInt64.max)
        for _ in 0..<max(iterations, 1) {
            var start = monotonicNanoseconds()
            transform.apply(to: &raster)
            best.0 = min(best.0, monotonicNanoseconds() - start)
            start = monotonicNanoseconds()
            let fresh = transform.converted(raster)
            best.1 = min(best.1, monotonicNanoseconds() - start)
            consume(fresh.pixels)
        }
        return (Double(best.0) / 1e9, Double(best.1) / 1e9)
    }
}
