#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Wakes a thread that sleeps until there is work: a flag under a `pthread_mutex_t` with a
/// condition variable. A ``wake()`` before ``wait()`` is not lost: the flag stays set until a
/// wait takes it. ``stop()`` ends every wait for good.
package final class WakeSignal: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>
    private var woken = false
    private var stopped = false

    package init() {
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

    /// Sets the flag and wakes the waiting thread, if any.
    package func wake() {
        pthread_mutex_lock(mutex)
        woken = true
        pthread_cond_signal(condition)
        pthread_mutex_unlock(mutex)
    }

    /// Ends every wait, now and later.
    package func stop() {
        pthread_mutex_lock(mutex)
        stopped = true
        pthread_cond_broadcast(condition)
        pthread_mutex_unlock(mutex)
    }

    /// Whether ``stop()`` has been called.
    package var isStopped: Bool {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return stopped
    }

    /// Sleeps until the flag is set (and clears it) or the signal is stopped; returns false
    /// once stopped.
    package func wait() -> Bool {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        while !woken && !stopped { pthread_cond_wait(condition, mutex) }
        woken = false
        return !stopped
    }
}
