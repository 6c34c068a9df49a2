import BenchSupport
import CLibJPEGShim
import Foundation
import ImageCodecs

typealias FileResult = BenchSupport.FileResult<Decoder, JPEGInfo>

/// Decodes each file with both decoders, checks the outputs agree, then times them.
struct Benchmark {
    let iterations: Int

    func run(files: [URL]) -> [FileResult] {
        inputs.run(files: files) { name, bytes -> FileResult? in
            guard let info = JPEGInfo(bytes), info.width > 0, info.height > 0 else {
                warn("  not a JPEG with a frame header and a non-empty image, skipped")
                return nil
            }
            var result = measure(name: name, bytes: bytes, info: info)
            result.stillBytes = bytes
            for note in result.notes where note.hasPrefix("MISMATCH") || note.hasPrefix("ours failed") {
                warn("  \(note)")
            }
            return result
        }
    }

    /// A first, untimed decode with each (also the warm-up), the comparison, then `iterations`
    /// rounds in which each decoder runs once, the order rotating from round to round.
    func measure(name: String, bytes: [UInt8], info: JPEGInfo) -> FileResult {
        var result = FileResult(name: name, info: info, megapixels: info.megapixels)
        var referenceWarnings: (count: Int32, message: String)?
        result.measure(
            iterations: iterations,
            check: { decoder -> [UInt8] in
                guard decoder == .libjpegTurbo else { return try decoder.decode(bytes, info: info) }
                let output = try decodeLibJPEGTurbo(bytes, info: info)
                if output.warnings > 0 { referenceWarnings = (output.warnings, output.message) }
                return output.pixels
            },
            compare: { compare($0, info: info) },
            decode: { try? $0.decode(bytes, info: info) }
        )
        if let referenceWarnings {
            result.notes.append("note: libjpeg-turbo warned \(referenceWarnings.count) time(s) and went on: "
                + referenceWarnings.message)
        }
        return result
    }

    /// Ours, on the default threads and on one, against libjpeg-turbo, byte for byte (all opaque
    /// RGBA8, so nothing to canonicalise).
    func compare(_ outputs: [Decoder: [UInt8]], info: JPEGInfo) -> [String] {
        [Decoder.ours, .oursOneCore].flatMap {
            compareWithReference(outputs, ours: $0, reference: .libjpegTurbo, width: info.width, height: info.height)
        }
    }
}

/// The Markdown report: a one-core table (ours with `maxThreads` 1) and a default-threads table
/// (ours as a user gets it), each against libjpeg-turbo with the geometric means (all files and
/// per category), then the notes.
enum Report {
    static func print(_ results: [FileResult], iterations: Int) {
        let version = String(cString: jpegshim_version())
        Swift.print("JPEG decode, RGBA8 output, best of \(iterations) interleaved iterations; libjpeg-turbo \(version) "
            + "(classic API: jpeg_mem_src, JDCT_ISLOW, fancy upsampling, JCS_EXT_RGBA, one thread).")
        Swift.print("Ratios are speed ratios (ours MP/s over libjpeg-turbo's): above 1 means ours is faster.")
        Swift.print()
        table(results, .oursOneCore, title: "One core (ours with maxThreads 1)")
        table(results, .ours, title: "Default threads (ours with the default maxThreads, \(DecodingOptions().maxThreads) here)")
        let oursFailed = results.filter { $0.bestSeconds[.ours] == nil }.count
        printNotes(results,
                   allMatch: "Correctness: ours (both ways) matches libjpeg-turbo (ISLOW, fancy upsampling) byte for byte on all "
                       + "\(results.count) files.",
                   othersMatch: oursFailed == results.count
                       ? "Correctness: nothing compared, our decoder failed on every file."
                       : "Correctness: all other files match libjpeg-turbo (ISLOW, fancy upsampling) byte for byte.")
    }

    /// One table of `decoder` against libjpeg-turbo.
    private static func table(_ results: [FileResult], _ decoder: Decoder, title: String) {
        let ratios = results.compactMap { $0.ratio(decoder, over: .libjpegTurbo) }
        var categories: [String] = []
        for r in results where !categories.contains(r.info.category) { categories.append(r.info.category) }
        let perCategory = categories.compactMap { category -> String? in
            let values = results.filter { $0.info.category == category }.compactMap { $0.ratio(decoder, over: .libjpegTurbo) }
            guard !values.isEmpty else { return nil }
            return "\(category) \(Cell.times(geometricMean(values))) (\(values.count))"
        }
        Swift.print("### \(title)")
        Swift.print()
        printTable(
            columns: ["file", "category", "size MP", "ours MP/s", "libjpeg-turbo MP/s", "ours/libjpeg-turbo"],
            rows: results.map { r in
                [
                    r.name, r.info.category, Cell.fixed(r.info.megapixels, 2),
                    Cell.rate(r.megapixelsPerSecond(decoder)), Cell.rate(r.megapixelsPerSecond(.libjpegTurbo)),
                    Cell.times(r.ratio(decoder, over: .libjpegTurbo)),
                ]
            })
        Swift.print()
        Swift.print("Geometric mean: ours/libjpeg-turbo \(Cell.times(geometricMean(ratios))) over \(ratios.count) files"
            + (perCategory.isEmpty ? "." : "; by category: " + perCategory.joined(separator: ", ") + "."))
        Swift.print()
    }
}
