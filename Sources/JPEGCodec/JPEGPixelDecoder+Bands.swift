import CodecCore

/// Bands of MCU rows written at once on several threads: about two per thread (so that a
/// thread slowed by others' work leaves its second band to a faster one), each at least
/// ``minimumRows`` MCU rows (a band also reconstructs the row above and below it).
struct JPEGBandPlan {
    static let minimumRows = 4
    let count: Int
    let rowsPerBand: Int
    let mcuRows: Int

    /// nil when `maxThreads` is 1 or the image has too few MCU rows for two bands.
    init?(mcuRows: Int, maxThreads: Int) {
        let count = min(maxThreads * 2, mcuRows / Self.minimumRows)
        guard maxThreads > 1, count >= 2 else { return nil }
        rowsPerBand = (mcuRows + count - 1) / count
        self.count = (mcuRows + rowsPerBand - 1) / rowsPerBand
        self.mcuRows = mcuRows
    }

    /// The MCU rows of band `i`.
    func rows(_ i: Int) -> Range<Int> {
        min(i * rowsPerBand, mcuRows)..<min((i + 1) * rowsPerBand, mcuRows)
    }
}

extension JPEGRenderer {
    /// Writes the output rows of MCU rows `band` into the image at `pixels` (rows of
    /// `geometry.width` RGBA8 pixels from the top): MCU row m's rows are written once row m + 1
    /// is reconstructed, so the rows just above and below the band are reconstructed too
    /// (fancy upsampling reads them). `reconstruct(m, &renderer)` gives the renderer MCU row m;
    /// false stops the band there, and so does this function's result.
    mutating func renderBand(_ band: Range<Int>, into pixels: UnsafeMutablePointer<UInt8>,
                             reconstruct: (Int, inout JPEGRenderer) -> Bool) -> Bool {
        let mcuRows = frame.mcuRows
        let from = max(band.lowerBound - 1, 0), to = min(band.upperBound + 1, mcuRows)
        for m in from..<to {
            guard reconstruct(m, &self) else { return false }
            if band.contains(m - 1) { emit(mcuRow: m - 1, into: pixels) }
        }
        if to == mcuRows && band.contains(mcuRows - 1) { emit(mcuRow: mcuRows - 1, into: pixels) }
        return true
    }
}

extension JPEGPixelDecoder {
    /// Buffered files written to an image with more than one thread: the image reconstructed
    /// from the coefficients in bands at once (``JPEGBandPlan``). False (nothing done) for a
    /// thumbnail, whose resampler takes rows in order, or a single thread.
    func renderBands(_ smoothing: JPEGBlockSmoothing?, final: Bool) -> Bool {
        guard !writer.sink.isThumbnail, let renderer = writer.renderer,
              let plan = JPEGBandPlan(mcuRows: frame.mcuRows, maxThreads: maxThreads) else { return false }
        let coefficients = coefficients
        _ = writer.sink.withImagePixels { pixels in
            WorkerPool.shared.concurrentForEach(count: plan.count, maxThreads: maxThreads) { band in
                var bandRenderer = renderer.replica()
                _ = bandRenderer.renderBand(plan.rows(band), into: pixels) { m, r in
                    r.reconstruct(mcuRow: m, from: coefficients, smoothing: smoothing)
                    return true
                }
            }
        }
        writer.countWritten(frame.mcuRows)
        if final { writer.sink.markFinal(rows: geometry.height) }
        return true
    }
}
