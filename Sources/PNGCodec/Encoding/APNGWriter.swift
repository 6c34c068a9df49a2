import CodecCore

/// Writes an APNG (APNG 1.0): one layout for every frame, acTL with the frame count and
/// `num_plays` (the loop count), then per frame an fcTL and its data, the first frame in IDAT
/// as the default image, the others in fdAT, each cropped by ``APNGFramePlanner`` and
/// compressed with the filter choice that makes it smallest.
struct APNGWriter {
    let options: EncodingOptions
    let canvas: EncodingCanvas

    func write(_ frames: [EncodingFrame], to sink: inout some ByteSink) throws(EncodingError) {
        var analysis = PNGColorAnalysis()
        for frame in frames { analysis.add(frame) }
        let key = analysis.allowsColorKey ? analysis.transparentColor : nil
        let keyIsFree = key.map { k in !frames.contains { PNGColorAnalysis.keyAppearsOpaque(k, in: $0) } } ?? false
        var layout = PNGReduction.candidates(analysis, keyIsFree: keyIsFree)[0]
        if layout.colorType == .indexed, !layout.hasTransparentValue, layout.palette.count < 256 {
            layout.palette.insert(0, at: 0)
            layout.bitDepth = PNGReduction.paletteDepth(layout.palette.count)
        }
        let settings = PNGEncodingChoices.settings(layout, options: options)
        try PNGHeaderChunks.write(layout, canvas: canvas, interlaced: settings.interlaced,
                                  animation: (frames.count, canvas.loopCount), to: &sink)
        let bytesPerPixel = layout.bitDepth == 16 ? 8 : 4
        var planner = APNGFramePlanner(width: canvas.width, height: canvas.height, bytesPerPixel: bytesPerPixel,
                                       transparentPixel: Self.transparentPixel(layout))
        // zlib's default memory level, as apngasm: its smaller deflate blocks suit frames better.
        let deflater = try PNGDeflater(level: settings.level, strategy: settings.zlibStrategy, memoryLevel: 8)
        let final = options.effort >= 5 && settings.level < 9
            ? try PNGDeflater(level: 9, strategy: settings.zlibStrategy, memoryLevel: 8) : nil
        var pending: APNGFramePlan?
        var sequence: UInt32 = 0
        for frame in frames {
            let raster = Self.raster(frame, bytesPerPixel: bytesPerPixel)
            let candidates = planner.candidates(raster, duration: frame.duration)
            var chosen = candidates[0]
            if candidates.count > 1 {
                var best = Int.max
                var sizes: [(pixels: Raster, size: Int)] = []
                for candidate in candidates {
                    let size = try trialSize(candidate.plan, settings: settings, deflater: deflater, known: &sizes)
                    if size < best { (best, chosen) = (size, candidate) }
                }
            }
            planner.commit(chosen, frame: raster)
            if var previous = pending {
                previous.disposal = chosen.disposal
                try writeFrame(previous, settings: settings, deflaters: (deflater, final), sequence: &sequence, to: &sink)
            }
            pending = chosen.plan
        }
        if let last = pending {
            try writeFrame(last, settings: settings, deflaters: (deflater, final), sequence: &sequence, to: &sink)
        }
    }

