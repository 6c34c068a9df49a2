import CodecCore

/// A VP8 decode on two threads (libwebp's `use_threads`): the caller parses macroblock row
/// k + 1 while a pool thread (``PipelineStage``) reconstructs and loop-filters row k and writes
/// its output rows (``VP8RowWriter/write(_:)``). Rows go through ``jobsInFlight`` jobs besides
/// the caller's, in order, so the writer sees exactly the rows, in the order, that it sees on
/// one thread. With final input the pool thread also parses the first partition's headers a
/// few rows ahead (``VP8ModeRows/parseAhead(through:bytes:)``) before writing each row: the
/// caller's stage is the longer one.
final class VP8RowPipeline {
    /// Jobs the stage holds besides the caller's: one being written, three waiting. The token
    /// parser is the longer stage on average, but the writer's rows cost unevenly (first-touch
    /// faults of the output come in bursts), and with one row waiting the parser often waited
    /// for a free job: 24 MP q90 at two threads 279–283 → 265–278 ms with three (quiet,
    /// best of 12); seven measured no better.
    static let jobsInFlight = 4

    private let stage: PipelineStage<VP8RowJob>
    private let box: WriterBox
    private let layout: VP8BandLayout

    /// The writer while the stage's thread owns it.
    private final class WriterBox: @unchecked Sendable {
        var writer: VP8RowWriter
        init(_ writer: VP8RowWriter) { self.writer = writer }
    }

    /// The jobs a pipeline starts with besides the caller's, made once per call and offered
    /// again while the pool says no.
    static func spareJobs(_ layout: VP8BandLayout) -> [VP8RowJob] {
        (0..<jobsInFlight).map { _ in VP8RowJob(layout) }
    }

    /// The bytes of the decode call the pipeline lives in (it finishes before the call returns).
    private struct Bytes: @unchecked Sendable { let buffer: UnsafeBufferPointer<UInt8> }

    /// Starts the writing thread with `writer` and `jobs` (``spareJobs(_:)``), which the
    /// pipeline holds until ``finish()``: the caller drops its copies before handing a row
    /// over. With `headersAhead` (final input), the thread parses its headers from `bytes`
    /// ahead of the caller. Nil when the pool has no thread free.
    init?(writer: VP8RowWriter, jobs: [VP8RowJob], headersAhead modeRows: VP8ModeRows?, bytes: UnsafeBufferPointer<UInt8>) {
        let box = WriterBox(writer)
        let input = Bytes(buffer: bytes)
        let stage = PipelineStage(jobs: jobs) { (job: inout VP8RowJob) in
            modeRows?.parseAhead(through: job.mbRow + VP8ModeRows.lead, bytes: input.buffer)
            box.writer.write(&job)
        }
        guard let stage else { return nil }
        self.stage = stage
        self.box = box
        layout = writer.layout
    }

    /// Hands over the reconstructed row in `job` and puts in its place a job to reconstruct
    /// the next row into (waiting while both others are in flight).
    func handOver(_ job: inout VP8RowJob) {
        var next = stage.acquire() ?? VP8RowJob(layout)
        swap(&next, &job)
        // The stage's thread must hold the only copy of the row's buffers.
        stage.submit(consume next)
    }

    /// Waits until every row handed over is written and returns the writer.
    func finish() -> VP8RowWriter {
        stage.finish()
        let writer = box.writer
        box.writer = writer.placeholder()
        return writer
    }
}
