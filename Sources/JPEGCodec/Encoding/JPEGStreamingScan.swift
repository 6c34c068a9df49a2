import CodecCore

/// The one sequential scan of a baseline encode with the standard tables, Huffman coded a row
/// of MCUs at a time as rows come (`JPEGSequentialEncoder` into a `JPEGSymbolWriter`), on the
/// caller's thread or on a second one.
///
/// With two threads (`JPEGEncoder`'s `maxThreads` ≥ 2) the caller converts, downsamples and
/// transforms the first component of row of MCUs n + 1 while the second thread transforms the
/// other components of row n (their samples copied into the row: about a third of the blocks
/// at 4:2:0) and codes it. The rows go through a ``PipelineStage`` with three sets of one-row
/// planes, so at most two rows wait. The coder sees the same blocks in the same order either
/// way, so the file is the same bytes.
final class JPEGStreamingScan: @unchecked Sendable {
    /// One row of MCUs handed to the coder: quantized blocks, and the samples of the components
    /// the coding thread transforms.
    struct Row: Sendable {
        var planes: [JPEGCoefficientPlane]
        var samples: [UInt8]
        var mcuRow = 0
    }

    /// Sets of planes in flight with two threads: one being filled, up to two waiting or coded.
    static let rowsInFlight = 3

    /// The coder and its output: what the coding thread holds (the thread does not hold this
    /// object, whose deinit ends the thread when an encode is dropped unfinished).
    private final class Coder: @unchecked Sendable {
        /// Touched by the coding thread only until the stage's `finish()` returns (or, with one
        /// thread, by the caller only).
        var encoder: JPEGSequentialEncoder
        var sink: JPEGSymbolWriter
        /// Whole bytes coded and not yet taken (the bit buffer keeps the rest).
        let output = Locked<[UInt8]>([])
        let transform: JPEGBlockTransform
        /// The components whose samples come in the row, with their row lengths.
        let deferred: [(component: Int, rowLength: Int, count: Int)]

        init(encoder: JPEGSequentialEncoder, sink: JPEGSymbolWriter, transform: JPEGBlockTransform,
             deferred: [(component: Int, rowLength: Int, count: Int)]) {
            self.encoder = encoder
            self.sink = sink
            self.transform = transform
            self.deferred = deferred
        }

        func code(_ row: inout Row) {
            let mcuRow = row.mcuRow
            row.samples.withUnsafeBufferPointer { samples in
                guard var p = samples.baseAddress else { return }
                for (c, rowLength, count) in deferred {
                    transform.transform(component: c, samples: p, rowLength: rowLength, mcuRow: mcuRow, into: &row.planes[c])
                    p += count
                }
            }
            encoder.encode(planes: row.planes, iMCURows: mcuRow..<(mcuRow + 1), into: &sink)
            let bytes = sink.writer.take()
            output.withLock { $0 += bytes }
        }
    }

    private let coder: Coder
    private var stage: PipelineStage<Row>?
    /// With one thread: the planes, between ``add(_:)`` and the next ``acquireRow()``.
    private var spare: Row?
    /// A fresh set of planes, in case neither the stage nor `spare` has one.
    private let empty: Row

    /// `planes`: one row of MCUs of each component. With `maxThreads` ≥ 2 a coding thread is
    /// started (when the system makes one) and transforms every component but the first.
    init(encoder: JPEGSequentialEncoder, sink: JPEGSymbolWriter, planes: [JPEGCoefficientPlane],
         transform: JPEGBlockTransform, preprocessor: JPEGPreprocessor, maxThreads: Int) {
        let sizes = planes.indices.dropFirst().map {
            (component: $0, rowLength: preprocessor.outputWidth[$0], count: preprocessor.sampleCount(component: $0))
        }
        empty = Row(planes: planes, samples: [UInt8](repeating: 0, count: sizes.reduce(0) { $0 + $1.count }))
        spare = empty
        let threadCoder = Coder(encoder: encoder, sink: sink, transform: transform, deferred: sizes)
        if maxThreads > 1, let stage = PipelineStage(jobs: Array(repeating: empty, count: Self.rowsInFlight), process: { row in
            threadCoder.code(&row)
        }) {
            self.stage = stage
            coder = threadCoder
        } else {
            coder = Coder(encoder: encoder, sink: sink, transform: transform, deferred: [])
        }
    }

    deinit { stage?.close() }

    /// The components the caller transforms into a row before ``add(_:)``; the samples of the
    /// others go in the row (``JPEGPreprocessor/copySamples(components:into:)``).
    var callerComponents: Range<Int> { 0..<(empty.planes.count - coder.deferred.count) }

    /// The planes to transform the next row of MCUs into (once the coder is done with them).
    func acquireRow() -> Row {
        if let stage { return stage.acquire() ?? empty }
        defer { spare = nil }
        return spare ?? empty
    }

    /// Codes `row` now (one thread) or hands it to the coding thread.
    func add(_ row: Row) {
        if let stage {
            stage.submit(row)
        } else {
            var row = row
            coder.code(&row)
            spare = row
        }
    }

    /// The coded bytes not yet taken.
    func take() -> [UInt8] {
        coder.output.withLock { bytes in
            let taken = bytes
            bytes = []
            return taken
        }
    }

    /// Waits for every row to be coded, pads the last byte and returns the bytes not yet taken.
    func finish() -> [UInt8] {
        stage?.finish()
        stage = nil
        coder.sink.writer.flush()
        let bytes = take()
        return bytes + coder.sink.writer.take()
    }
}
