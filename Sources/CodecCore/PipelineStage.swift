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
    private let lock = ConditionLock()
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
    /// Calls of ``wake()`` so far: a helping caller sleeps only if none came since it last looked.
    private var wakes = 0

    /// Starts the stage on a thread of `pool`; nil when the pool has none free (the caller then
    /// does the work itself). `process` runs on the stage's thread only.
    package init?(jobs: [Job], pool: WorkerPool = .shared, process: @escaping @Sendable (inout Job) -> Void) {
        free = jobs
        guard pool.tryStart({ [self] in run(process) }, whenBack: { [self] in markExited() }) else { return nil }
    }

    /// A job to fill: one never used or already processed; waits while all are submitted.
    /// nil after ``finish()`` or ``close()``.
    package func acquire() -> Job? {
        lock.lock()
        defer { lock.unlock() }
        while free.isEmpty && !closed { lock.wait() }
        return closed ? nil : free.removeLast()
    }

    /// A job to fill, like ``acquire()``, but while none is free the caller does other work:
    /// `help` (called without the lock) returns whether it found some, and the caller sleeps
    /// only when it found none and no ``wake()`` came since it looked.
    package func acquire(helping help: () -> Bool) -> Job? {
        lock.lock()
        defer { lock.unlock() }
        while free.isEmpty && !closed {
            let seen = wakes
            lock.unlock()
            let helped = help()
            lock.lock()
            if !helped && free.isEmpty && !closed && wakes == seen { lock.wait() }
        }
        return closed ? nil : free.removeLast()
    }

    /// Wakes a caller sleeping in ``acquire(helping:)``: there may be work for its `help`.
    package func wake() {
        lock.lock()
        wakes &+= 1
        lock.broadcast()
        lock.unlock()
    }

    /// A job to fill if one is free now, without waiting: nil while all are submitted (the
    /// thread is behind: the caller may do some of its work first), and after ``finish()`` or
    /// ``close()``.
    package func tryAcquire() -> Job? {
        lock.lock()
        defer { lock.unlock() }
        return closed || free.isEmpty ? nil : free.removeLast()
    }

    /// Hands a filled job to the thread (ignored after ``close()``).
    package func submit(_ job: consuming Job) {
        lock.lock()
        if !closed { pending.append(job) }
        lock.broadcast()
        lock.unlock()
    }

    /// Waits until every submitted job is processed and the thread is back in the pool, waiting.
    package func finish() {
        lock.lock()
        while pendingStart < pending.count || busy > 0 { lock.wait() }
        closed = true
        lock.broadcast()
        while !exited { lock.wait() }
        lock.unlock()
    }

    /// Ends the thread without waiting: submitted jobs not yet started are dropped.
    package func close() {
        lock.lock()
        closed = true
        lock.broadcast()
        lock.unlock()
    }

    private func run(_ process: (inout Job) -> Void) {
        lock.lock()
        while true {
            while pendingStart == pending.count && !closed { lock.wait() }
            if closed { break }
            // Moved out, never copied: a second reference (a `let` holding the job while
            // `process` runs) would make every buffer `process` writes a copy.
            var taken = pending[pendingStart].take()
            pendingStart += 1
            if pendingStart == pending.count {
                pending.removeAll(keepingCapacity: true)
                pendingStart = 0
            }
            guard case .some = taken else { continue }
            busy += 1
            lock.unlock()
            process(&taken!)
            lock.lock()
            busy -= 1
            if let job = taken.take() { free.append(job) }
            lock.broadcast()
        }
        lock.unlock()
    }

    /// The thread is back in the pool, waiting for work (``WorkerPool/tryStart(_:whenBack:)``).
    private func markExited() {
        lock.lock()
        exited = true
        lock.broadcast()
        lock.unlock()
    }
}
