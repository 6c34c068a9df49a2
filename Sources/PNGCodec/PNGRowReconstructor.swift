import CodecCore

/// The second half of decoding an image stream: reverses the scanline filters of each batch of
/// inflated rows (PNG 3rd edition §7.3, §9), converts the rows to RGBA (§13.12, §13.13) and
/// writes them to the sink, non-interlaced rows or the sparse pixels of an Adam7 pass (§8.2).
///
/// It runs on the caller's thread, or on a pool thread while the caller inflates the next rows
/// (``PNGFrameDecoder``); one thread at a time touches it: the pool thread between the start of
/// the pipeline and its `finish()`, the caller otherwise. Batches come in stream order, so the
/// row kept from one batch is the row above the next batch's first.
final class PNGRowReconstructor: @unchecked Sendable {
    private let header: PNGHeader
    private let converter: PNGRowConverter
    /// The frame's rows, or a thumbnail's resampler.
    private(set) var sink: RowSink
    /// The last reconstructed row (filter-type byte first, then the scanline), padded for the
    /// filters' 4-byte loads; all zero before a pass's first row (§9.2).
    private var previous: [UInt8]
    /// The error that stopped reconstruction (a filter type above 4); later batches are skipped.
    private(set) var failure: DecodingError?

    /// `fullRow`: bytes of the widest row, filter-type byte included.
    init(header: PNGHeader, converter: PNGRowConverter, sink: RowSink, fullRow: Int) {
        self.header = header
        self.converter = converter
        self.sink = sink
        previous = [UInt8](repeating: 0, count: fullRow + PNGFilter.rowPadding)
    }

    /// Bytes held besides the sink.
    var rowBytesHeld: Int { previous.count }

    /// Reconstructs and writes every row of `batch`, in place; marks the batch failed (and keeps
    /// the error) at a row that cannot be reconstructed.
    func reconstruct(_ batch: inout PNGRowBatch) {
        guard failure == nil else {
            batch.failed = true
            return
        }
        let length = batch.rowLength, count = length - 1, stride = header.filterStride
        let rows = batch.bytes
        let pixels = header.interlaced ? Adam7.passSize(batch.pass, width: sink.width, height: sink.height).width : sink.width
        previous.withUnsafeMutableBufferPointer { kept in
            guard let above = kept.baseAddress else { return }
            if batch.firstRow == 0 { above.update(repeating: 0, count: length) }
            var r = 0
            while r < batch.rowCount {
                let row = rows + r &* length, prior = (r == 0 ? above : row - length) + 1
                if r + 1 < batch.rowCount,
                   PNGFilter.unfilterPaethPair(types: (row[0], row[length]), row: row + 1, previous: prior,
                                               rowLength: length, count: count, stride: stride) {
                    emit(row + 1, count: pixels, pass: batch.pass, rowInPass: batch.firstRow &+ r)
                    emit(row + length + 1, count: pixels, pass: batch.pass, rowInPass: batch.firstRow &+ r &+ 1)
                    r &+= 2
                    continue
                }
                do throws(DecodingError) {
                    try PNGFilter.unfilter(type: row[0], row: row + 1, previous: prior, count: count, stride: stride)
                } catch {
                    failure = error
                    batch.failed = true
                    return
                }
                emit(row + 1, count: pixels, pass: batch.pass, rowInPass: batch.firstRow &+ r)
                r &+= 1
            }
            if batch.rowCount > 0 { above.update(from: rows + (batch.rowCount - 1) &* length, count: length) }
        }
        if !batch.failed && !header.interlaced { sink.markFinal(rows: batch.firstRow + batch.rowCount) }
    }

    /// Converts one reconstructed scanline of `count` pixels (an Adam7 pass's: `step` apart) into the sink.
    private func emit(_ scanline: UnsafeMutablePointer<UInt8>, count: Int, pass: Int, rowInPass: Int) {
        let interlaced = header.interlaced
        let y = interlaced ? Adam7.yStart[pass] + rowInPass * Adam7.yStep[pass] : rowInPass
        let x0 = interlaced ? Adam7.xStart[pass] : 0, step = interlaced ? Adam7.xStep[pass] : 1
        let converter = converter
        sink.write(row: y, x: x0, count: count, step: step) { dst, step in
            converter.convert(scanline, count: count, into: dst, step: step)
        }
    }

    /// Clears the rows of an image allocated uninitialised that are not written yet, so that a
    /// partial image shows transparent black below its final rows.
    func clearUnwrittenRows() {
        sink.clearUnwrittenRows()
    }

    /// Every row has been written: all rows final.
    func finish() {
        sink.finish()
    }
}
