#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A value reached only under a lock: a `pthread_mutex_t`, which ThreadSanitizer understands.
///
/// The standard library's `Synchronization.Mutex` takes its lock on Linux with the `futex`
/// system call directly (`FUTEX_LOCK_PI`), which ThreadSanitizer does not intercept: it sees no
/// ordering between two threads that used the same `Mutex` and reports the accesses inside
/// `withLock` as races. Every lock of the library is this one, so that a ThreadSanitizer run
/// reports only real races (SPEC-NOTES.md, "Threads").
package final class Locked<Value: ~Copyable>: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var value: Value

    package init(_ value: consuming Value) {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
        self.value = value
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` on the value while holding the lock.
    package func withLock<R: ~Copyable, E: Error>(_ body: (inout Value) throws(E) -> R) throws(E) -> R {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }

    /// Runs `body` on the value if the lock is free now, without waiting; nil if another
    /// thread holds it.
    package func withLockIfAvailable<R, E: Error>(_ body: (inout Value) throws(E) -> R) throws(E) -> R? {
        guard pthread_mutex_trylock(mutex) == 0 else { return nil }
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}
