import CodecCore

/// Waiting for bytes to arrive: an ``AnimationPlayer`` (or any task that shows a downloading
/// image) sleeps until the next ``ImageSource/append(_:final:)`` instead of polling.
extension ImageSource {
    /// The appends so far and the continuations of the tasks waiting for the next one.
    struct Changes {
        var revision = 0
        var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
        var nextWaiter = 0
        /// Called after every change, on the appending thread (the player's decoding thread
        /// is woken this way).
        var observers: [Int: @Sendable () -> Void] = [:]
    }

    /// Counts the calls to ``append(_:final:)`` and ``update(data:final:)`` so far.
    public var revision: Int { changes.withLock { $0.revision } }

    /// Returns once the source has changed after `revision` (at once if it already has), or
    /// when the calling task is cancelled.
    public func waitForChange(after revision: Int) async {
        let id = changes.withLock { c -> Int in
            c.nextWaiter += 1
            return c.nextWaiter
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let resumeNow = changes.withLock { c -> Bool in
                    if c.revision > revision || Task.isCancelled { return true }
                    c.waiters[id] = continuation
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            changes.withLock { $0.waiters.removeValue(forKey: id) }?.resume()
        }
    }

    /// Counts an append and wakes the tasks waiting for it and the observers.
    func announceChange() {
        let (woken, observers) = changes.withLock { c in
            c.revision += 1
            defer { c.waiters.removeAll() }
            return (Array(c.waiters.values), Array(c.observers.values))
        }
        for continuation in woken { continuation.resume() }
        for observer in observers { observer() }
    }

    /// Calls `observer` after every later change until ``removeObserver(_:)``; returns its key.
    func addObserver(_ observer: @escaping @Sendable () -> Void) -> Int {
        changes.withLock { c in
            c.nextWaiter += 1
            c.observers[c.nextWaiter] = observer
            return c.nextWaiter
        }
    }

    func removeObserver(_ key: Int) {
        changes.withLock { _ = $0.observers.removeValue(forKey: key) }
    }
}
