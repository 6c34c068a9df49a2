import BenchSupport
import CLibJPEGShim
import Foundation
import JPEGCodec

/// JPEG transcode rows: our lossless transcoder (`JPEGTranscoder`, `copy none`) against
/// libjpeg-turbo's `jpeg_read_coefficients` + `jpeg_write_coefficients` (jpegtran without a
/// transform), in process, same file, same run; each setting checked byte for byte first.
enum TranscodeBench {
    struct Setting {
        let name: String
        let optimize: Bool, progressive: Bool
    }

    static let settings = [
        Setting(name: "progressive", optimize: false, progressive: true),
        Setting(name: "optimize", optimize: true, progressive: false),
        Setting(name: "default", optimize: false, progressive: false),
    ]

    static func ours(_ bytes: [UInt8], _ s: Setting) -> [UInt8] {
        var options = JPEGTranscodeOptions()
        options.optimize = s.optimize
        options.progressive = s.progressive
        options.copy = .none
        return (try? JPEGTranscoder.transcode(bytes, options: options)) ?? []
    }

    static func libjpegTurbo(_ bytes: [UInt8], _ s: Setting) -> [UInt8] {
        var out: UnsafeMutablePointer<UInt8>?
        var size: UInt = 0
        let rc = bytes.withUnsafeBytes {
            jpegshim_transcode($0.baseAddress, $0.count, s.optimize ? 1 : 0, s.progressive ? 1 : 0, &out, &size)
        }
        defer { jpegshim_free(out) }
        guard rc == 0, let out else { return [] }
        return Array(UnsafeBufferPointer(start: out, count: Int(size)))
    }

    static func run(file: URL, iterations: Int, only: String?) -> Int32 {
        guard let bytes = try? [UInt8](Data(contentsOf: file)), let info = JPEGInfo(bytes) else {
            warn("JPEGBench --transcode: cannot read \(file.path)")
            return 1
        }
        let megapixels = Double(info.width * info.height) / 1e6
        print("JPEG transcode of \(file.lastPathComponent) (\(info.width)x\(info.height), \(String(format: "%.1f", megapixels)) MP, "
            + "\(bytes.count) bytes in memory), best of \(iterations) interleaved iterations; libjpeg-turbo "
            + "\(String(cString: jpegshim_version())) jpeg_read_coefficients + jpeg_write_coefficients.\n")
        print("| setting | ours MP/s | libjpeg-turbo MP/s | ours/libjpeg-turbo | byte-exact |")
        print("|---|---|---|---|---|")
        for s in settings where only.map({ s.name.contains($0) }) ?? true {
            let reference = libjpegTurbo(bytes, s)
            let mine = ours(bytes, s)
            var best = (ours: Double.infinity, reference: Double.infinity)
            for _ in 0..<iterations {
                var start = monotonicNanoseconds()
                consume(libjpegTurbo(bytes, s))
                best.reference = min(best.reference, Double(monotonicNanoseconds() - start) / 1e9)
                start = monotonicNanoseconds()
                consume(ours(bytes, s))
                best.ours = min(best.ours, Double(monotonicNanoseconds() - start) / 1e9)
            }
            print("| \(s.name) | \(String(format: "%.1f", megapixels / best.ours)) | "
                + "\(String(format: "%.1f", megapixels / best.reference)) | \(String(format: "%.2f", best.reference / best.ours))× | "
                + "\(mine == reference && !mine.isEmpty ? "yes" : "NO") (\(mine.count) bytes) |")
        }
        return 0
    }
}
