import CodecCore

/// The transforming thread of one VP8L decode call: a ``PipelineStage`` on the shared pool that
/// applies the inverse transforms to a batch of coded rows and hands them to the output
/// (``VP8LRowOutput/transform(_:coded:)``) while the caller decodes the next batches' pixels.
/// The caller copies each batch's coded rows into a job (its window slides on), so the two
/// threads share nothing but the jobs. The output moves into the pipeline at ``start(_:batchPixels:)``
/// and back at ``finish()``; batches are transformed in the order decoded, as on one thread.
struct VP8LRowPipeline {
    /// Batches in flight: one being filled, one being transformed, one waiting between them.
    static let batchesInFlight = 3

    /// A batch of coded rows for the thread.
    struct Batch: Sendable {
        var rows = 0..<0
        var pixels: [UInt32]
    }

    /// The output while the thread has it.
    private final class Holder: @unchecked Sendable {
        var output: VP8LRowOutput
        init(_ output: VP8LRowOutput) { self.output = output }
    }

    private let holder: Holder
    private let stage: PipelineStage<Batch>

    private init(holder: Holder, stage: PipelineStage<Batch>) {
        self.holder = holder
        self.stage = stage
    }

    /// Starts the thread with `output` moved into it (left empty here), for batches of up to
    /// `batchPixels` coded pixels; nil, with `output` untouched, when the pool has no thread free.
    static func start(_ output: inout VP8LRowOutput, batchPixels: Int) -> VP8LRowPipeline? {
        let holder = Holder(VP8LRowOutput.empty)
        swap(&holder.output, &output)
        let batches = (0..<batchesInFlight).map { _ in Batch(pixels: [UInt32](repeating: 0, count: batchPixels)) }
        guard let stage = PipelineStage(jobs: batches, process: { batch in
            batch.pixels.withUnsafeBufferPointer { holder.output.transform(batch.rows, coded: $0.baseAddress!) }
        }) else {
            swap(&holder.output, &output)
            return nil
        }
        return VP8LRowPipeline(holder: holder, stage: stage)
    }

    /// Hands the coded `rows` (`count` pixels from `coded`) to the thread, waiting while every
    /// batch is in flight.
    func transform(_ rows: Range<Int>, coded: UnsafePointer<UInt32>, count: Int) {
        guard var batch = stage.acquire() else { return }
        batch.rows = rows
        batch.pixels.withUnsafeMutableBufferPointer { $0.baseAddress!.update(from: coded, count: count) }
        stage.submit(batch)
    }

    /// Waits until every batch handed over is transformed; returns the output.
    func finish() -> VP8LRowOutput {
        stage.finish()
        var output = VP8LRowOutput.empty
        swap(&holder.output, &output)
        return output
    }
}
