#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// How far each of several pieces of work running on different threads has got, for work that
/// follows others at a distance (a wavefront): each piece publishes a growing count, and a
/// piece that needs another to be at least so far waits for it. Writes made before a
/// ``publish(_:count:)`` are visible to a thread after the ``wait(for:atLeast:)`` that saw it.
///
/// A piece that stops for good publishes ``finished``, which satisfies every wait, so no waiter
/// outlives the piece it waits on.
package final class ProgressBoard: @unchecked Sendable {
    /// A count that satisfies every wait.
    package static let finished = Int.max

    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>
    private var counts: [Int]

    /// A board for `pieces` pieces, each at 0.
    package init(pieces: Int) {
        counts = [Int](repeating: 0, count: pieces)
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

    /// Sets piece `piece`'s count (counts only grow) and wakes the waiters.
    package func publish(_ piece: Int, count: Int) {
        pthread_mutex_lock(mutex)
        counts[piece] = max(counts[piece], count)
        pthread_cond_broadcast(condition)
        pthread_mutex_unlock(mutex)
    }

    /// Waits until every piece of `pieces` has published at least `count`.
    package func wait(for pieces: [Int], atLeast count: Int) {
        pthread_mutex_lock(mutex)
        while pieces.contains(where: { counts[$0] < count }) { pthread_cond_wait(condition, mutex) }
        pthread_mutex_unlock(mutex)
    }
}
