/// Consecutive whole scanlines of one pass as they come out of inflate, still filtered (PNG 3rd
/// edition §7.3: a filter-type byte, then the scanline's filtered bytes), back to back: the unit
/// that the inflating thread hands to the reconstructing one.
///
/// Rows are reconstructed in place (§9), each from the one above it in the batch; the first
/// from the row the reconstructor kept from the batch before (``PNGRowReconstructor``).
struct PNGRowBatch: Sendable {
    /// Where the rows lie; owned by one thread at a time (the one holding the batch).
    let storage: PNGRowStorage
    /// The Adam7 pass (0 when not interlaced).
    var pass = 0
    /// The pass's row that the batch starts with.
    var firstRow = 0
    /// Rows in the batch.
    var rowCount = 0
    /// Bytes of one row: the filter-type byte and the scanline.
    var rowLength = 1
    /// Set by the reconstructor when a row could not be reconstructed (its error is the
    /// reconstructor's ``PNGRowReconstructor/failure``); the inflating thread stops then.
    var failed = false

    init(storage: PNGRowStorage) {
        self.storage = storage
    }

    /// The rows' bytes.
    var bytes: UnsafeMutablePointer<UInt8> { storage.bytes }
}

/// The bytes of a batch: room for its rows and ``PNGFilter/rowPadding`` bytes past the last
/// (which the 4-byte loads of the filters may read), allocated once and reused batch after
/// batch. A class, so that a batch handed from thread to thread is never copied, and so that the
/// decoder keeps its buffers across decode calls.
final class PNGRowStorage: @unchecked Sendable {
    let bytes: UnsafeMutablePointer<UInt8>
    /// Bytes for rows, the padding not counted.
    let capacity: Int

    init(capacity: Int) {
        self.capacity = capacity
        let total = capacity + PNGFilter.rowPadding
        bytes = .allocate(capacity: total)
        bytes.initialize(repeating: 0, count: total)
    }

    deinit { bytes.deallocate() }

    /// Bytes held.
    var heldBytes: Int { capacity + PNGFilter.rowPadding }
}

/// How big an image stream's batches are, and whether a second thread may reconstruct them.
struct PNGBatchPlan {
    /// Bytes of rows a batch holds (at least one row of the widest pass, two when there are).
    let capacity: Int
    /// Whether the batches may go through a ``PNGRowPipeline``.
    let pipelines: Bool

    /// A batch holds two rows or more when the image has them (two Paeth rows are reconstructed
    /// together). On one thread a batch is about what stays in the second-level cache between
    /// inflating a row and reconstructing it. With two, each hand-off costs a wake-up, so batches are
    /// larger, but at least eight to an image so that the threads overlap; an image of less
    /// than ``minimumPipelinedBytes`` (where a wake-up costs more than the work) or whose widest
    /// row is longer than ``pipelinedBatchBytes`` stays on one thread.
    init(header: PNGHeader, width: Int, height: Int, maxThreads: Int) {
        let fullRow = header.rowBytes(pixels: width) + 1
        let total = Self.streamBytes(header: header, width: width, height: height)
        pipelines = maxThreads > 1 && total >= Self.minimumPipelinedBytes && fullRow <= Self.pipelinedBatchBytes
        capacity = max(min(2 * fullRow, total), pipelines ? min(Self.pipelinedBatchBytes, total / 8) : min(Self.batchBytes, total))
    }

    static let batchBytes = 64 << 10
    static let pipelinedBatchBytes = 256 << 10
    static let minimumPipelinedBytes = 128 << 10

    /// Bytes of every row of every pass, filter-type bytes included (§7.2, §8.2).
    static func streamBytes(header: PNGHeader, width: Int, height: Int) -> Int {
        guard header.interlaced else { return (header.rowBytes(pixels: width) + 1) * height }
        return (0..<7).reduce(0) { sum, pass in
            let (w, h) = Adam7.passSize(pass, width: width, height: height)
            return sum + (w > 0 ? (header.rowBytes(pixels: w) + 1) * h : 0)
        }
    }
}
