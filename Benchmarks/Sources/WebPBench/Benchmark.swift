import BenchSupport
import CLibWebP
import Foundation

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
            for note in result.notes where note.hasPrefix("MISMATCH") || note.hasPrefix("ours failed") {
                warn("  \(note)")
            }
            return result
        }
    }

    /// Ours against libwebp. A still byte for byte (both straight RGBA8, the colour under alpha
    /// 0 included); an animation's last canvas byte for byte in canonical form (alpha 0 as
    /// 0,0,0,0) and every frame's canonical hash.
    func compare(_ outputs: [Decoder: (last: [UInt8], hashes: [UInt64])], info: WebPInfo) -> [String] {
        guard info.isAnimated else {
            return compareWithReference(outputs.mapValues(\.last), ours: .ours, reference: .libwebp,
                                        width: info.width, height: info.height)
        }
        guard let ours = outputs[.ours], let reference = outputs[.libwebp] else { return [] }
        var notes: [String] = []
        if let issue = Comparison(canonical(ours.last), reference: canonical(reference.last), width: info.width,
                                  detail: { _ in "" }).mismatch {
            notes.append("MISMATCH last frame, ours vs libwebp: \(issue)")
        }
        if ours.hashes != reference.hashes {
            let differing = zip(ours.hashes, reference.hashes).enumerated().filter { $0.element.0 != $0.element.1 }
            notes.append("MISMATCH frames: ours \(ours.hashes.count), libwebp \(reference.hashes.count); "
                + "\(differing.count) differ" + (differing.first.map { ", the first is frame \($0.offset)" } ?? ""))
        }
        return notes
    }
}

/// The Markdown report: a table, the geometric mean, then the notes.
enum Report {
    static func print(_ results: [FileResult], iterations: Int) {
        let version = WebPGetDecoderVersion()
        let ratios = results.compactMap { $0.ratio(over: .libwebp) }
        printReport(
            intro: [
                "WebP decode, RGBA8 output, best of \(iterations) interleaved iterations; libwebp "
                    + "\(version >> 16).\(version >> 8 & 0xFF).\(version & 0xFF) (stills: WebPDecodeRGBAInto; "
                    + "animations: WebPAnimDecoder, every frame composited, against ImageSource.image(at:) for every frame).",
                "MP/s is total MP (canvas MP × frames) per second. "
                    + "Ratios are speed ratios (ours MP/s over libwebp's): above 1 means ours is faster.",
            ],
            columns: ["file", "kind", "frames", "total MP", "ours MP/s", "libwebp MP/s", "ours/libwebp"],
            rows: results.map { r in
                [
                    r.name, r.info.category, "\(r.info.frames)", Cell.fixed(r.info.totalMegapixels, 2),
                    Cell.rate(r.megapixelsPerSecond(.ours)), Cell.rate(r.megapixelsPerSecond(.libwebp)),
                    Cell.times(r.ratio(over: .libwebp)),
                ]
            },
            summary: "Geometric mean: ours/libwebp \(Cell.times(geometricMean(ratios))) over \(ratios.count) files.",
            results: results,
            allMatch: "Correctness: ours matches libwebp on all \(results.count) files: stills byte for byte, "
                + "animations' last frame byte for byte (canonical RGBA8) and every frame by hash.",
            othersMatch: "Correctness: all other files match libwebp (stills byte for byte; animations' last frame "
                + "and every frame's hash, canonical)."
        )
    }
}
