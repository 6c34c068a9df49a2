import CodecCore

/// The one sequential scan of a baseline encode with the standard tables, Huffman coded a row
/// of MCUs at a time as rows come (`JPEGSequentialEncoder` into a `JPEGSymbolWriter`), on the
/// caller's thread or on a second one.
///
/// With two threads (`JPEGEncoder`'s `maxThreads` ≥ 2) the caller converts, downsamples and
/// transforms part of row of MCUs n + 1 while the second thread transforms the rest of row n
/// (their samples copied into the row) and codes it. The split is by block rows of components
/// in frame order (``JPEGTransformUnit``): the caller takes about as many as balance its
/// reading, colour conversion and downsampling against the coder's Huffman coding
/// (``callerShare(blocksPerMCU:pixelsPerMCU:)``). The rows go
/// through a ``PipelineStage`` with three sets of one-row planes, so at most two rows wait. The
/// coder sees the same blocks in the same order either way, so the file is the same bytes.
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
        /// The block rows whose samples come in the row, and their row lengths.
        let deferred: [JPEGTransformUnit]
        let rowLengths: [Int]

        init(encoder: JPEGSequentialEncoder, sink: JPEGSymbolWriter, transform: JPEGBlockTransform,
             deferred: [JPEGTransformUnit], rowLengths: [Int]) {
            self.encoder = encoder
            self.sink = sink
            self.transform = transform
            self.deferred = deferred
            self.rowLengths = rowLengths
        }

        func code(_ row: inout Row) {
            let mcuRow = row.mcuRow
            row.samples.withUnsafeBufferPointer { samples in
                guard var p = samples.baseAddress else { return }
                for unit in deferred {
                    let c = unit.component, rowLength = rowLengths[c]
                    transform.transform(component: c, blockRows: unit.blockRows, samples: p, rowLength: rowLength,
                                        mcuRow: mcuRow, into: &row.planes[c])
                    p += 8 * rowLength * unit.blockRows.count
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
    /// The size of the planes (blocks per row, block rows) and of the samples of a row.
    private let planeSizes: [(Int, Int)]
    private let sampleBytes: Int

    /// `planes`: one row of MCUs of each component. With `maxThreads` ≥ 2 a coding thread is
    /// started (when the system makes one) and transforms the block rows the caller leaves.
    init(encoder: JPEGSequentialEncoder, sink: JPEGSymbolWriter, planes: [JPEGCoefficientPlane],
         transform: JPEGBlockTransform, preprocessor: JPEGPreprocessor, maxThreads: Int) {
        let layout = transform.layout
        let units = layout.components.indices.flatMap { c in
            (0..<layout.components[c].v).map { JPEGTransformUnit(component: c, blockRows: $0..<($0 + 1)) }
        }
        // Greedily, in frame order: a block row that does not fit is left, and with it every
        // later row of its component (they have as many blocks), so the caller never needs a
        // row the coding thread makes (a dummy block row takes its DC from the row above).
        let share = Self.callerShare(blocksPerMCU: layout.components.reduce(0) { $0 + $1.h * $1.v },
                                     pixelsPerMCU: 64 * layout.maxH * layout.maxV)
        var callerBlocks = 0, callers: [JPEGTransformUnit] = [], deferred: [JPEGTransformUnit] = []
        for unit in units {
            let blocks = layout.components[unit.component].h
            if callerBlocks + blocks <= share {
                callerBlocks += blocks
                callers.append(unit)
            } else {
                deferred.append(unit)
            }
        }
        let rowLengths = preprocessor.outputWidth
        planeSizes = planes.map { ($0.blocksPerRow, $0.blockRows) }
        sampleBytes = maxThreads > 1 ? deferred.reduce(0) { $0 + 8 * rowLengths[$1.component] } : 0
        let threadCoder = Coder(encoder: encoder, sink: sink, transform: transform, deferred: deferred, rowLengths: rowLengths)
        // Rows of their own (copies of one row would share buffers until each is first written).
        let (sizes, bytes) = (planeSizes, sampleBytes)
        let rows = (0..<(maxThreads > 1 ? Self.rowsInFlight : 0)).map { _ in Self.makeRow(sizes, bytes) }
        if maxThreads > 1, let stage = PipelineStage(jobs: rows, process: { row in threadCoder.code(&row) }) {
            self.stage = stage
            coder = threadCoder
            callerUnits = callers
        } else {
            coder = Coder(encoder: encoder, sink: sink, transform: transform, deferred: [], rowLengths: rowLengths)
            callerUnits = units
            spare = Row(planes: planes, samples: [])
        }
    }

    private static func makeRow(_ sizes: [(Int, Int)], _ sampleBytes: Int) -> Row {
        Row(planes: sizes.map { JPEGCoefficientPlane(blocksPerRow: $0.0, blockRows: $0.1) },
            samples: [UInt8](repeating: 0, count: sampleBytes))
    }

    deinit { stage?.close() }

    /// How many of an MCU's blocks the caller transforms so that the two threads take about
    /// the same time. In units of one block's DCT and quantization, the caller's other work
    /// (reading, colour conversion, downsampling) is about 0.035 per pixel and the coder's
    /// Huffman coding about 1.33 per block (fitted on the 24 MP photo at quality 75, 4:2:0:
    /// the threads then take 52% and 48% of the CPU time); the caller takes m of the B blocks
    /// with 0.035 · pixels + m = 1.33 · B + (B − m). 4:2:0: 3 of 6 (the first luma block row
    /// and Cb); 4:2:2: 2 of 4; 4:4:4: 2 of 3 (Cb's DCT left to the coder balanced 4:4:4 at
    /// quality 90 as 38% against 62%); gray: none.
    static func callerShare(blocksPerMCU b: Int, pixelsPerMCU pixels: Int) -> Int {
        let m = ((1.33 + 1) * Double(b) - 0.035 * Double(pixels)) / 2
        return min(max(Int(m.rounded()), 0), b)
    }

    /// The block rows the caller transforms into a row before ``add(_:)``.
    let callerUnits: [JPEGTransformUnit]

    /// The block rows whose samples the caller copies into a row
    /// (``JPEGPreprocessor/copySamples(_:into:)``), for the coding thread to transform.
    var deferredUnits: [JPEGTransformUnit] { coder.deferred }

    /// The planes to transform the next row of MCUs into (once the coder is done with them).
    func acquireRow() -> Row {
        if let row = stage?.acquire() { return row }
        if let row = spare {
            spare = nil
            return row
        }
        return Self.makeRow(planeSizes, sampleBytes)
    }

    /// Codes `row` now (one thread) or hands it to the coding thread, which must then hold the
    /// only copy of its buffers (or it would copy them before writing).
    func add(_ row: consuming Row) {
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

/// Block rows of one component within a row of MCUs: a share of a row's transform work.
struct JPEGTransformUnit: Sendable {
    let component: Int
    let blockRows: Range<Int>
}
