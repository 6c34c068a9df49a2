extension WorkerPool {
    /// Calls `body(i)` once for every `i` in `0..<count`, on the caller's thread and on up to
    /// `maxThreads − 1` of the pool's threads, each taking the next index as it becomes free;
    /// returns when every call has returned and every helper is back in the pool (so that the
    /// next image finds the thread free, not on its way back). Calls on different threads run
    /// at the same time, so `body` must only write what its index owns. With `maxThreads` 1, a
    /// busy pool or one index, every call runs on the caller's thread, in order.
    package func concurrentForEach(count: Int, maxThreads: Int, _ body: (Int) -> Void) {
        let helpers = min(maxThreads - 1, count - 1)
        guard helpers > 0 else {
            for index in 0..<max(count, 0) { body(index) }
            return
        }
        withoutActuallyEscaping(body) { body in
            let loop = IndexLoop(count: count, body: body)
            for _ in 0..<helpers where loop.join() {
                guard tryStart({ loop.drain() }, whenBack: { loop.leave() }) else {
                    loop.leave()
                    break
                }
            }
            loop.drain()
            loop.waitForHelpers()
        }
    }

    /// ``concurrentForEach(count:maxThreads:_:)`` only when a pool thread takes part: false,
    /// with no call made, when `maxThreads` or `count` is below 2 or the pool is busy, for
    /// work that costs more in pieces on one thread than whole (the caller then does it whole).
    package func concurrentForEachWithHelp(count: Int, maxThreads: Int, _ body: (Int) -> Void) -> Bool {
        let helpers = min(maxThreads - 1, count - 1)
        guard helpers > 0 else { return false }
        return withoutActuallyEscaping(body) { body in
            let loop = IndexLoop(count: count, body: body)
            var started = 0
            for _ in 0..<helpers where loop.join() {
                guard tryStart({ loop.drain() }, whenBack: { loop.leave() }) else {
                    loop.leave()
                    break
                }
                started += 1
            }
            if started > 0 { loop.drain() }
            loop.waitForHelpers()
            return started > 0
        }
    }
}

/// The shared state of one ``WorkerPool/concurrentForEach(count:maxThreads:_:)``: the next
/// index and the threads still inside the loop. `body` is only called before
/// ``waitForHelpers()`` returns, which is what makes handing it to other threads sound; that
/// call also lets go of it, as a helper's closure (which holds this object) may be released by
/// its pool thread only after the loop has returned.
private final class IndexLoop: @unchecked Sendable {
    private let lock = ConditionLock()
    private let count: Int
    private var body: ((Int) -> Void)?
    private var next = 0
    private var helpers = 0

    init(count: Int, body: @escaping (Int) -> Void) {
        self.count = count
        self.body = body
    }

    /// Counts a helper in before it is offered to the pool; false when no index is left.
    func join() -> Bool {
        lock.lock()
        defer { lock.unlock() }
        guard next < count else { return false }
        helpers += 1
        return true
    }

    /// Counts out a helper that has drained the indices, or that the pool did not take.
    func leave() {
        lock.lock()
        helpers -= 1
        lock.broadcast()
        lock.unlock()
    }

    /// Takes indices until none is left (the caller's share, or a helper's whole life).
    func drain() {
        while let index = take() { body?(index) }
    }

    private func take() -> Int? {
        lock.lock()
        defer { lock.unlock() }
        guard next < count else { return nil }
        next += 1
        return next - 1
    }

    /// Waits until every helper has left, then lets go of `body`.
    func waitForHelpers() {
        lock.lock()
        while helpers > 0 { lock.wait() }
        body = nil
        lock.unlock()
    }
}
