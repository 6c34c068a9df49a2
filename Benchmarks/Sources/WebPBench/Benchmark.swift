import BenchSupport
import CLibWebP
import Foundation

typealias FileResult = BenchSupport.FileResult<Decoder, WebPInfo>

/// Decodes each file with both decoders, checks the outputs agree, then times them.
struct Benchmark {
    let iterations: Int

    func run(files: [URL]) -> [FileResult] {
        inputs.run(files: files) { name, bytes in
            guard let info = WebPInfo(bytes) else {
                warn("  not a still WebP libwebp can read, skipped")
                return nil
            }
            var result = FileResult(name: name, info: info, megapixels: info.megapixels)
            result.measure(
                iterations: iterations,
                check: { try $0.decode(bytes, info: info) },
                compare: { compare($0, info: info) },
                decode: { try? $0.decode(bytes, info: info) }
            )
            for note in result.notes where note.hasPrefix("MISMATCH") || note.hasPrefix("ours failed") {
                warn("  \(note)")
            }
            return result
        }
    }

    /// Ours against libwebp, byte for byte (both straight RGBA8, the colour under alpha 0 included).
    func compare(_ outputs: [Decoder: [UInt8]], info: WebPInfo) -> [String] {
        compareWithReference(outputs, ours: .ours, reference: .libwebp, width: info.width, height: info.height)
    }
}

/// The Markdown report: a table, the geometric mean, then the notes.
enum Report {
    static func print(_ results: [FileResult], iterations: Int) {
        let version = WebPGetDecoderVersion()
        let ratios = results.compactMap { $0.ratio(over: .libwebp) }
        printReport(
            intro: [
                "WebP decode (still images), RGBA8 output, best of \(iterations) interleaved iterations; libwebp "
                    + "\(version >> 16).\(version >> 8 & 0xFF).\(version & 0xFF) (WebPDecodeRGBAInto).",
                "Ratios are speed ratios (ours MP/s over libwebp's): above 1 means ours is faster.",
            ],
            columns: ["file", "kind", "size MP", "ours MP/s", "libwebp MP/s", "ours/libwebp"],
            rows: results.map { r in
                [
                    r.name, r.info.category, Cell.fixed(r.info.megapixels, 2),
                    Cell.rate(r.megapixelsPerSecond(.ours)), Cell.rate(r.megapixelsPerSecond(.libwebp)),
                    Cell.times(r.ratio(over: .libwebp)),
                ]
            },
            summary: "Geometric mean: ours/libwebp \(Cell.times(geometricMean(ratios))) over \(ratios.count) files.",
            results: results,
            allMatch: "Correctness: ours matches libwebp byte for byte on all \(results.count) files.",
            othersMatch: "Correctness: all other files match libwebp byte for byte."
        )
    }
}
