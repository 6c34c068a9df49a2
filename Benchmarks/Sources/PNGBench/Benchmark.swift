import CLibPNGShim
import CSpng
import Foundation

/// One file's results: best seconds per decoder (nil when that decoder failed) and notes.
struct FileResult {
    let name: String
    let info: PNGInfo
    var bestSeconds: [Decoder: Double] = [:]
    var notes: [String] = []

    func megapixelsPerSecond(_ decoder: Decoder) -> Double? {
        bestSeconds[decoder].map { info.megapixels / $0 }
    }

    /// Speed of ours over `reference`: above 1 means ours is faster.
    func ratio(over reference: Decoder) -> Double? {
        guard let ours = megapixelsPerSecond(.ours), let other = megapixelsPerSecond(reference) else {
            return nil
        }
        return ours / other
    }
}

/// Decodes each file with the three decoders, checks the outputs agree, then times them.
struct Benchmark {
    let iterations: Int

    func run(files: [URL]) -> [FileResult] {
        var results: [FileResult] = []
        for (index, url) in files.enumerated() {
            let name = Inputs.displayName(url)
            warn("[\(index + 1)/\(files.count)] \(name)")
            guard let bytes = try? Inputs.read(url) else {
                warn("  cannot read \(url.path), skipped")
                continue
            }
            guard let info = PNGInfo(bytes) else {
                warn("  not a PNG, skipped")
                continue
            }
            results.append(measure(name: name, bytes: bytes, info: info))
        }
        return results
    }

    /// A first, untimed decode with each (also the warm-up), the comparison, then `iterations`
    /// rounds in which each decoder runs once, the order rotating from round to round.
    func measure(name: String, bytes: [UInt8], info: PNGInfo) -> FileResult {
        var result = FileResult(name: name, info: info)
        var outputs: [Decoder: [UInt8]] = [:]
        for decoder in Decoder.allCases {
            do {
                outputs[decoder] = try decoder.decode(bytes, info: info)
            } catch {
                result.notes.append("\(decoder.name) failed: \(error)")
            }
        }
        result.notes += compare(outputs, bytes: bytes, info: info)
        let working = Decoder.allCases.filter { outputs[$0] != nil }
        outputs.removeAll()

        var best = [Decoder: UInt64]()
        for round in 0..<iterations {
            for step in working.indices {
                let decoder = working[(round + step) % working.count]
                let start = monotonicNanoseconds()
                guard let pixels = try? decoder.decode(bytes, info: info) else { continue }
                consume(pixels)
                let elapsed = monotonicNanoseconds() - start
                best[decoder] = min(best[decoder] ?? .max, elapsed)
            }
        }
        for (decoder, nanoseconds) in best {
            result.bestSeconds[decoder] = Double(nanoseconds) / 1e9
        }
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
            if let spng8 = outputs[.libspng], let issue = Comparison(spng8, reference: high, width: info.width).mismatch {
                notes.append("note: libspng RGBA8 is not RGBA16 >> 8: \(issue)")
            }
        } else {
            guard let spng = outputs[.libspng] else { return ["no reference: libspng failed"] }
            reference = spng
        }
        for decoder in [Decoder.ours, .libpng] {
            guard let output = outputs[decoder] else { continue }
            if let issue = Comparison(output, reference: reference, width: info.width).mismatch {
                notes.append("MISMATCH \(decoder.name) vs libspng: \(issue)")
            }
        }
        return notes
    }
}

/// The Markdown report: a table, the geometric means, then the notes.
enum Report {
    static func print(_ results: [FileResult], iterations: Int) {
        let spng = String(cString: spng_version_string())
        let png = String(cString: pngshim_version())
        Swift.print("PNG decode, RGBA8 output, best of \(iterations) interleaved iterations; libspng \(spng), libpng \(png).")
        Swift.print("Ratios are speed ratios (ours MP/s over theirs): above 1 means ours is faster.")
        Swift.print()
        Swift.print("| file | category | size MP | ours MP/s | libspng MP/s | libpng MP/s | ours/libspng | ours/libpng |")
        Swift.print("|---|---|---:|---:|---:|---:|---:|---:|")
        for r in results {
            let cells = [
                r.name, r.info.category, fixed(r.info.megapixels, 2),
                rate(r.megapixelsPerSecond(.ours)), rate(r.megapixelsPerSecond(.libspng)),
                rate(r.megapixelsPerSecond(.libpng)),
                times(r.ratio(over: .libspng)), times(r.ratio(over: .libpng)),
            ]
            Swift.print("| " + cells.joined(separator: " | ") + " |")
        }
        Swift.print()
        let spngRatios = results.compactMap { $0.ratio(over: .libspng) }
        let pngRatios = results.compactMap { $0.ratio(over: .libpng) }
        Swift.print("Geometric mean: ours/libspng \(times(geometricMean(spngRatios))) over \(spngRatios.count) files, "
            + "ours/libpng \(times(geometricMean(pngRatios))) over \(pngRatios.count) files.")
        Swift.print()
        let noted = results.filter { !$0.notes.isEmpty }
        if noted.isEmpty {
            Swift.print("Correctness: ours and libpng match libspng byte for byte on all \(results.count) files"
                + " (16-bit sources: against libspng RGBA16 >> 8).")
        } else {
            Swift.print("Correctness: all other files match libspng byte for byte (16-bit sources: against libspng RGBA16 >> 8).")
            for r in noted {
                for note in r.notes { Swift.print("- \(r.name): \(note)") }
            }
        }
    }

    static func geometricMean(_ values: [Double]) -> Double? {
        guard !values.isEmpty else { return nil }
        return exp(values.map { log($0) }.reduce(0, +) / Double(values.count))
    }

    static func fixed(_ value: Double, _ digits: Int) -> String { String(format: "%.\(digits)f", value) }
    static func rate(_ value: Double?) -> String { value.map { fixed($0, 1) } ?? "error" }
    static func times(_ value: Double?) -> String { value.map { fixed($0, 2) + "×" } ?? "n/a" }
}
