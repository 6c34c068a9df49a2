import BenchSupport
import CGifShim
import Foundation
import ImageCodecs

/// Results per file; MP/s counts total megapixels (canvas × frames).
typealias FileResult = BenchSupport.FileResult<Decoder, GIFInfo>

/// Decodes each file with both decoders, checks the outputs agree, then times them.
struct Benchmark {
    let iterations: Int

    func run(files: [URL]) -> [FileResult] {
        inputs.run(files: files) { name, bytes in
            guard let info = GIFInfo(bytes), info.frames > 0, info.width > 0, info.height > 0 else {
                warn("  not a GIF with a non-empty screen and an image, skipped")
                return nil
            }
            var result = measure(name: name, bytes: bytes, info: info)
            if info.frames == 1 { result.stillBytes = bytes }
            for note in result.notes where note.hasPrefix("MISMATCH") { warn("  \(note)") }
            return result
        }
    }

    /// A first, untimed decode with each (also the warm-up; it hashes every frame and keeps the
    /// last for the comparison), then `iterations` rounds in which each decoder runs once, the
    /// order rotating from round to round.
    func measure(name: String, bytes: [UInt8], info: GIFInfo) -> FileResult {
        var result = FileResult(name: name, info: info, megapixels: info.totalMegapixels)
        result.measure(
            iterations: iterations,
            check: { decoder in
                let frames = FrameHashes(canvasBytes: info.canvasBytes)
                let last = canonical(try decoder.decode(bytes, info: info, frames: frames))
                return (last: last, hashes: frames.hashes)
            },
            compare: { compare($0, info: info) },
            decode: { try? $0.decode(bytes, info: info) }
        )
        return result
    }

    /// Ours against giflib: the frame counts, the final canvases byte for byte (canonical), and
    /// every frame's hash (which names the first frame that differs).
    func compare(_ outputs: [Decoder: (last: [UInt8], hashes: [UInt64])], info: GIFInfo) -> [String] {
        guard let reference = outputs[.giflib] else { return [] }
        return [Decoder.ours, .oursOneCore].flatMap { decoder in
            outputs[decoder].map { compare($0, reference, decoder, info: info) } ?? []
        }
    }

    /// One of ours (`decoder`) against giflib.
    func compare(_ ours: (last: [UInt8], hashes: [UInt64]), _ reference: (last: [UInt8], hashes: [UInt64]),
                 _ decoder: Decoder, info: GIFInfo) -> [String] {
        let oursHashes = ours.hashes, giflibHashes = reference.hashes
        var notes: [String] = []
        if oursHashes.count != info.frames || giflibHashes.count != info.frames {
            notes.append("MISMATCH frame count: \(decoder.name) \(oursHashes.count), giflib \(giflibHashes.count), "
                + "image descriptors \(info.frames)")
        }
        let comparison = Comparison(ours.last, reference: reference.last, width: info.width) { differences in
            "; ours transparent where giflib is not: \(differences.candidateTransparent), "
                + "ours opaque where giflib is transparent: \(differences.candidateOpaque), "
                + "colour only: \(differences.colourOnly)"
        }
        if let issue = comparison.mismatch {
            notes.append("MISMATCH final frame, \(decoder.name) vs giflib: \(issue)")
        }
        let differing = (0..<min(oursHashes.count, giflibHashes.count)).filter { oursHashes[$0] != giflibHashes[$0] }
        if let first = differing.first {
            notes.append("MISMATCH \(decoder.name) frames: \(differing.count) of \(min(oursHashes.count, giflibHashes.count)) differ, "
                + "the first is frame \(first)")
        }
        return notes
    }
}

/// The Markdown report: the one-core table (ours with `maxThreads` 1), the table with our
/// default `maxThreads` (giflib on one thread in both), the geometric means, then the notes.
enum Report {
    static func print(_ results: [FileResult], iterations: Int) {
        let giflib = String(cString: gifshim_version())
        let threads = DecodingOptions().maxThreads
        Swift.print("GIF decode, every frame composited to the full RGBA8 canvas, best of \(iterations) interleaved iterations; "
            + "giflib \(giflib) (DGifSlurp + a C compositor).")
        Swift.print("MP/s is total MP (canvas MP × frames) per second. "
            + "Ratios are speed ratios (ours MP/s over giflib's): above 1 means ours is faster. "
            + "CPU ms: least CPU time of one decode, all threads.")
        Swift.print()
        for (title, ours) in [("One core (ours with maxThreads = 1):", Decoder.oursOneCore),
                              ("Default threads (ours with maxThreads = \(threads); giflib on one):", .ours)] {
            let ratios = results.compactMap { $0.ratio(ours, over: .giflib) }
            Swift.print(title)
            printReport(
                intro: [],
                columns: ["file", "kind", "frames", "canvas MP", "total MP", "ours MP/s", "giflib MP/s", "ours/giflib",
                          "ours CPU ms", "giflib CPU ms"],
                rows: results.map { r in
                    [
                        r.name, r.info.category, "\(r.info.frames)", Cell.fixed(r.info.canvasMegapixels, 3),
                        Cell.fixed(r.info.totalMegapixels, 2),
                        Cell.rate(r.megapixelsPerSecond(ours)), Cell.rate(r.megapixelsPerSecond(.giflib)),
                        Cell.times(r.ratio(ours, over: .giflib)), cpu(r, ours), cpu(r, .giflib),
                    ]
                },
                summary: "Geometric mean: ours/giflib \(Cell.times(geometricMean(ratios))) over \(ratios.count) files.",
                results: ours == .ours ? results : [FileResult](),
                allMatch: "Correctness: ours (both ways) matches the giflib compositor on all \(results.count) files: "
                    + "the final frame byte for byte (canonical RGBA8), every frame by hash, and the frame count.",
                othersMatch: "Correctness: all other files match the giflib compositor (final frame byte for byte, "
                    + "every frame by hash, frame count)."
            )
        }
    }

    private static func cpu(_ r: FileResult, _ d: Decoder) -> String {
        r.bestCPUSeconds[d].map { Cell.fixed($0 * 1e3, 1) } ?? "error"
    }
}
