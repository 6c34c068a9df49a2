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

    private let lock = ConditionLock()
    private var counts: [Int]

    /// A board for `pieces` pieces, each at 0.
    package init(pieces: Int) {
        counts = [Int](repeating: 0, count: pieces)
    }

    /// Sets piece `piece`'s count (counts only grow) and wakes the waiters.
    package func publish(_ piece: Int, count: Int) {
        lock.lock()
        counts[piece] = max(counts[piece], count)
        lock.broadcast()
        lock.unlock()
    }

    /// Waits until every piece of `pieces` has published at least `count`.
    package func wait(for pieces: [Int], atLeast count: Int) {
        lock.lock()
        while pieces.contains(where: { counts[$0] < count }) { lock.wait() }
        lock.unlock()
    }
}
