import BenchSupport
import CLibPNGShim
import CSpng
import Foundation

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
            return measure(name: name, bytes: bytes, info: info)
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
        for decoder in [Decoder.ours, .libpng] {
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

/// The Markdown report: a table, the geometric means, then the notes.
enum Report {
    static func print(_ results: [FileResult], iterations: Int) {
        let spng = String(cString: spng_version_string())
        let png = String(cString: pngshim_version())
        let spngRatios = results.compactMap { $0.ratio(over: .libspng) }
        let pngRatios = results.compactMap { $0.ratio(over: .libpng) }
        printReport(
            intro: [
                "PNG decode, RGBA8 output, best of \(iterations) interleaved iterations; libspng \(spng), libpng \(png).",
                "Ratios are speed ratios (ours MP/s over theirs): above 1 means ours is faster.",
            ],
            columns: ["file", "category", "size MP", "ours MP/s", "libspng MP/s", "libpng MP/s",
                      "ours/libspng", "ours/libpng"],
            rows: results.map { r in
                [
                    r.name, r.info.category, Cell.fixed(r.info.megapixels, 2),
                    Cell.rate(r.megapixelsPerSecond(.ours)), Cell.rate(r.megapixelsPerSecond(.libspng)),
                    Cell.rate(r.megapixelsPerSecond(.libpng)),
                    Cell.times(r.ratio(over: .libspng)), Cell.times(r.ratio(over: .libpng)),
                ]
            },
            summary: "Geometric mean: ours/libspng \(Cell.times(geometricMean(spngRatios))) over \(spngRatios.count) files, "
                + "ours/libpng \(Cell.times(geometricMean(pngRatios))) over \(pngRatios.count) files.",
            results: results,
            allMatch: "Correctness: ours and libpng match libspng byte for byte on all \(results.count) files"
                + " (16-bit sources: against libspng RGBA16 >> 8).",
            othersMatch: "Correctness: all other files match libspng byte for byte (16-bit sources: against libspng RGBA16 >> 8)."
        )
    }
}
