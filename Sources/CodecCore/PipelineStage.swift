#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The second stage of a two-stage pipeline on a thread of ``WorkerPool/shared`` (never Swift
/// concurrency's cooperative pool): the caller fills jobs and submits them; the stage's thread
/// processes them one by one in the order submitted and hands each back for re-use. The thread
/// goes back to the pool after ``finish()`` or ``close()``, one of which the owner must call.
/// The jobs given at creation are all there are, so the hand-off is bounded: ``acquire()``
/// waits while every job is submitted and not yet processed.
///
/// Whatever `process` writes is visible to the caller after ``finish()`` (or after the
/// ``acquire()`` that returns the job it processed): both take the same lock the thread does.
package final class PipelineStage<Job: Sendable>: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>
    /// Processed (or never used) jobs, ready for the caller.
    private var free: [Job]
    /// Submitted jobs not yet taken by the thread, oldest first (a taken one is nil, so that
    /// the thread holds the only copy of a job's buffers while it processes them).
    private var pending: [Job?] = []
    private var pendingStart = 0
    /// Jobs taken by the thread and not yet handed back.
    private var busy = 0
    private var closed = false
    private var exited = false

    /// Starts the stage on a thread of `pool`; nil when the pool has none free (the caller then
    /// does the work itself). `process` runs on the stage's thread only.
    package init?(jobs: [Job], pool: WorkerPool = .shared, process: @escaping @Sendable (inout Job) -> Void) {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
        condition = .allocate(capacity: 1)
        condition.initialize(to: pthread_cond_t())
        pthread_cond_init(condition, nil)
        free = jobs
        guard pool.tryStart({ [self] in run(process) }) else { return nil }
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    /// A job to fill: one never used or already processed; waits while all are submitted.
    /// nil after ``finish()`` or ``close()``.
    package func acquire() -> Job? {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        while free.isEmpty && !closed { pthread_cond_wait(condition, mutex) }
        return closed ? nil : free.removeLast()
    }

    /// A job to fill if one is free now, without waiting: nil while all are submitted (the
    /// thread is behind: the caller may do some of its work first), and after ``finish()`` or
    /// ``close()``.
    package func tryAcquire() -> Job? {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return closed || free.isEmpty ? nil : free.removeLast()
    }

    /// Hands a filled job to the thread (ignored after ``close()``).
    package func submit(_ job: consuming Job) {
        pthread_mutex_lock(mutex)
        if !closed { pending.append(job) }
        pthread_cond_broadcast(condition)
        pthread_mutex_unlock(mutex)
    }

    /// Waits until every submitted job is processed and the thread has ended.
    package func finish() {
        pthread_mutex_lock(mutex)
        while pendingStart < pending.count || busy > 0 { pthread_cond_wait(condition, mutex) }
        closed = true
        pthread_cond_broadcast(condition)
        while !exited { pthread_cond_wait(condition, mutex) }
        pthread_mutex_unlock(mutex)
    }

    /// Ends the thread without waiting: submitted jobs not yet started are dropped.
    package func close() {
        pthread_mutex_lock(mutex)
        closed = true
        pthread_cond_broadcast(condition)
        pthread_mutex_unlock(mutex)
    }

    private func run(_ process: (inout Job) -> Void) {
        pthread_mutex_lock(mutex)
        while true {
            while pendingStart == pending.count && !closed { pthread_cond_wait(condition, mutex) }
            if closed { break }
            let taken = pending[pendingStart]
            pending[pendingStart] = nil
            pendingStart += 1
            if pendingStart == pending.count {
                pending.removeAll(keepingCapacity: true)
                pendingStart = 0
            }
            guard var job = taken else { continue }
            busy += 1
            pthread_mutex_unlock(mutex)
            process(&job)
            pthread_mutex_lock(mutex)
            busy -= 1
            free.append(job)
            pthread_cond_broadcast(condition)
        }
        exited = true
        pthread_cond_broadcast(condition)
        pthread_mutex_unlock(mutex)
    }
}
