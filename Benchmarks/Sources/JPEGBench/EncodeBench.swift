import BenchSupport
import CLibJPEGShim
import Foundation
import ImageCodecs
import JPEGCodec

/// JPEG encode rows: our encoder against libjpeg-turbo's compressor (set up as cjpeg does), in
/// process, same RGB pixels, same run; each setting checked byte for byte first. Rows marked
/// "2 threads" let our baseline encoder code on a second thread (`maxThreads: 2`, what
/// `EncodingOptions` gives on a machine of two cores or more); libjpeg-turbo has one.
enum EncodeBench {
    struct Setting {
        let name: String
        let h: Int, v: Int
        let optimize: Bool, progressive: Bool
        var threads = 1
    }

    static let settings = [
        Setting(name: "baseline 4:2:0 q75", h: 2, v: 2, optimize: false, progressive: false),
        Setting(name: "baseline 4:2:0 q75, 2 threads", h: 2, v: 2, optimize: false, progressive: false, threads: 2),
        Setting(name: "baseline 4:4:4 q75", h: 1, v: 1, optimize: false, progressive: false),
        Setting(name: "baseline 4:4:4 q75, 2 threads", h: 1, v: 1, optimize: false, progressive: false, threads: 2),
        Setting(name: "optimize 4:2:0 q75", h: 2, v: 2, optimize: true, progressive: false),
        Setting(name: "progressive 4:2:0 q75", h: 2, v: 2, optimize: false, progressive: true),
    ]

    /// RGB8 pixels of an image file the library decodes, or of a binary PPM.
    static func rgbPixels(_ url: URL) throws -> (width: Int, height: Int, pixels: [UInt8]) {
        let bytes = try [UInt8](Data(contentsOf: url))
        let image = try ImageSource(bytes: bytes).image(at: 0)
        var rgb = [UInt8](repeating: 0, count: image.width * image.height * 3)
        for y in 0..<image.height {
            for x in 0..<image.width {
                for c in 0..<3 { rgb[(y * image.width + x) * 3 + c] = image.pixels[y * image.bytesPerRow + x * 4 + c] }
            }
        }
        return (image.width, image.height, rgb)
    }

    static func ours(_ pixels: [UInt8], _ width: Int, _ height: Int, _ s: Setting) throws -> [UInt8] {
        var encoder = try JPEGEncoder(width: width, height: height, components: 3, settings: JPEGEncoderSettings(
            quality: 75, lumaSampling: (s.h, s.v), optimizeHuffman: s.optimize, progressive: s.progressive),
            maxThreads: s.threads)
        try pixels.withUnsafeBufferPointer { try encoder.write(rows: $0) }
        return encoder.takeOutput() + (try encoder.finish())
    }

    static func libjpegTurbo(_ pixels: [UInt8], _ width: Int, _ height: Int, _ s: Setting) -> [UInt8] {
        var out: UnsafeMutablePointer<UInt8>?
        var size: UInt = 0
        let rc = pixels.withUnsafeBytes {
            jpegshim_encode($0.baseAddress, UInt32(width), UInt32(height), 3, 75, Int32(s.h), Int32(s.v),
                            s.optimize ? 1 : 0, s.progressive ? 1 : 0, &out, &size)
        }
        defer { jpegshim_free(out) }
        guard rc == 0, let out else { return [] }
        return Array(UnsafeBufferPointer(start: out, count: Int(size)))
    }

    static func run(file: URL, iterations: Int, only: String?) -> Int32 {
        guard let (width, height, pixels) = try? rgbPixels(file) else {
            warn("JPEGBench --encode: cannot read \(file.path)")
            return 1
        }
        let megapixels = Double(width * height) / 1e6
        print("JPEG encode of \(file.lastPathComponent) (\(width)x\(height), \(String(format: "%.1f", megapixels)) MP, RGB8 in memory), "
            + "best of \(iterations) interleaved iterations; libjpeg-turbo \(String(cString: jpegshim_version())) "
            + "set up as cjpeg (ISLOW, jpeg_set_quality(75, FALSE)).\n")
        print("| setting | ours MP/s | libjpeg-turbo MP/s | ours/libjpeg-turbo | byte-exact |")
        print("|---|---|---|---|---|")
        for s in settings where only.map({ s.name.contains($0) }) ?? true {
            let reference = libjpegTurbo(pixels, width, height, s)
            let mine = (try? ours(pixels, width, height, s)) ?? []
            var best = (ours: Double.infinity, reference: Double.infinity)
            for _ in 0..<iterations {
                var start = monotonicNanoseconds()
                consume(libjpegTurbo(pixels, width, height, s))
                best.reference = min(best.reference, Double(monotonicNanoseconds() - start) / 1e9)
                start = monotonicNanoseconds()
                consume((try? ours(pixels, width, height, s)) ?? [])
                best.ours = min(best.ours, Double(monotonicNanoseconds() - start) / 1e9)
            }
            let ratio = best.reference / best.ours
            print("| \(s.name) | \(String(format: "%.1f", megapixels / best.ours)) | "
                + "\(String(format: "%.1f", megapixels / best.reference)) | \(String(format: "%.2f", ratio))× | "
                + "\(mine == reference && !mine.isEmpty ? "yes" : "NO") (\(mine.count) bytes) |")
        }
        return 0
    }
}
