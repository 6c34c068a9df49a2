import CodecCore

/// The reconstructing thread of one decode call: a ``PipelineStage`` on the shared pool that
/// runs ``PNGRowReconstructor/reconstruct(_:)`` on each full batch while the caller inflates the
/// next. Started at most once a call, when the image is large enough (``PNGBatchPlan``) and
/// more than one batch of rows is to go; when the pool has no thread free, the caller
/// reconstructs the batches itself.
struct PNGRowPipeline {
    /// Batches a running pipeline cycles through: one being inflated, one being reconstructed,
    /// one waiting between them.
    static let batchesInFlight = 3

    private var stage: PipelineStage<PNGRowBatch>?
    private var tried = false

    var isRunning: Bool { stage != nil }

    /// Starts the thread (tried once a call) with `spares` as the batches to fill next.
    mutating func start(reconstructor: PNGRowReconstructor, spares: [PNGRowStorage]) {
        guard !tried else { return }
        tried = true
        stage = PipelineStage(jobs: spares.map { PNGRowBatch(storage: $0) }) { batch in
            reconstructor.reconstruct(&batch)
        }
    }

    /// Hands a full batch to the thread and takes one to fill (waiting while every batch is in
    /// flight); nil once reconstruction has failed.
    mutating func exchange(_ batch: PNGRowBatch) -> PNGRowBatch? {
        guard let stage else { return nil }
        stage.submit(batch)
        guard let next = stage.acquire(), !next.failed else { return nil }
        return next
    }

    /// Waits until every batch handed over is reconstructed; the reconstructor and every batch
    /// are the caller's again.
    mutating func finish() {
        stage?.finish()
        stage = nil
    }
}
