/// Wakes a thread that sleeps until there is work: a flag under a ``ConditionLock``. A ``wake()`` before ``wait()`` is not lost: the flag stays set until a
/// wait takes it. ``stop()`` ends every wait for good.
package final class WakeSignal: @unchecked Sendable {
    private let lock = ConditionLock()
    private var woken = false
    private var stopped = false

    package init() {}

    /// Sets the flag and wakes the waiting thread, if any.
    package func wake() {
        lock.lock()
        woken = true
        lock.signal()
        lock.unlock()
    }

    /// Ends every wait, now and later.
    package func stop() {
        lock.lock()
        stopped = true
        lock.broadcast()
        lock.unlock()
    }

    /// Whether ``stop()`` has been called.
    package var isStopped: Bool {
        lock.lock()
        defer { lock.unlock() }
        return stopped
    }

    /// Sleeps until the flag is set (and clears it) or the signal is stopped; returns false
    /// once stopped.
    package func wait() -> Bool {
        lock.lock()
        defer { lock.unlock() }
        while !woken && !stopped { lock.wait() }
        woken = false
        return !stopped
    }
}
