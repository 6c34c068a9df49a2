#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The segments of a frame (RFC 6386 9.3, 10): up to four groups of macroblocks, each with its
/// own quantizer index and loop filter level, and the map giving each macroblock its segment;
/// and the frame's quantizer deltas (9.6).
///
/// Quality → quantizer index as libwebp maps it: quality `c` (0…1) is made roughly linear in
/// the file size (`linear` = `2c/3` below 0.75, `2c − 1` above) and the index is
/// `127 · (1 − linear^e)` with `e = 1/3` (q 50 → 39, 75 → 26, 90 → 9).
///
/// With spatial noise shaping (cwebp's `-sns`, `noiseShaping` 0…1 here) the macroblocks'
/// susceptibilities (``VP8SegmentAnalysis``) are clustered by k-means on their histogram
/// (centres spread evenly over the range present, then moved to their clusters' means, at most
/// 6 rounds, as libwebp's analysis does), and each segment's exponent becomes
/// `(1 − 0.9 · sns · a/128) / 3`, `a` the centre's offset from the mean susceptibility scaled
/// to ±127: smooth macroblocks get finer quantization, textured ones, where texture masks the
/// error, coarser. The loop filter level (RFC 6386 9.4, 15) is 3/8 of the segment's AC factor
/// (at most 63) times `256 / (256 + b)`, `b` the centre's place 0…255 between the most textured
/// and the smoothest centre: smooth segments, finely quantized, are filtered less (libwebp's
/// filter strength does the same around a quarter of the AC factor; 3/8 measured better here).
/// Segments that end up with equal settings are merged.
///
/// The chroma quantizers are finer than the frame's index by 5 (DC) and 3 (AC) steps: swept on
/// the 24 Kodak photos against cwebp's curve (PSNR on RGB), see SPEC-NOTES.md.
struct VP8SegmentPlan {
    /// The segment of every macroblock (raster order).
    var map: [UInt8]
    /// Quantizer index and filter level per segment; one entry when the frame is not segmented.
    var quantizerIndices: [Int]
    var filterLevels: [Int]
    /// The frame's quantizer deltas (y1 dc, y2 dc, y2 ac, uv dc, uv ac; RFC 6386 9.6).
    let deltas = [0, 0, 0, -5, -3]

    var isSegmented: Bool { quantizerIndices.count > 1 }

    /// One segment for the whole frame.
    init(quality: Double, macroblocks: Int) {
        let q = Self.quantizerIndex(quality: quality, noiseShaping: 0, offset: 0)
        map = [UInt8](repeating: 0, count: macroblocks)
        quantizerIndices = [q]
        filterLevels = [Self.filterLevel(quantizerIndex: q, place: 0)]
    }

    /// Up to `count` segments from the macroblocks' `susceptibilities`.
    init(quality: Double, noiseShaping: Double, susceptibilities: [UInt8], count: Int) {
        var histogram = [Int](repeating: 0, count: 256)
        for a in susceptibilities { histogram[Int(a)] += 1 }
        let (centers, assignment, mean) = Self.cluster(histogram, count: count)
        // Centres left without macroblocks get no segment.
        var used = [Bool](repeating: false, count: centers.count)
        for a in 0..<256 where histogram[a] > 0 { used[Int(assignment[a])] = true }
        let present = centers.indices.filter { used[$0] }.map { centers[$0] }
        let low = present.min()!, high = max(present.max()!, low + 1)
        var quantizers: [Int] = [], levels: [Int] = []
        var merged = [Int](repeating: 0, count: centers.count)
        for (n, center) in centers.enumerated() where used[n] {
            let offset = min(127, max(-127, 255 * (center - mean) / (high - low)))
            let place = min(255, max(0, 255 * (center - low) / (high - low)))
            let q = Self.quantizerIndex(quality: quality, noiseShaping: noiseShaping, offset: offset)
            let level = Self.filterLevel(quantizerIndex: q, place: place)
            if let same = quantizers.indices.first(where: { quantizers[$0] == q && levels[$0] == level }) {
                merged[n] = same
            } else {
                merged[n] = quantizers.count
                quantizers.append(q)
                levels.append(level)
            }
        }
        map = susceptibilities.map { UInt8(merged[Int(assignment[Int($0)])]) }
        quantizerIndices = quantizers
        filterLevels = levels
    }

    /// k-means on a histogram of values 0…255: the centres, the centre index of every value,
    /// and the mean of the centres weighted by their clusters' sizes.
    static func cluster(_ histogram: [Int], count: Int) -> (centers: [Int], assignment: [UInt8], mean: Int) {
        guard let low = histogram.firstIndex(where: { $0 > 0 }),
              let high = histogram.lastIndex(where: { $0 > 0 }) else {
            return ([0], [UInt8](repeating: 0, count: 256), 0)
        }
        var centers = (0..<count).map { low + (2 * $0 + 1) * (high - low) / (2 * count) }
        var assignment = [UInt8](repeating: 0, count: 256)
        var mean = low
        for _ in 0..<6 {
            var sums = [Int](repeating: 0, count: count), sizes = sums
            var n = 0
            for a in low...high where histogram[a] > 0 {
                while n + 1 < count && abs(a - centers[n + 1]) < abs(a - centers[n]) { n += 1 }
                assignment[a] = UInt8(n)
                sums[n] += a * histogram[a]
                sizes[n] += histogram[a]
            }
            var moved = 0, weighted = 0, total = 0
            for k in 0..<count where sizes[k] > 0 {
                let center = (sums[k] + sizes[k] / 2) / sizes[k]
                moved += abs(center - centers[k])
                centers[k] = center
                weighted += center * sizes[k]
                total += sizes[k]
            }
            mean = (weighted + total / 2) / total
            if moved < 5 { break }
        }
        return (centers, assignment, mean)
    }

    /// The quantizer index for `quality` (0…1) shaped by a segment's susceptibility `offset`
    /// (−127…127) at strength `noiseShaping` (0…1).
    static func quantizerIndex(quality: Double, noiseShaping: Double, offset: Int) -> Int {
        let c = min(max(quality, 0), 1)
        let linear = c < 0.75 ? c * 2 / 3 : 2 * c - 1
        let exponent = (1 - 0.9 * noiseShaping * Double(offset) / 128) / 3
        let root = linear > 0 ? pow(linear, exponent) : 0
        return min(127, max(0, Int(127 * (1 - root))))
    }

    /// The loop filter level for quantizer index `q` and a segment's place 0…255 (0 for the
    /// most textured).
    static func filterLevel(quantizerIndex q: Int, place: Int) -> Int {
        min(63, Int(VP8Tables.acQuantizer[min(max(q, 0), 127)]) * 96 / (256 + place))
    }
}
