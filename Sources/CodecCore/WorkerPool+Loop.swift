#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension WorkerPool {
    /// Calls `body(i)` once for every `i` in `0..<count`, on the caller's thread and on up to
    /// `maxThreads − 1` of the pool's threads, each taking the next index as it becomes free;
    /// returns when every call has returned. Calls on different threads run at the same time,
    /// so `body` must only write what its index owns. With `maxThreads` 1, a busy pool or one
    /// index, every call runs on the caller's thread, in order.
    package func concurrentForEach(count: Int, maxThreads: Int, _ body: (Int) -> Void) {
        let helpers = min(maxThreads - 1, count - 1)
        guard helpers > 0 else {
            for index in 0..<max(count, 0) { body(index) }
            return
        }
        withoutActuallyEscaping(body) { body in
            let loop = IndexLoop(count: count, body: body)
            for _ in 0..<helpers where loop.join() {
                guard tryStart({ loop.drain(); loop.leave() }) else {
                    loop.leave()
                    break
                }
            }
            loop.drain()
            loop.waitForHelpers()
        }
    }
}

/// The shared state of one ``WorkerPool/concurrentForEach(count:maxThreads:_:)``: the next
/// index and the threads still inside the loop. `body` is only called before
/// ``waitForHelpers()`` returns, which is what makes handing it to other threads sound; that
/// call also lets go of it, as a helper's closure (which holds this object) may be released by
/// its pool thread only after the loop has returned.
private final class IndexLoop: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>
    private let count: Int
    private var body: ((Int) -> Void)?
    private var next = 0
    private var helpers = 0

    init(count: Int, body: @escaping (Int) -> Void) {
        self.count = count
        self.body = body
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
        condition = .allocate(capacity: 1)
        condition.initialize(to: pthread_cond_t())
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    /// Counts a helper in before it is offered to the pool; false when no index is left.
    func join() -> Bool {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        guard next < count else { return false }
        helpers += 1
        return true
    }

    /// Counts out a helper that has drained the indices, or that the pool did not take.
    func leave() {
        pthread_mutex_lock(mutex)
        helpers -= 1
        pthread_cond_broadcast(condition)
        pthread_mutex_unlock(mutex)
    }

    /// Takes indices until none is left (the caller's share, or a helper's whole life).
    func drain() {
        while let index = take() { body?(index) }
    }

    private func take() -> Int? {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        guard next < count else { return nil }
        next += 1
        return next - 1
    }

    /// Waits until every helper has left, then lets go of `body`.
    func waitForHelpers() {
        pthread_mutex_lock(mutex)
        while helpers > 0 { pthread_cond_wait(condition, mutex) }
        body = nil
        pthread_mutex_unlock(mutex)
    }
}
