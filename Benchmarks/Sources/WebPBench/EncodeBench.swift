import BenchSupport
import CLibWebP
import Foundation
import ImageCodecs

/// WebP lossless encode rows: our encoder (ImageDestination, `lossless`, the effort asked for)
/// against libwebp in process, same RGBA8 frames, same run: `WebPEncodeLosslessRGBA` for a
/// still (libwebp's defaults: quality 70, method 4), `WebPAnimEncoder` with lossless frames
/// (its defaults) for an animation. Both files are first decoded by libwebp (WebPDecodeRGBA,
/// WebPAnimDecoder) and checked against the source frames (canonical RGBA8: alpha 0 as 0,0,0,0).
enum EncodeBench {
    struct Frames {
        let width: Int, height: Int
        let pixels: [[UInt8]]
        let durations: [Int]
    }

    /// Every composited frame of a file the library decodes, or of a binary PPM/PAM.
    static func frames(_ url: URL) throws -> Frames {
        let source = ImageSource(bytes: try [UInt8](Data(contentsOf: url)))
        let count = max(1, source.count)
        var pixels: [[UInt8]] = []
        var durations: [Int] = []
        for i in 0..<count {
            pixels.append(try source.image(at: i).rgba8Raster().pixels)
            durations.append(Int(((source.properties(at: i)?.unclampedDuration ?? 0.1) * 1000).rounded()))
        }
        let image = try source.image(at: 0)
        return Frames(width: image.width, height: image.height, pixels: pixels, durations: durations)
    }

    static func ours(_ f: Frames, effort: Int) throws -> [UInt8] {
        var options = EncodingOptions()
        options.lossless = true
        options.effort = effort
        let destination = try ImageDestination(format: .webp, options: options)
        for (p, d) in zip(f.pixels, f.durations) {
            try destination.add(EncodingFrame(raster: Raster(width: f.width, height: f.height, bytesPerPixel: 4, pixels: p),
                                              duration: .milliseconds(d)))
        }
        return try destination.finalize()
    }

    static func libwebp(_ f: Frames) -> [UInt8] {
        f.pixels.count == 1 ? libwebpStill(f) : libwebpAnimation(f)
    }

    static func libwebpStill(_ f: Frames) -> [UInt8] {
        var out: UnsafeMutablePointer<UInt8>?
        let size = f.pixels[0].withUnsafeBufferPointer {
            WebPEncodeLosslessRGBA($0.baseAddress, Int32(f.width), Int32(f.height), Int32(f.width * 4), &out)
        }
        defer { WebPFree(out) }
        guard size > 0, let out else { return [] }
        return Array(UnsafeBufferPointer(start: out, count: size))
    }

    static func libwebpAnimation(_ f: Frames) -> [UInt8] {
        var options = WebPAnimEncoderOptions()
        guard WebPAnimEncoderOptionsInit(&options) != 0,
              let encoder = WebPAnimEncoderNew(Int32(f.width), Int32(f.height), &options) else { return [] }
        defer { WebPAnimEncoderDelete(encoder) }
        var config = WebPConfig()
        guard WebPConfigInit(&config) != 0 else { return [] }
        config.lossless = 1
        var timestamp: Int32 = 0
        for (p, d) in zip(f.pixels, f.durations) {
            var picture = WebPPicture()
            guard WebPPictureInit(&picture) != 0 else { return [] }
            picture.use_argb = 1
            picture.width = Int32(f.width)
            picture.height = Int32(f.height)
            let imported = p.withUnsafeBufferPointer { WebPPictureImportRGBA(&picture, $0.baseAddress, Int32(f.width * 4)) }
            defer { WebPPictureFree(&picture) }
            guard imported != 0, WebPAnimEncoderAdd(encoder, &picture, timestamp, &config) != 0 else { return [] }
            timestamp += Int32(d)
        }
        guard WebPAnimEncoderAdd(encoder, nil, timestamp, nil) != 0 else { return [] }
        var data = WebPData()
        guard WebPAnimEncoderAssemble(encoder, &data) != 0, let bytes = data.bytes else { return [] }
        defer { WebPDataClear(&data) }
        return Array(UnsafeBufferPointer(start: bytes, count: data.size))
    }

    /// Whether libwebp decodes `file` to `f`'s frames (canonical; an animation's repeated
    /// frames may be merged, so its distinct frames are compared in order).
    static func roundTrips(_ file: [UInt8], _ f: Frames) -> Bool {
        guard let info = WebPInfo(file) else { return false }
        let hashes = FrameHashes(canvasBytes: f.width * f.height * 4)
        guard let last = try? Decoder.libwebp.decode(file, info: info, frames: hashes) else { return false }
        if !info.isAnimated { last.withUnsafeBufferPointer { hashes.append($0) } }
        var expected: [UInt64] = []
        let reference = FrameHashes(canvasBytes: f.width * f.height * 4)
        for p in f.pixels { p.withUnsafeBufferPointer { reference.append($0) } }
        for h in reference.hashes where expected.last != h { expected.append(h) }
        var got: [UInt64] = []
        for h in hashes.hashes where got.last != h { got.append(h) }
        return got == expected
    }

    static func run(file: URL, iterations: Int, effort: Int) -> Int32 {
        guard let f = try? frames(file) else {
            warn("WebPBench --encode: cannot read \(file.path)")
            return 1
        }
        let megapixels = Double(f.width * f.height * f.pixels.count) / 1e6
        let version = WebPGetEncoderVersion()
        let reference = f.pixels.count == 1 ? "WebPEncodeLosslessRGBA" : "WebPAnimEncoder (lossless)"
        print("WebP lossless encode of \(file.lastPathComponent) (\(f.width)x\(f.height), \(f.pixels.count) frames, "
            + "\(String(format: "%.2f", megapixels)) MP in all, RGBA8 in memory), best of \(iterations) interleaved "
            + "iterations; ours at effort \(effort) against libwebp \(version >> 16).\(version >> 8 & 0xFF).\(version & 0xFF) "
            + "\(reference) with its defaults.\n")
        let mine = (try? ours(f, effort: effort)) ?? []
        let theirs = libwebp(f)
        var best = (ours: Double.infinity, reference: Double.infinity)
        for _ in 0..<iterations {
            var start = monotonicNanoseconds()
            consume(libwebp(f))
            best.reference = min(best.reference, Double(monotonicNanoseconds() - start) / 1e9)
            start = monotonicNanoseconds()
            consume((try? ours(f, effort: effort)) ?? [])
            best.ours = min(best.ours, Double(monotonicNanoseconds() - start) / 1e9)
        }
        print("| encoder | MP/s | bytes | size vs libwebp | libwebp decodes it to the source |")
        print("|---|---|---|---|---|")
        print("| ours | \(String(format: "%.2f", megapixels / best.ours)) | \(mine.count) | "
            + "\(String(format: "%.3f", Double(mine.count) / Double(max(theirs.count, 1)))) | \(roundTrips(mine, f)) |")
        print("| libwebp | \(String(format: "%.2f", megapixels / best.reference)) | \(theirs.count) | 1.000 | "
            + "\(roundTrips(theirs, f)) |")
        print("\nSpeed ours/libwebp: \(String(format: "%.2f", best.reference / best.ours))×")
        return roundTrips(mine, f) ? 0 : 1
    }
}
