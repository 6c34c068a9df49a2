import CZlib
import CodecCore

/// How effort (0–9) maps to PNG settings, and the trials of efforts 4, 5, 8 and 9.
///
/// zlib level by effort: 1, 2, 3, 3, 3 or 5, 3 or 6, 6, 8, 9, 9. At efforts 4 and 5 (the
/// default) an image above 2^20 pixels takes the higher level only when it pays: a band of 2^18
/// pixels from its middle is compressed at both, and the higher level must save 2 % (on photos
/// zlib's lazy levels save well under 1 % over level 3's greedy matching at twice the time; on
/// graphics they save 5–10 %). Smaller images always take the higher level. Filters: none for
/// palettes and grey below 8 bits (§12.8), otherwise Sub at effort 0 and the minimum sum of
/// absolute differences per row above it. Efforts 8 and 9 also try other filter choices
/// (minimum entropy, none, Paeth) and, at 9, every lossless layout and both zlib strategies, on a
/// band of at most 2^20 pixels, and keep the combination that compresses smallest.
enum PNGEncodingChoices {
    /// The zlib level of `effort`; for efforts 4 and 5, the higher of the two levels tried.
    static func zlibLevel(_ effort: Int) -> Int32 { [1, 2, 3, 3, 5, 6, 6, 8, 9, 9][min(9, max(0, effort))] }

    /// Images above this many pixels try the lower level at efforts 4 and 5.
    static let levelTrialThreshold = 1 << 20

    /// The filter choice for a layout at `effort`.
    static func filter(for layout: PNGPixelLayout, effort: Int) -> PNGRowFilter.Strategy {
        if layout.colorType == .indexed || layout.bitDepth < 8 { return .fixed(0) }
        return effort == 0 ? .fixed(1) : .minimumSum
    }

    /// The default settings for `layout`.
    static func settings(_ layout: PNGPixelLayout, options: EncodingOptions) -> PNGDataSettings {
        PNGDataSettings(layout: layout, interlaced: options.interlace, filter: filter(for: layout, effort: options.effort),
                        level: zlibLevel(options.effort), zlibStrategy: Z_DEFAULT_STRATEGY)
    }

    /// The settings to write `frame` with: the first layout's defaults, or at effort 8 and 9
    /// the smallest of the trials.
    static func best(for frame: EncodingFrame, layouts: [PNGPixelLayout],
                     options: EncodingOptions) throws(EncodingError) -> PNGDataSettings {
        var first = settings(layouts[0], options: options)
        if options.effort == 4 || options.effort == 5, frame.width * frame.height > levelTrialThreshold {
            var greedy = first
            greedy.level = 3
            let band = band(of: frame, maxPixels: 1 << 18)
            if try Double(compressedSize(band, first)) > 0.98 * Double(compressedSize(band, greedy)) { first = greedy }
        }
        guard options.effort >= 8 else { return first }
        var trials: [PNGDataSettings] = []
        for layout in options.effort == 9 ? layouts : [layouts[0]] {
            for filter in [PNGRowFilter.Strategy.minimumSum, .minimumEntropy, .fixed(0), .fixed(4)] {
                for strategy in options.effort == 9 ? [Z_DEFAULT_STRATEGY, Z_FILTERED] : [Z_DEFAULT_STRATEGY] {
                    trials.append(PNGDataSettings(layout: layout, interlaced: options.interlace, filter: filter,
                                                  level: first.level, zlibStrategy: strategy))
                }
            }
        }
        let sample = band(of: frame, maxPixels: 1 << 20)
        var best = first, bestSize = Int.max
        for trial in trials {
            let size = try compressedSize(sample, trial) + trial.layout.paletteChunk.count
                + (trial.layout.transparencyChunk?.count ?? 0)
            if size < bestSize {
                best = trial
                bestSize = size
            }
        }
        return best
    }

    /// Bytes of `frame`'s zlib stream with `settings`.
    static func compressedSize(_ frame: EncodingFrame, _ settings: PNGDataSettings) throws(EncodingError) -> Int {
        let deflater = try PNGDeflater(level: settings.level, strategy: settings.zlibStrategy)
        var size = 0
        try PNGImageData(settings).compress(frame, deflater: deflater) { size += $0.count }
        return size
    }

    /// The middle rows of `frame`, at most `maxPixels` pixels (at least one row).
    static func band(of frame: EncodingFrame, maxPixels: Int) -> EncodingFrame {
        let rows = max(1, min(frame.height, maxPixels / frame.width))
        guard rows < frame.height else { return frame }
        let top = (frame.height - rows) / 2
        return (try? EncodingFrame(width: frame.width, height: rows, bytesPerPixel: frame.bytesPerPixel,
                                   duration: frame.duration) { y, buffer in frame.copyRow(top + y, into: buffer) }) ?? frame
    }
}
