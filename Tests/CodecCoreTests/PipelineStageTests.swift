@testable import CodecCore
import Testing

/// The pipeline stage processes every submitted job once, in order, on its thread, with no
/// more jobs in flight than it was given. Each test has a pool of its own (tests run at once,
/// and the shared pool may be busy).
struct PipelineStageTests {
    struct Job: Sendable {
        let id: Int
        var value = 0
    }

    @Test func jobsAreProcessedInOrder() throws {
        let seen = Locked<[Int]>([])
        let ids = Locked<Set<Int>>([])
        let stage = try #require(PipelineStage(jobs: (0..<3).map { Job(id: $0) }, pool: WorkerPool(capacity: 1)) { job in
            seen.withLock { $0.append(job.value) }
            ids.withLock { _ = $0.insert(job.id) }
            job.value = -1
        })
        for value in 0..<500 {
            var job = try #require(stage.acquire())
            #expect((0..<3).contains(job.id))
            job.value = value
            stage.submit(job)
        }
        stage.finish()
        #expect(seen.withLock { $0 } == Array(0..<500))
        #expect(ids.withLock { $0 } == [0, 1, 2])
        #expect(stage.acquire() == nil)
    }

    @Test func closeEndsTheThread() throws {
        let stage = try #require(PipelineStage(jobs: [Job(id: 0)], pool: WorkerPool(capacity: 1)) { _ in })
        if let job = stage.acquire() { stage.submit(job) }
        stage.close()
        #expect(stage.acquire() == nil)
    }
}
