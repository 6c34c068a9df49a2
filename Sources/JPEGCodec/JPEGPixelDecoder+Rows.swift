import CodecCore

extension JPEGPixelDecoder {
    /// Sequential single scan: each MCU row is decoded, reconstructed, and its predecessor's
    /// pixels written (fancy upsampling needs the row below). With more than one thread a whole
    /// scan whose restart intervals have all arrived is decoded in bands at once
    /// (``decodeIntervalBands(_:_:_:)``); otherwise the rows go through a ``JPEGRowPipeline``:
    /// entropy decoding here, the rest on a pool thread. While the scan's data is still
    /// arriving, the pipeline starts only once a second row completes in the call (a download
    /// fed in small pieces completes a row now and then, which a thread hand-off would only
    /// slow). The row being decoded when the input runs out is kept for the next call.
    func decodeRows(_ decoder: inout JPEGScanDecoder, _ scan: JPEGScan, _ input: InputBuffer) {
        if rowsReconstructed == 0, decoder.nextMCU == 0, let finished = decodeIntervalBands(decoder, scan, input) {
            decoder = finished
            return
        }
        guard let transform = writer.renderer?.transform else { return }
        // A one-component scan's MCU is one block: a frame MCU row is `v` rows of them.
        let scanRows = frame.components.count == 1 ? frame.components[0].v : 1
        var job = JPEGRowJob(coefficients: coefficients.take(), samples: rowSamples ?? transform.makeRows())
        rowSamples = nil
        var pipeline: JPEGRowPipeline?
        var pipelineTried = false, rowsDone = 0
        let dataAtHand = input.isFinal || scan.dataEnd != nil
        while rowsReconstructed < frame.mcuRows {
            let m = rowsReconstructed
            let first = min(m * scanRows * decoder.mcusPerLine, decoder.mcuCount)
            let end = min((m + 1) * scanRows * decoder.mcusPerLine, decoder.mcuCount)
            if decoder.nextMCU == first { job.coefficients.clear() }
            _ = decoder.decode(input, into: &job.coefficients, until: end)
            guard decoder.nextMCU == end else { break }
            job.mcuRow = m
            rowsReconstructed += 1
            rowsDone += 1
            if !pipelineTried && (dataAtHand || rowsDone > 1) && rowsReconstructed < frame.mcuRows {
                pipelineTried = true
                pipeline = JPEGRowPipeline(writer: writer, maxThreads: maxThreads)
            }
            if let pipeline { pipeline.handOver(&job) } else { writer.take(&job) }
        }
        pipeline?.finish()
        coefficients = job.coefficients
        rowSamples = job.samples
    }

    /// With two or more threads, a sequential scan with restart intervals (T.81 B.2.4.4) whose
    /// data has all arrived, written to an image: the scan is split into bands of MCU rows,
    /// decoded and written at once, each band's entropy decoding starting at the interval that
    /// holds the MCU row above it (``JPEGRestartIntervals``). A band also decodes the MCU rows
    /// just above and below it, which fancy upsampling reads, and the start of the interval it
    /// begins in; so the bands are at least twice an interval. Returns the decoder as it ends
    /// the scan, or nil (nothing done) when the file or the request does not allow it: a
    /// thumbnail, a single thread, intervals too long, or markers that are not RST0, RST1, …
    /// in order, which libjpeg's resynchronisation would treat otherwise.
    private func decodeIntervalBands(_ decoder: JPEGScanDecoder, _ scan: JPEGScan, _ input: InputBuffer) -> JPEGScanDecoder? {
        let scanRows = frame.components.count == 1 ? frame.components[0].v : 1
        let mcusPerRow = scanRows * decoder.mcusPerLine, interval = decoder.restartInterval
        guard maxThreads > 1, interval > 0, let dataEnd = scan.dataEnd, !writer.sink.isThumbnail,
              let renderer = writer.renderer, let plan = JPEGBandPlan(mcuRows: frame.mcuRows, maxThreads: maxThreads),
              interval * 2 <= plan.rowsPerBand * mcusPerRow else { return nil }
        let intervals = (decoder.mcuCount + interval - 1) / interval
        guard let starts = JPEGRestartIntervals.starts(in: input, from: scan.dataStart, to: dataEnd, count: intervals) else {
            return nil
        }
        let frame = frame, last = Locked<JPEGScanDecoder?>(nil), failed = Locked(false)
        _ = writer.sink.withImagePixels { pixels in
            WorkerPool.shared.concurrentForEach(count: plan.count, maxThreads: maxThreads) { band in
                var bandDecoder = decoder, bandRenderer = renderer.replica()
                var rowCoefficients = JPEGCoefficients(frame: frame, mcuRowOnly: true)
                let done = bandRenderer.renderBand(plan.rows(band), into: pixels) { m, r in
                    let first = min(m * mcusPerRow, bandDecoder.mcuCount), end = min(first + mcusPerRow, bandDecoder.mcuCount)
                    if bandDecoder.nextMCU != first {
                        let k = first / interval
                        bandDecoder.seek(toInterval: k, at: starts[k])
                        _ = bandDecoder.decode(input, into: &rowCoefficients, until: first)
                    }
                    rowCoefficients.clear()
                    _ = bandDecoder.decode(input, into: &rowCoefficients, until: end)
                    guard bandDecoder.nextMCU == end else { return false }
                    r.reconstruct(mcuRow: m, from: rowCoefficients)
                    return true
                }
                if !done { failed.withLock { $0 = true } }
                if plan.rows(band).upperBound == frame.mcuRows { last.withLock { $0 = bandDecoder } }
            }
        }
        guard !failed.withLock({ $0 }), let ended = last.withLock({ $0 }) else { return nil }
        rowsReconstructed = frame.mcuRows
        writer.countWritten(frame.mcuRows)
        writer.sink.markFinal(rows: geometry.height)
        return ended
    }
}
