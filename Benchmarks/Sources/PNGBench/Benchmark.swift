import BenchSupport
import CLibPNGShim
import CSpng
import Foundation
import ImageCodecs

typealias FileResult = BenchSupport.FileResult<Decoder, PNGInfo>

/// Decodes each file with the three decoders, checks the outputs agree, then times them.
struct Benchmark {
    let iterations: Int

    func run(files: [URL]) -> [FileResult] {
        inputs.run(files: files) { name, bytes in
            guard let info = PNGInfo(bytes) else {
                warn("  not a PNG, skipped")
                return nil
            }
            var result = measure(name: name, bytes: bytes, info: info)
            result.stillBytes = bytes
            return result
        }
    }

    /// A first, untimed decode with each (also the warm-up), the comparison, then `iterations`
    /// rounds in which each decoder runs once, the order rotating from round to round.
    func measure(name: String, bytes: [UInt8], info: PNGInfo) -> FileResult {
        var result = FileResult(name: name, info: info, megapixels: info.megapixels)
        result.measure(
            iterations: iterations,
            check: { try $0.decode(bytes, info: info) },
            compare: { compare($0, bytes: bytes, info: info) },
            decode: { try? $0.decode(bytes, info: info) }
        )
        return result
    }

    /// Ours and libpng against libspng. For a 16-bit source the reference is libspng's RGBA16
    /// cut to its high bytes (`v >> 8`, the canonical form), not libspng's own RGBA8.
    func compare(_ outputs: [Decoder: [UInt8]], bytes: [UInt8], info: PNGInfo) -> [String] {
        var notes: [String] = []
        let reference: [UInt8]
        if info.isSixteenBit {
            guard let high = try? decodeSpngSixteenToHighBytes(bytes) else {
                return ["no reference: libspng RGBA16 failed"]
            }
            reference = high
            if let spng8 = outputs[.libspng], let issue = comparison(spng8, reference: high, width: info.width) {
                notes.append("note: libspng RGBA8 is not RGBA16 >> 8: \(issue)")
            }
        } else {
            guard let spng = outputs[.libspng] else { return ["no reference: libspng failed"] }
            reference = spng
        }
        for decoder in [Decoder.ours, .oursOneCore, .libpng] {
            guard let output = outputs[decoder] else { continue }
            if let issue = comparison(output, reference: reference, width: info.width) {
                notes.append("MISMATCH \(decoder.name) vs libspng: \(issue)")
            }
        }
        return notes
    }

    /// Byte-for-byte comparison of RGBA8 outputs against libspng's; nil when they agree.
    func comparison(_ candidate: [UInt8], reference: [UInt8], width: Int) -> String? {
        Comparison(candidate, reference: reference, width: width) { differences in
            differences.onlyUnderZeroAlpha ? " (only colour under alpha 0)" : ""
        }.mismatch
    }
}

/// The Markdown report: the one-core table (ours with `maxThreads` 1, and the C libraries), the
/// table with our default `maxThreads`, the geometric means, then the notes. CPU time is the
/// least of the rounds, every thread of the process counted.
enum Report {
    static func print(_ results: [FileResult], iterations: Int) {
        let spng = String(cString: spng_version_string())
        let png = String(cString: pngshim_version())
        let threads = DecodingOptions().maxThreads
        let one = results.compactMap { $0.ratio(.oursOneCore, over: .libspng) }
        let onePNG = results.compactMap { $0.ratio(.oursOneCore, over: .libpng) }
        let many = results.compactMap { $0.ratio(over: .libspng) }
        func ms(_ r: FileResult, _ d: Decoder) -> String { r.bestCPUSeconds[d].map { Cell.fixed($0 * 1e3, 1) } ?? "error" }
        Swift.print("PNG decode, RGBA8 output, best of \(iterations) interleaved iterations; libspng \(spng), libpng \(png).")
        Swift.print("Ratios are speed ratios (MP/s over MP/s, wall time): above 1 means ours is faster. CPU ms: least CPU time of one decode, all threads.")
        Swift.print()
        Swift.print("One core (ours with maxThreads = 1):")
        printReport(
            intro: [],
            columns: ["file", "category", "size MP", "ours MP/s", "libspng MP/s", "libpng MP/s",
                      "ours/libspng", "ours/libpng", "ours CPU ms", "libspng CPU ms"],
            rows: results.map { r in
                [
                    r.name, r.info.category, Cell.fixed(r.info.megapixels, 2),
                    Cell.rate(r.megapixelsPerSecond(.oursOneCore)), Cell.rate(r.megapixelsPerSecond(.libspng)),
                    Cell.rate(r.megapixelsPerSecond(.libpng)),
                    Cell.times(r.ratio(.oursOneCore, over: .libspng)), Cell.times(r.ratio(.oursOneCore, over: .libpng)),
                    ms(r, .oursOneCore), ms(r, .libspng),
                ]
            },
            summary: "Geometric mean, one core: ours/libspng \(Cell.times(geometricMean(one))) over \(one.count) files, "
                + "ours/libpng \(Cell.times(geometricMean(onePNG))) over \(onePNG.count) files.",
            results: [FileResult](), allMatch: "", othersMatch: ""
        )
        Swift.print("Default threads (ours with maxThreads = \(threads); libspng on one):")
        printReport(
            intro: [],
            columns: ["file", "category", "size MP", "ours MP/s", "libspng MP/s", "ours/libspng", "ours CPU ms", "libspng CPU ms"],
            rows: results.map { r in
                [
                    r.name, r.info.category, Cell.fixed(r.info.megapixels, 2),
                    Cell.rate(r.megapixelsPerSecond(.ours)), Cell.rate(r.megapixelsPerSecond(.libspng)),
                    Cell.times(r.ratio(over: .libspng)), ms(r, .ours), ms(r, .libspng),
                ]
            },
            summary: "Geometric mean, default threads: ours/libspng \(Cell.times(geometricMean(many))) over \(many.count) files.",
            results: results,
            allMatch: "Correctness: ours (both ways) and libpng match libspng byte for byte on all \(results.count) files"
                + " (16-bit sources: against libspng RGBA16 >> 8).",
            othersMatch: "Correctness: all other files match libspng byte for byte (16-bit sources: against libspng RGBA16 >> 8)."
        )
    }
}
