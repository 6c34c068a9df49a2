import CodecCore

/// One MCU row on its way from the entropy decoder to the output: its coefficients, and its
/// samples once inverse-transformed (on either side of a ``JPEGRowPipeline``).
struct JPEGRowJob: Sendable {
    var coefficients: JPEGCoefficients
    var samples: JPEGSampleRows
    var mcuRow = 0
    var isTransformed = false
}

/// The output side of a JPEG decode: the renderer and the row sink, and how many MCU rows have
/// been written. One thread at a time uses it: a ``JPEGRowPipeline``'s thread while the
/// pipeline runs, the decoder's thread otherwise (the pipeline's `finish()` hands it back).
final class JPEGRowWriter: @unchecked Sendable {
    var sink: RowSink
    /// Made when decoding starts (it needs the quantization tables of the first scan).
    var renderer: JPEGRenderer?
    /// MCU rows written to the sink so far: the output changed when this did.
    private(set) var rowsWritten = 0
    /// While a pipeline runs, the ICC conversion shared with the decoding thread: the renderer
    /// then leaves it out and ``write(mcuRow:final:)`` converts each MCU row's pixels whole.
    private(set) var sharedConversion: JPEGSharedConversion?

    init(sink: RowSink) {
        self.sink = sink
    }

    /// Takes a sequential scan's MCU row: inverse-transforms it unless that is done, takes its
    /// samples into the renderer, and writes the MCU row before it (fancy upsampling needs the
    /// row below), and the row itself when it is the last. `job` gets spare sample buffers back.
    func take(_ job: inout JPEGRowJob) {
        guard renderer != nil else { return }
        if !job.isTransformed {
            renderer?.transform.apply(mcuRow: job.mcuRow, from: job.coefficients, into: &job.samples)
        }
        renderer?.adopt(&job.samples, mcuRow: job.mcuRow)
        job.isTransformed = false
        let m = job.mcuRow
        if m > 0 { write(mcuRow: m - 1) }
        if m == (renderer?.frame.mcuRows ?? 0) - 1 { write(mcuRow: m) }
    }

    /// Writes the rows of MCU row `m` (whose neighbours the renderer holds) to the sink, and
    /// counts them final unless they are not (`final` false: a buffered file's image before its
    /// last scan).
    func write(mcuRow m: Int, final: Bool = true) {
        guard let rows = renderer?.outputRows(ofMCURow: m) else { return }
        rowsWritten += 1
        let width = renderer?.geometry.width ?? 0
        sink.write(rows: rows) { out in
            renderer?.emit(mcuRow: m, into: out, firstRow: rows.lowerBound)
            sharedConversion?.convert(out, count: rows.count * width)
        }
        if final { sink.markFinal(rows: rows.upperBound) }
    }

    /// Moves the renderer's ICC conversion to a ``JPEGSharedConversion`` (nil when there is
    /// none: no profile); ``endSharing()`` gives it back.
    func shareConversion() -> JPEGSharedConversion? {
        guard let transform = renderer?.colorTransform else { return nil }
        let shared = JPEGSharedConversion(transform)
        renderer?.defersColorTransform = true
        sharedConversion = shared
        return shared
    }

    func endSharing() {
        guard sharedConversion != nil else { return }
        renderer?.defersColorTransform = false
        sharedConversion = nil
    }

    /// Counts `count` MCU rows written by other means (bands written at once).
    func countWritten(_ count: Int) {
        rowsWritten += count
    }
}

/// A sequential scan decoded on two threads: the caller decodes the entropy-coded data of MCU
/// row k while a pool thread (``PipelineStage``) inverse-transforms, upsamples, colour-converts
/// and writes MCU row k − 1 (``JPEGRowWriter/take(_:)``). The rows go in order through a few
/// jobs, so at most ``jobsInFlight`` wait.
///
/// The two sides share the work as the machine allows: when every job is in flight (the output
/// thread is behind), the caller inverse-transforms the row it has just decoded before handing
/// it over, instead of waiting. Either way each row is transformed once with the same tables,
/// so the pixels are the same.
final class JPEGRowPipeline {
    /// Jobs the stage holds besides the caller's: one being processed, one waiting.
    static let jobsInFlight = 2

    private let stage: PipelineStage<JPEGRowJob>
    private let transform: JPEGRowTransform
    private let writer: JPEGRowWriter
    /// The ICC conversion the caller helps with while it waits for a job.
    private let sharedConversion: JPEGSharedConversion?

    /// Starts the output thread on `writer`; nil when `maxThreads` is 1, the writer has no
    /// renderer yet, or the pool has no thread free.
    init?(writer: JPEGRowWriter, maxThreads: Int) {
        guard maxThreads > 1, let transform = writer.renderer?.transform else { return nil }
        let jobs = (0..<Self.jobsInFlight).map { _ in Self.makeJob(transform) }
        guard let stage = PipelineStage(jobs: jobs, process: { writer.take(&$0) }) else { return nil }
        self.stage = stage
        self.transform = transform
        self.writer = writer
        sharedConversion = writer.shareConversion()
        sharedConversion?.announce = { [unowned stage] in stage.wake() }
    }

    private static func makeJob(_ transform: JPEGRowTransform) -> JPEGRowJob {
        JPEGRowJob(coefficients: JPEGCoefficients(frame: transform.frame, mcuRowOnly: true), samples: transform.makeRows())
    }

    /// Hands over the decoded row in `job` and puts in its place a job to decode the next row
    /// into (its coefficients not cleared). Transforms the row first when no job is free, then
    /// converts pixels of the row being written (``JPEGSharedConversion``) while it waits.
    func handOver(_ job: inout JPEGRowJob) {
        var next: JPEGRowJob
        if let free = stage.tryAcquire() {
            next = free
        } else {
            transform.apply(mcuRow: job.mcuRow, from: job.coefficients, into: &job.samples)
            job.isTransformed = true
            next = stage.acquire { sharedConversion?.help() ?? false } ?? Self.makeJob(transform)
        }
        swap(&next, &job)
        // The stage's thread must hold the only copy of the row's buffers, or it would copy
        // them before writing.
        stage.submit(consume next)
    }

    /// Waits until every row handed over is written; the writer is the caller's again.
    func finish() {
        stage.finish()
        writer.endSharing()
    }
}
