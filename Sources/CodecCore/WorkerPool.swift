/// The few real threads that every decode and encode of the process shares (``shared``), so that
/// many images at once never run more threads than the machine has cores.
///
/// Threads are made when first needed (``DetachedThread``, never Swift concurrency's cooperative
/// pool, which must not block) and then wait for work. Work is offered, never queued: when every
/// thread is busy, ``tryStart(_:)`` says no and the caller does the work itself, so an image
/// decoded while the pool is busy runs on fewer threads but never waits for another image's, and
/// no nesting of offers can deadlock. `maxThreads` (``DecodingOptions/maxThreads``,
/// ``EncodingOptions/maxThreads``) bounds how many threads one image asks for.
///
/// The callers count too: a thread decoding an image (``occupying(_:)``) holds a core, so the
/// pool says no while the callers and its busy threads already fill the processors (its
/// capacity plus one). Four images decoded at once on two cores then run on their own threads
/// only, instead of four decodes and a pool thread taking turns on two cores.
package final class WorkerPool: @unchecked Sendable {
    /// The process's pool: one thread fewer than the processors online (the caller's thread is
    /// the other), at least one, at most 15.
    package static let shared = WorkerPool(capacity: max(ProcessorCount.online(cappedAt: 16) - 1, 1))

    /// The most threads the pool makes.
    package let capacity: Int
    private let lock = ConditionLock()
    /// Work handed over and not yet picked up by a thread, oldest first.
    private var handedOver: [Work] = []
    /// Threads waiting for work.
    private var waiting = 0
    private var started = 0
    /// Callers inside ``occupying(_:)``.
    private var occupied = 0

    package init(capacity: Int) {
        self.capacity = max(capacity, 1)
    }

    /// Runs `body` on one of the pool's threads; false when all are busy (or the system refuses
    /// a new one): the caller then does the work itself. `whenBack` runs on that thread once it
    /// is waiting for work again, under the pool's lock, so whoever it tells can offer the thread
    /// new work at once (``PipelineStage/finish()`` returns only then: a decode right after
    /// another finds the thread free instead of on its way back).
    package func tryStart(_ body: @escaping @Sendable () -> Void, whenBack: (@Sendable () -> Void)? = nil) -> Bool {
        let work = Work(body, whenBack: whenBack)
        lock.lock()
        guard hasFreeCore else {
            lock.unlock()
            return false
        }
        if waiting > handedOver.count {
            handedOver.append(work)
            lock.signal()
            lock.unlock()
            return true
        }
        guard started < capacity else {
            lock.unlock()
            return false
        }
        started += 1
        handedOver.append(work)
        lock.unlock()
        if DetachedThread.start({ [self] in serve() }) { return true }
        lock.lock()
        defer { lock.unlock() }
        started -= 1
        // Another thread may have picked the work up meanwhile; then it runs.
        guard let index = handedOver.firstIndex(where: { $0 === work }) else { return true }
        handedOver.remove(at: index)
        return false
    }

    /// Whether ``tryStart(_:whenBack:)`` would find a thread now: a hint for work that is worth
    /// preparing only to run on two threads (by the time it is offered the answer may differ).
    package var hasFreeThread: Bool {
        lock.lock()
        defer { lock.unlock() }
        return hasFreeCore && (waiting > handedOver.count || started < capacity)
    }

    /// Runs `body`, codec work on the caller's thread, counted as holding a core while it runs
    /// (a decode inside another's counts twice, which only makes the pool more careful).
    package func occupying<R, E: Error>(_ body: () throws(E) -> R) throws(E) -> R {
        lock.lock()
        occupied += 1
        lock.unlock()
        defer {
            lock.lock()
            occupied -= 1
            lock.unlock()
        }
        return try body()
    }

    /// Whether a processor is left over by the callers and the threads at work or about to
    /// be (the lock held).
    private var hasFreeCore: Bool {
        occupied + (started - waiting) + handedOver.count < capacity + 1
    }

    /// A thread's life: whatever is handed over, oldest first. Each piece of work is let go
    /// before waiting for the next (so that what it holds is not kept alive).
    private func serve() {
        var back: (@Sendable () -> Void)?
        while true {
            let work = waitForWork(after: back)
            back = work.whenBack
            work.body()
        }
    }

    /// The next work, once this thread counts as waiting and the last work's `back` has run.
    private func waitForWork(after back: (@Sendable () -> Void)?) -> Work {
        lock.lock()
        defer { lock.unlock() }
        waiting += 1
        back?()
        while handedOver.isEmpty { lock.wait() }
        waiting -= 1
        return handedOver.removeFirst()
    }

    private final class Work: Sendable {
        let body: @Sendable () -> Void
        let whenBack: (@Sendable () -> Void)?
        init(_ body: @escaping @Sendable () -> Void, whenBack: (@Sendable () -> Void)?) {
            self.body = body
            self.whenBack = whenBack
        }
    }
}
