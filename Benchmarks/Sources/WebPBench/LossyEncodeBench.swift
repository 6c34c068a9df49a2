import BenchSupport
import CLibWebP
import Foundation
import ImageCodecs

/// WebP lossy encode rows: our VP8 encoder (ImageDestination, quality Q/100, the effort asked
/// for) against libwebp's `WebPEncodeRGBA` at quality Q (its method 4), in process, the same
/// RGBA8 still, same run. Both files are decoded by libwebp (`WebPDecodeRGBAInto`) and by our
/// decoder: the rows give the PSNR of libwebp's decoding against the source and whether the two
/// decoders agree.
enum LossyEncodeBench {
    static func ours(_ f: EncodeBench.Frames, quality: Double, effort: Int) throws -> [UInt8] {
        var options = EncodingOptions()
        options.lossless = false
        options.quality = quality / 100
        options.effort = effort
        let destination = try ImageDestination(format: .webp, options: options)
        try destination.add(EncodingFrame(raster: Raster(width: f.width, height: f.height, bytesPerPixel: 4,
                                                         pixels: f.pixels[0])))
        return try destination.finalize()
    }

    static func libwebp(_ f: EncodeBench.Frames, quality: Double) -> [UInt8] {
        var out: UnsafeMutablePointer<UInt8>?
        let size = f.pixels[0].withUnsafeBufferPointer {
            WebPEncodeRGBA($0.baseAddress, Int32(f.width), Int32(f.height), Int32(f.width * 4), Float(quality), &out)
        }
        defer { WebPFree(out) }
        guard size > 0, let out else { return [] }
        return Array(UnsafeBufferPointer(start: out, count: size))
    }

    /// PSNR (RGB) of libwebp's decoding of `file` against the source, and whether our decoder
    /// gives the same pixels.
    static func check(_ file: [UInt8], _ f: EncodeBench.Frames) -> (psnr: Double, decodersAgree: Bool) {
        guard let info = WebPInfo(file), let theirs = try? Decoder.libwebp.decode(file, info: info),
              let mine = try? Decoder.ours.decode(file, info: info), theirs.count == f.pixels[0].count else { return (0, false) }
        var sum = 0.0
        for i in theirs.indices where i % 4 != 3 {
            let d = Double(theirs[i]) - Double(f.pixels[0][i])
            sum += d * d
        }
        let psnr = sum == 0 ? 99 : 10 * log10(255 * 255 * Double(theirs.count / 4 * 3) / sum)
        return (psnr, mine == theirs)
    }

    static func run(file: URL, iterations: Int, effort: Int, quality: Double) -> Int32 {
        guard let f = try? EncodeBench.frames(file) else {
            warn("WebPBench --encode: cannot read \(file.path)")
            return 1
        }
        let megapixels = Double(f.width * f.height) / 1e6
        let version = WebPGetEncoderVersion()
        print("WebP lossy encode of \(file.lastPathComponent) (\(f.width)x\(f.height), RGBA8 in memory), best of "
            + "\(iterations) interleaved iterations; ours at effort \(effort) against libwebp "
            + "\(version >> 16).\(version >> 8 & 0xFF).\(version & 0xFF) WebPEncodeRGBA, both at quality \(quality).\n")
        let mine = (try? ours(f, quality: quality, effort: effort)) ?? []
        let theirs = libwebp(f, quality: quality)
        var best = (ours: Double.infinity, reference: Double.infinity)
        for _ in 0..<iterations {
            var start = monotonicNanoseconds()
            consume(libwebp(f, quality: quality))
            best.reference = min(best.reference, Double(monotonicNanoseconds() - start) / 1e9)
            start = monotonicNanoseconds()
            consume((try? ours(f, quality: quality, effort: effort)) ?? [])
            best.ours = min(best.ours, Double(monotonicNanoseconds() - start) / 1e9)
        }
        let a = check(mine, f), b = check(theirs, f)
        print("| encoder | MP/s | bytes | size vs libwebp | PSNR dB | our decoder = libwebp's |")
        print("|---|---|---|---|---|---|")
        print("| ours | \(String(format: "%.2f", megapixels / best.ours)) | \(mine.count) | "
            + "\(String(format: "%.3f", Double(mine.count) / Double(max(theirs.count, 1)))) | "
            + "\(String(format: "%.2f", a.psnr)) | \(a.decodersAgree) |")
        print("| libwebp | \(String(format: "%.2f", megapixels / best.reference)) | \(theirs.count) | 1.000 | "
            + "\(String(format: "%.2f", b.psnr)) | \(b.decodersAgree) |")
        print("\nSpeed ours/libwebp: \(String(format: "%.2f", best.reference / best.ours))×")
        return a.decodersAgree ? 0 : 1
    }
}