    /// An fcTL, then the frame's data: IDAT for the first frame (sequence 0), fdAT after it.
    /// A frame planned with OVER is also compressed as SOURCE with its plain pixels (apngasm
    /// tries both too), and the smaller is written. The trials run on `deflaters.trial`; with
    /// `deflaters.final` (level 9, from effort 5) the winner is compressed again and the smaller
    /// stream kept.
    private func writeFrame(_ plan: APNGFramePlan, settings: PNGDataSettings,
                            deflaters: (trial: PNGDeflater, final: PNGDeflater?),
                            sequence: inout UInt32, to sink: inout some ByteSink) throws(EncodingError) {
        let first = sequence == 0
        var blend = plan.blend
        var pixels = plan.pixels
        var (stream, filter) = try smallestStream(EncodingFrame(raster: pixels, duration: plan.duration),
                                                  settings: settings, deflater: deflaters.trial)
        if let plain = plan.sourcePixels {
            let alternative = try smallestStream(EncodingFrame(raster: plain, duration: plan.duration),
                                                 settings: settings, deflater: deflaters.trial)
            if alternative.stream.count < stream.count {
                (stream, filter) = alternative
                blend = .source
                pixels = plain
            }
        }
        if let final = deflaters.final {
            var chosen = settings
            chosen.filter = filter
            final.reset()
            var again: [UInt8] = []
            try PNGImageData(chosen).compress(EncodingFrame(raster: pixels, duration: plan.duration),
                                              deflater: final) { again.append(contentsOf: $0) }
            if again.count < stream.count { stream = again }
        }
        var data = [UInt8]()
        for v in [sequence, UInt32(plan.rect.width), UInt32(plan.rect.height), UInt32(plan.rect.x), UInt32(plan.rect.y)] {
            PNGChunkWriter.appendBigEndian(v, to: &data)
        }
        let delay = Self.delay(plan.duration)
        data += [UInt8(delay.numerator >> 8), UInt8(delay.numerator & 0xFF),
                 UInt8(delay.denominator >> 8), UInt8(delay.denominator & 0xFF)]
        data.append(plan.disposal == .none ? 0 : plan.disposal == .background ? 1 : 2)
        data.append(blend == .source ? 0 : 1)
        try PNGChunkWriter.write(.fcTL, data, to: &sink)
        sequence &+= 1
        var offset = 0
        repeat {
            let end = min(stream.count, offset + PNGDeflater.blockSize)
            let result = stream.withUnsafeBytes { raw in
                Result { () throws(EncodingError) in
                    let block = UnsafeRawBufferPointer(rebasing: raw[offset..<end])
                    if first {
                        try PNGChunkWriter.write(.IDAT, block, to: &sink)
                    } else {
                        try PNGChunkWriter.write(.fdAT, prefix: sequence, block, to: &sink)
                        sequence &+= 1
                    }
                }
            }
            try result.get()
            offset = end
        } while offset < stream.count
    }

    /// The compressed size of a candidate plan with the default filter choice, the smaller of
    /// its two blends when it has both: how the dispose_op of the frame before it is chosen
    /// (apngasm likewise keeps the dispose_op whose next frame compresses smallest).
    private func trialSize(_ plan: APNGFramePlan, settings: PNGDataSettings, deflater: PNGDeflater,
                           known: inout [(pixels: Raster, size: Int)]) throws(EncodingError) -> Int {
        var best = Int.max
        for pixels in [plan.pixels] + (plan.sourcePixels.map { [$0] } ?? []) {
            // Candidates often share a rectangle's pixels (NONE and BACKGROUND over a full frame).
            if let size = known.first(where: { $0.pixels == pixels })?.size {
                best = min(best, size)
                continue
            }
            deflater.reset()
            var size = 0
            try PNGImageData(settings).compress(EncodingFrame(raster: pixels, duration: plan.duration),
                                                deflater: deflater) { size += $0.count }
            known.append((pixels, size))
            best = min(best, size)
        }
        return best
    }

    /// The frame's zlib stream and its filter choice; from effort 5, the smallest of the filter choices
    /// ``filterTrials(_:effort:)`` gives (apngasm likewise tries filters per frame). Frames are
    /// the changed rectangles, so holding one compressed frame is cheap.
    private func smallestStream(_ frame: EncodingFrame, settings: PNGDataSettings, deflater: PNGDeflater)
        throws(EncodingError) -> (stream: [UInt8], filter: PNGRowFilter.Strategy) {
        var best: [UInt8] = []
        var bestFilter = settings.filter
        for (i, filter) in Self.filterTrials(settings.filter, effort: options.effort).enumerated() {
            var trial = settings
            trial.filter = filter
            deflater.reset()
            var stream: [UInt8] = []
            try PNGImageData(trial).compress(frame, deflater: deflater) { stream.append(contentsOf: $0) }
            if i == 0 || stream.count < best.count { (best, bestFilter) = (stream, filter) }
        }
        return (best, bestFilter)
    }

