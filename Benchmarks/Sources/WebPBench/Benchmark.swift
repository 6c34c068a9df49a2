import BenchSupport
import CLibWebP
import Foundation
import ImageCodecs

/// Results per file; MP/s counts total megapixels (canvas × frames for an animation).
typealias FileResult = BenchSupport.FileResult<Decoder, WebPInfo>

/// Decodes each file with both decoders, checks the outputs agree, then times them.
struct Benchmark {
    let iterations: Int

    func run(files: [URL]) -> [FileResult] {
        inputs.run(files: files) { name, bytes in
            guard let info = WebPInfo(bytes) else {
                warn("  not a WebP libwebp can read, skipped")
                return nil
            }
            var result = FileResult(name: name, info: info, megapixels: info.totalMegapixels)
            result.measure(
                iterations: iterations,
                check: { decoder in
                    let frames = FrameHashes(canvasBytes: info.width * info.height * 4)
                    let last = try decoder.decode(bytes, info: info, frames: frames)
                    return (last: last, hashes: frames.hashes)
                },
                compare: { compare($0, info: info) },
                decode: { try? $0.decode(bytes, info: info) }
            )
            if !info.isAnimated { result.stillBytes = bytes }
            for note in result.notes where note.hasPrefix("MISMATCH") || note.hasPrefix("ours failed") {
                warn("  \(note)")
            }
            return result
        }
    }

    /// Ours (both ways) and libwebp with `use_threads` against libwebp on one thread. A still
    /// byte for byte (both straight RGBA8, the colour under alpha 0 included); an animation's
    /// last canvas byte for byte in canonical form (alpha 0 as 0,0,0,0) and every frame's
    /// canonical hash.
    func compare(_ outputs: [Decoder: (last: [UInt8], hashes: [UInt64])], info: WebPInfo) -> [String] {
        let candidates: [Decoder] = [.ours, .oursOneCore, .libwebpThreads]
        guard info.isAnimated else {
            return candidates.flatMap {
                compareWithReference(outputs.mapValues(\.last), ours: $0, reference: .libwebp,
                                     width: info.width, height: info.height)
            }
        }
        guard let reference = outputs[.libwebp] else { return [] }
        return candidates.flatMap { decoder -> [String] in
            guard let ours = outputs[decoder] else { return [] }
            var notes: [String] = []
            if let issue = Comparison(canonical(ours.last), reference: canonical(reference.last), width: info.width,
                                      detail: { _ in "" }).mismatch {
                notes.append("MISMATCH last frame, \(decoder.name) vs libwebp: \(issue)")
            }
            if ours.hashes != reference.hashes {
                let differing = zip(ours.hashes, reference.hashes).enumerated().filter { $0.element.0 != $0.element.1 }
                notes.append("MISMATCH frames: \(decoder.name) \(ours.hashes.count), libwebp \(reference.hashes.count); "
                    + "\(differing.count) differ" + (differing.first.map { ", the first is frame \($0.offset)" } ?? ""))
            }
            return notes
        }
    }
}

/// The Markdown report: a one-core table (ours with `maxThreads` 1 against libwebp on one
/// thread) and a default-threads table (ours as a user gets it against libwebp without and with
/// `use_threads`), each with its geometric means, then the notes.
enum Report {
    static func print(_ results: [FileResult], iterations: Int) {
        let version = WebPGetDecoderVersion()
        Swift.print("WebP decode, RGBA8 output, best of \(iterations) interleaved iterations; libwebp "
            + "\(version >> 16).\(version >> 8 & 0xFF).\(version & 0xFF) (stills: WebPDecode, MODE_RGBA; "
            + "animations: WebPAnimDecoder, every frame composited, against ImageSource.image(at:) for every frame).")
        Swift.print("MP/s is total MP (canvas MP × frames) per second. "
            + "Ratios are speed ratios (ours MP/s over libwebp's): above 1 means ours is faster.")
        Swift.print()
        let oneCore = results.compactMap { $0.ratio(.oursOneCore, over: .libwebp) }
        Swift.print("### One core (ours with maxThreads 1, libwebp without use_threads)")
        Swift.print()
        printTable(
            columns: ["file", "kind", "frames", "total MP", "ours MP/s", "libwebp MP/s", "ours/libwebp"],
            rows: results.map { r in
                [
                    r.name, r.info.category, "\(r.info.frames)", Cell.fixed(r.info.totalMegapixels, 2),
                    Cell.rate(r.megapixelsPerSecond(.oursOneCore)), Cell.rate(r.megapixelsPerSecond(.libwebp)),
                    Cell.times(r.ratio(.oursOneCore, over: .libwebp)),
                ]
            })
        Swift.print()
        Swift.print("Geometric mean: ours/libwebp \(Cell.times(geometricMean(oneCore))) over \(oneCore.count) files.")
        Swift.print()
        let plain = results.compactMap { $0.ratio(.ours, over: .libwebp) }
        let threaded = results.compactMap { $0.ratio(.ours, over: .libwebpThreads) }
        Swift.print("### Default threads (ours with the default maxThreads, \(DecodingOptions().maxThreads) here)")
        Swift.print()
        printTable(
            columns: ["file", "kind", "frames", "total MP", "ours MP/s", "libwebp MP/s", "libwebp use_threads MP/s",
                      "ours/libwebp", "ours/libwebp use_threads"],
            rows: results.map { r in
                [
                    r.name, r.info.category, "\(r.info.frames)", Cell.fixed(r.info.totalMegapixels, 2),
                    Cell.rate(r.megapixelsPerSecond(.ours)), Cell.rate(r.megapixelsPerSecond(.libwebp)),
                    Cell.rate(r.megapixelsPerSecond(.libwebpThreads)),
                    Cell.times(r.ratio(.ours, over: .libwebp)), Cell.times(r.ratio(.ours, over: .libwebpThreads)),
                ]
            })
        Swift.print()
        Swift.print("Geometric mean: ours/libwebp \(Cell.times(geometricMean(plain))), ours/libwebp use_threads "
            + "\(Cell.times(geometricMean(threaded))) over \(threaded.count) files.")
        Swift.print()
        printNotes(results,
                   allMatch: "Correctness: ours (both ways) and libwebp with use_threads match libwebp on all "
                       + "\(results.count) files: stills byte for byte, animations' last frame byte for byte "
                       + "(canonical RGBA8) and every frame by hash.",
                   othersMatch: "Correctness: all other files match libwebp (stills byte for byte; animations' last frame "
                       + "and every frame's hash, canonical).")
    }
}
