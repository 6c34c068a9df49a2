import CGifShim
import Foundation

/// One file's results: best seconds per decoder (nil when that decoder failed) and notes.
struct FileResult {
    let name: String
    let info: GIFInfo
    var bestSeconds: [Decoder: Double] = [:]
    var notes: [String] = []

    /// Total megapixels (canvas × frames) per second.
    func megapixelsPerSecond(_ decoder: Decoder) -> Double? {
        bestSeconds[decoder].map { info.totalMegapixels / $0 }
    }

    /// Speed of ours over giflib: above 1 means ours is faster.
    var ratio: Double? {
        guard let ours = megapixelsPerSecond(.ours), let other = megapixelsPerSecond(.giflib) else { return nil }
        return ours / other
    }
}

/// Decodes each file with both decoders, checks the outputs agree, then times them.
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
            guard let info = GIFInfo(bytes), info.frames > 0, info.width > 0, info.height > 0 else {
                warn("  not a GIF with a non-empty screen and an image, skipped")
                continue
            }
            let result = measure(name: name, bytes: bytes, info: info)
            for note in result.notes where note.hasPrefix("MISMATCH") { warn("  \(note)") }
            results.append(result)
        }
        return results
    }

    /// A first, untimed decode with each (also the warm-up; it hashes every frame and keeps the
    /// last for the comparison), then `iterations` rounds in which each decoder runs once, the
    /// order rotating from round to round.
    func measure(name: String, bytes: [UInt8], info: GIFInfo) -> FileResult {
        var result = FileResult(name: name, info: info)
        var outputs: [Decoder: [UInt8]] = [:]
        var hashes: [Decoder: [UInt64]] = [:]
        for decoder in Decoder.allCases {
            let frames = FrameHashes(canvasBytes: info.canvasBytes)
            do {
                outputs[decoder] = canonical(try decoder.decode(bytes, info: info, frames: frames))
                hashes[decoder] = frames.hashes
            } catch {
                result.notes.append("\(decoder.name) failed: \(error)")
            }
        }
        result.notes += compare(outputs, hashes, info: info)
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

    /// Ours against giflib: the frame counts, the final canvases byte for byte (canonical), and
    /// every frame's hash (which names the first frame that differs).
    func compare(_ outputs: [Decoder: [UInt8]], _ hashes: [Decoder: [UInt64]], info: GIFInfo) -> [String] {
        guard let ours = outputs[.ours], let reference = outputs[.giflib],
              let oursHashes = hashes[.ours], let giflibHashes = hashes[.giflib] else { return [] }
        var notes: [String] = []
        if oursHashes.count != info.frames || giflibHashes.count != info.frames {
            notes.append("MISMATCH frame count: ours \(oursHashes.count), giflib \(giflibHashes.count), "
                + "image descriptors \(info.frames)")
        }
        if let issue = Comparison(ours, reference: reference, width: info.width).mismatch {
            notes.append("MISMATCH final frame, ours vs giflib: \(issue)")
        }
        let differing = (0..<min(oursHashes.count, giflibHashes.count)).filter { oursHashes[$0] != giflibHashes[$0] }
        if let first = differing.first {
            notes.append("MISMATCH frames: \(differing.count) of \(min(oursHashes.count, giflibHashes.count)) differ, "
                + "the first is frame \(first)")
        }
        return notes
    }
}

/// The Markdown report: a table, the geometric mean, then the notes.
enum Report {
    static func print(_ results: [FileResult], iterations: Int) {
        let giflib = String(cString: gifshim_version())
        Swift.print("GIF decode, every frame composited to the full RGBA8 canvas, best of \(iterations) interleaved iterations; "
            + "giflib \(giflib) (DGifSlurp + a C compositor).")
        Swift.print("MP/s is total MP (canvas MP × frames) per second. "
            + "Ratios are speed ratios (ours MP/s over giflib's): above 1 means ours is faster.")
        Swift.print()
        Swift.print("| file | kind | frames | canvas MP | total MP | ours MP/s | giflib MP/s | ours/giflib |")
        Swift.print("|---|---|---:|---:|---:|---:|---:|---:|")
        for r in results {
            let cells = [
                r.name, r.info.category, "\(r.info.frames)", fixed(r.info.canvasMegapixels, 3),
                fixed(r.info.totalMegapixels, 2),
                rate(r.megapixelsPerSecond(.ours)), rate(r.megapixelsPerSecond(.giflib)), times(r.ratio),
            ]
            Swift.print("| " + cells.joined(separator: " | ") + " |")
        }
        Swift.print()
        let ratios = results.compactMap(\.ratio)
        Swift.print("Geometric mean: ours/giflib \(times(geometricMean(ratios))) over \(ratios.count) files.")
        Swift.print()
        let noted = results.filter { !$0.notes.isEmpty }
        if noted.isEmpty {
            Swift.print("Correctness: ours matches the giflib compositor on all \(results.count) files: the final frame "
                + "byte for byte (canonical RGBA8), every frame by hash, and the frame count.")
        } else {
            Swift.print("Correctness: all other files match the giflib compositor (final frame byte for byte, "
                + "every frame by hash, frame count).")
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
