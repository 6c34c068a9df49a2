import CodecCore

/// Decodes one compressed image stream (the IDAT image, or one APNG frame's fdAT data) into
/// RGBA rows, resumable at any input byte (PNG 3rd edition §10 decompression, §7.3 and §9
/// filtering, §8 interlacing).
///
/// The stream's bytes lie in segments of the input buffer (chunk payloads); the container
/// parser hands the segments known so far on every call. The caller's thread inflates whole
/// rows straight into a batch (``PNGRowBatch``); a full batch goes to the
/// ``PNGRowReconstructor``, which unfilters, converts and writes its rows. With
/// ``DecodingOptions/maxThreads`` of 2 or more and a pool thread free, the reconstructor runs on
/// that thread while the caller inflates the next batches (``PipelineStage``, a few batches in
/// flight); otherwise the caller reconstructs each batch itself when it is full. The same rows
/// go through the same reconstructor in the same order either way, so the pixels do not depend
/// on the thread count. Each call ends with every whole row inflated so far written.
package final class PNGFrameDecoder: FrameJob {
    let width: Int
    let height: Int
    private let header: PNGHeader
    private let inflater: Inflater
    private let reconstructor: PNGRowReconstructor
    private let plan: PNGBatchPlan
    /// Every batch buffer there is: the one being filled, and the ring's others once a
    /// pipeline has run.
    private var storages: [PNGRowStorage]
    /// The batch being filled, and the bytes inflated into it.
    private var batch: PNGRowBatch
    private var fill = 0

    private var segmentIndex = 0
    private var position = -1
    /// A zlib error met after some output: thrown only if more output is needed.
    private var streamError: DecodingError?
    /// Every row of every pass has been inflated (and, when a call returns, written).
    private var inflated = false
    /// Every row of every pass is written.
    private(set) var finished = false
    /// The error that stopped this stream; every later call throws it again.
    private var failure: DecodingError?

    /// A decoder writing into a new `width × height` raster (the caller has checked its size
    /// against the limits; left uninitialised when not interlaced, since every row is written in
    /// turn, and the rows not reached are cleared at the end of each call), or into `thumbnail`
    /// at `origin` when one is given: rows, and the pixels of Adam7 passes, are shrunk as they
    /// come out.
    init(header: PNGHeader, width: Int, height: Int, converter: PNGRowConverter,
         thumbnail: StreamingResampler? = nil, origin: (x: Int, y: Int) = (0, 0),
         ignoresChecksum: Bool, maxThreads: Int = 1) throws(DecodingError) {
        self.header = header
        self.width = width
        self.height = height
        let sink = thumbnail.map { RowSink(thumbnail: $0, width: width, height: height, origin: origin) }
            ?? RowSink(width: width, height: height, bytesPerPixel: converter.outputBytesPerPixel,
                       uninitialized: !header.interlaced)
        inflater = try Inflater(ignoresChecksum: ignoresChecksum)
        let fullRow = header.rowBytes(pixels: width) + 1
        reconstructor = PNGRowReconstructor(header: header, converter: converter, sink: sink, fullRow: fullRow)
        plan = PNGBatchPlan(header: header, width: width, height: height, maxThreads: maxThreads)
        let storage = PNGRowStorage(capacity: plan.capacity)
        storages = [storage]
        batch = PNGRowBatch(storage: storage)
        batch.pass = -1
        startRows(pass: 0, row: 0)
    }

    /// Where the rows went: the raster, or the thumbnail's resampler (read between calls).
    var sink: RowSink { reconstructor.sink }

    /// Bytes held in buffers that grow with the image: the sink, the batches, the row kept.
    package var heldBytes: Int {
        reconstructor.sink.heldBytes + reconstructor.rowBytesHeld + storages.reduce(0) { $0 + $1.heldBytes }
    }

    package var isFinished: Bool { finished }

    package var rowSink: RowSink? { reconstructor.sink }

    /// Adam7 passes fully written so far (7 when done; meaningless for non-interlaced).
    var passesDone: Int { finished ? 7 : max(0, batch.pass) }

    /// Decodes as far as the segments allow. `dataComplete` says no more segments will come,
    /// so running out of data is then an error.
    func decode(segments: [Range<Int>], dataComplete: Bool, input: InputBuffer) throws(DecodingError) {
        if let failure { throw failure }
        defer { reconstructor.clearUnwrittenRows() }
        do {
            try resume(segments: segments, dataComplete: dataComplete, input: input)
        } catch {
            failure = error
            throw error
        }
    }

    /// Inflates batch after batch and has them reconstructed; then writes the whole rows of the
    /// batch left partial. An inflate error is thrown only after the rows before it are
    /// written, and a reconstruction error on one of those rows comes first (as when each row
    /// was reconstructed the moment it was whole).
    private func resume(segments: [Range<Int>], dataComplete: Bool, input: InputBuffer) throws(DecodingError) {
        guard !finished else { return }
        var pipeline = PNGRowPipeline()
        var inflateError: DecodingError?
        do throws(DecodingError) {
            while !inflated, try fillBatch(segments: segments, input: input) {
                guard handOff(&pipeline) else { break }
            }
        } catch {
            inflateError = error
        }
        // The reconstructor is this thread's again only from here on.
        pipeline.finish()
        reconstructWholeRows()
        if let error = reconstructor.failure ?? inflateError { throw error }
        if !inflated && (dataComplete || inflater.finished) { throw .invalidData("image data ends before the last row") }
        if inflated {
            reconstructor.finish()
            finished = true
        }
    }

    /// Sets the batch up for the rows from `row` of `pass` on (the next pass with pixels when
    /// `pass` has none left), an even number when more than one fits (rows are reconstructed in
    /// pairs where they can be), or marks the stream inflated after the last.
    private func startRows(pass: Int, row: Int) {
        var (pass, row) = (pass, row)
        while true {
            guard pass < (header.interlaced ? 7 : 1) else {
                inflated = true
                batch.rowCount = 0
                return
            }
            let (w, h) = header.interlaced ? Adam7.passSize(pass, width: width, height: height) : (width, height)
            if w > 0 && row < h {
                batch.pass = pass
                batch.firstRow = row
                batch.rowLength = header.rowBytes(pixels: w) + 1
                let fit = batch.storage.capacity / batch.rowLength
                batch.rowCount = min(fit > 1 ? fit & ~1 : 1, h - row)
                return
            }
            (pass, row) = (pass + 1, 0)
        }
    }

    /// Whether any row of any pass comes from `row` of `pass` on.
    private func rowsFollow(pass: Int, row: Int) -> Bool {
        (pass..<(header.interlaced ? 7 : 1)).contains { p in
            let (w, h) = header.interlaced ? Adam7.passSize(p, width: width, height: height) : (width, height)
            return w > 0 && (p == pass ? row : 0) < h
        }
    }

    /// Inflates into the batch until it is full (true) or the input runs out (false).
    private func fillBatch(segments: [Range<Int>], input: InputBuffer) throws(DecodingError) -> Bool {
        let capacity = batch.rowCount * batch.rowLength
        while fill < capacity {
            guard segmentIndex < segments.count else { return false }
            let segment = segments[segmentIndex]
            if position < segment.lowerBound { position = segment.lowerBound }
            let end = min(segment.upperBound, input.count)
            guard position < end else {
                guard segmentIndex + 1 < segments.count else { return false }
                segmentIndex += 1
                continue
            }
            if let streamError { throw streamError }
            let output = UnsafeMutableBufferPointer(start: batch.bytes + fill, count: capacity - fill)
            let (consumed, produced, error) = input.withContiguousRun(from: position, to: end) { src in
                inflater.inflate(src, into: output)
            }
            position += consumed
            fill += produced
            streamError = error
            if produced > 0 { continue }
            if let error { throw error }
            if inflater.finished { return false }
            if consumed == 0 { throw .invalidData("zlib stream makes no progress") }
        }
        return true
    }

    /// Has the full batch reconstructed (on the pipeline's thread, or here) and takes the next
    /// one to fill; false when reconstruction has failed.
    private func handOff(_ pipeline: inout PNGRowPipeline) -> Bool {
        let (pass, next) = (batch.pass, batch.firstRow + batch.rowCount)
        if plan.pipelines && !pipeline.isRunning && rowsFollow(pass: pass, row: next) {
            pipeline.start(reconstructor: reconstructor, spares: spareStorages())
        }
        if pipeline.isRunning {
            guard let taken = pipeline.exchange(batch) else { return false }
            batch = taken
        } else {
            reconstructor.reconstruct(&batch)
            if batch.failed { return false }
        }
        fill = 0
        startRows(pass: pass, row: next)
        return true
    }

    /// The batch buffers other than the one being filled, made up to the ring's size.
    private func spareStorages() -> [PNGRowStorage] {
        while storages.count < PNGRowPipeline.batchesInFlight {
            storages.append(PNGRowStorage(capacity: batch.storage.capacity))
        }
        return storages.filter { $0 !== batch.storage }
    }

    /// Reconstructs the whole rows at the start of the partial batch (on this thread: no
    /// pipeline runs now) and moves the partial row after them to the batch's start.
    private func reconstructWholeRows() {
        let whole = fill / batch.rowLength
        guard whole > 0, !inflated, reconstructor.failure == nil else { return }
        let rowCount = batch.rowCount
        batch.rowCount = whole
        reconstructor.reconstruct(&batch)
        let consumed = whole * batch.rowLength
        batch.bytes.update(from: batch.bytes + consumed, count: fill - consumed)
        fill -= consumed
        batch.firstRow += whole
        batch.rowCount = rowCount - whole
    }
}