    /// The default filter choice, and from effort 5 also each fixed filter type and minimum entropy.
    static func filterTrials(_ preferred: PNGRowFilter.Strategy, effort: Int) -> [PNGRowFilter.Strategy] {
        guard effort >= 5 else { return [preferred] }
        var list = [preferred]
        for f in [PNGRowFilter.Strategy.minimumSum, .fixed(0), .fixed(1), .fixed(2), .fixed(4), .minimumEntropy]
        where !list.contains(f) {
            list.append(f)
        }
        return list
    }

    /// A frame's pixels at the layout's sample size (8-bit frames widened, 16-bit narrowed).
    static func raster(_ frame: EncodingFrame, bytesPerPixel: Int) -> Raster {
        let raster = frame.raster()
        guard raster.bytesPerPixel != bytesPerPixel else { return raster }
        let count = frame.width * frame.height
        if bytesPerPixel == 4 {
            return Raster(width: frame.width, height: frame.height, bytesPerPixel: 4,
                          pixels: PixelConversion.narrowRGBA16(raster.pixels))
        }
        var wide = [UInt8](repeating: 0, count: count * 8)
        raster.pixels.withUnsafeBytes { p in
            wide.withUnsafeMutableBytes { w in
                PNGRowPacker.widen(p.bindMemory(to: UInt32.self).baseAddress!,
                                   into: w.bindMemory(to: UInt16.self).baseAddress!, count: count)
            }
        }
        return Raster(width: frame.width, height: frame.height, bytesPerPixel: 8, pixels: wide)
    }

    /// The RGBA value (in the planner's sample size) the layout stores as fully transparent.
    static func transparentPixel(_ layout: PNGPixelLayout) -> [UInt8]? {
        guard layout.hasTransparentValue else { return nil }
        switch layout.colorType {
        case .greyscaleAlpha, .truecolorAlpha:
            return [UInt8](repeating: 0, count: layout.bitDepth == 16 ? 8 : 4)
        case .indexed:
            guard let entry = layout.palette.first(where: { $0 >> 24 == 0 }) else { return nil }
            return [UInt8(truncatingIfNeeded: entry), UInt8(truncatingIfNeeded: entry >> 8),
                    UInt8(truncatingIfNeeded: entry >> 16), 0]
        case .greyscale, .truecolor:
            guard let key = layout.transparentKey else { return nil }
            let rgb = key.count == 1 ? [key[0], key[0], key[0]] : key
            let step = layout.bitDepth == 16 ? 1 : 255 / ((1 << layout.bitDepth) - 1)
            if layout.bitDepth == 16 {
                var out = [UInt8]()
                for v in rgb + [0] { withUnsafeBytes(of: UInt16(v)) { out += $0 } }
                return out
            }
            return rgb.map { UInt8($0 * step) } + [0]
        }
    }

    /// delay_num / delay_den for a duration (APNG 1.0 "fcTL"): hundredths when exact, else
    /// thousandths when they fit in 16 bits, else hundredths rounded, at most 65535.
    static func delay(_ duration: Duration) -> (numerator: Int, denominator: Int) {
        let (seconds, attoseconds) = duration.components
        guard seconds >= 0, attoseconds >= 0 else { return (0, 100) }
        let milliseconds = seconds > Int64(Int32.max) ? Int64(Int32.max)
            : seconds * 1000 + (attoseconds + 500_000_000_000_000) / 1_000_000_000_000_000
        if milliseconds % 10 == 0, milliseconds / 10 <= 65535 { return (Int(milliseconds / 10), 100) }
        if milliseconds <= 65535 { return (Int(milliseconds), 1000) }
        return (Int(min(65535, (milliseconds + 5) / 10)), 100)
    }
}
