import BenchSupport
import CLibPNGShim
import CSpng

/// The Markdown report: speeds and sizes per file, then geometric means.
enum Report {
    static func print(_ results: [FileResult], iterations: Int, effort: Int, level: Int32) {
        let spng = String(cString: spng_version_string())
        let png = String(cString: pngshim_version())
        func means(_ ratio: (FileResult) -> Double?) -> String {
            let values = results.compactMap(ratio)
            return "\(Cell.times(geometricMean(values))) over \(values.count) files"
        }
        printReport(
            intro: [
                "PNG encode from RGBA in memory to the file in memory, best of \(iterations) interleaved iterations;"
                    + " ours at effort \(effort), libspng \(spng) and libpng \(png) at zlib level \(level), their default filters;"
                    + " zlib deflate = compress2 of the raw rows at level \(level).",
                "Speed ratios: ours MP/s over theirs (above 1: ours is faster). Size ratios: our bytes over theirs (below 1: ours is smaller).",
            ],
            columns: ["file", "category", "size MP", "ours MP/s", "libspng MP/s", "libpng MP/s", "zlib MP/s",
                      "ours/libspng", "ours/libpng", "ours/zlib", "ours bytes", "size/libspng", "size/libpng"],
            rows: results.map { r in
                [
                    r.name, r.info.category, Cell.fixed(r.megapixels, 2),
                    Cell.rate(r.megapixelsPerSecond(.ours)), Cell.rate(r.megapixelsPerSecond(.libspng)),
                    Cell.rate(r.megapixelsPerSecond(.libpng)), Cell.rate(r.megapixelsPerSecond(.zlib)),
                    Cell.times(r.ratio(over: .libspng)), Cell.times(r.ratio(over: .libpng)), Cell.times(r.ratio(over: .zlib)),
                    r.info.sizes[.ours].map(String.init) ?? "error",
                    Cell.times(r.info.sizeRatio(over: .libspng)), Cell.times(r.info.sizeRatio(over: .libpng)),
                ]
            },
            summary: "Geometric means: speed ours/libspng \(means { $0.ratio(over: .libspng) }), ours/libpng "
                + "\(means { $0.ratio(over: .libpng) }), ours/zlib deflate \(means { $0.ratio(over: .zlib) }); size "
                + "ours/libspng \(means { $0.info.sizeRatio(over: .libspng) }), ours/libpng \(means { $0.info.sizeRatio(over: .libpng) }).",
            results: results,
            allMatch: "Correctness: libspng reads every file we wrote back to the source's pixels (\(results.count) files).",
            othersMatch: "Correctness: libspng reads every other file we wrote back to the source's pixels."
        )
    }
}
