/// What a view does to a player besides asking for frames: YYAnimatedImageView's
/// `currentAnimatedImageIndex`, `maxBufferSize` and memory-warning purge, and its habit of
/// waiting for a late frame rather than skipping it.
extension AnimationPlayer {
    /// Whether the playhead skips to the frame due when decoding falls behind, counting the
    /// frames passed over in ``framesDropped`` (true, the default: SDAnimatedImagePlayer), or
    /// waits on the late frame and shows every frame for its whole duration from when it is
    /// ready, the animation running slower (false: YYAnimatedImageView).
    public var skipsLateFrames: Bool {
        get { core.state.withLock { $0.skipsLateFrames } }
        set { core.state.withLock { $0.skipsLateFrames = newValue } }
    }

    /// The bytes of decoded frames held ahead of the playhead (at least the next frame is held
    /// whatever it says). Lowering it evicts the frames past the new window at once.
    public var bufferBudget: Int {
        get { core.state.withLock { $0.buffer.budget } }
        set {
            core.state.withLock { s in
                s.buffer.budget = max(0, newValue)
                s.evictOutsideWindow()
            }
            core.wake.wake()
        }
    }

    /// Frees every buffered frame (for memory pressure, as YYAnimatedImageView on a memory
    /// warning); the frame on show stays on show. The decoding thread then decodes the next
    /// frames again, as many as ``bufferBudget`` holds: lower the budget first to hold less.
    public func purge() {
        core.state.withLock { $0.buffer.keep(only: []) }
        core.wake.wake()
    }

    /// Moves the playhead to frame `index` of the first loop: that frame's display begins at
    /// the next ``frame(at:)`` call that finds it decoded, and the timeline runs on from there
    /// (the time passed to ``frame(at:)`` keeps counting from the start of playback). Returns
    /// false, changing nothing, when `index` is not a frame whose data has arrived.
    @discardableResult
    public func seek(to index: Int) -> Bool {
        let moved = core.state.withLock { s -> Bool in
            guard index >= 0, index < s.timeline.arrivedCount else { return false }
            s.playhead = Playhead(index: index - 1, loop: 0, start: 0, isResolved: true, isPaused: true)
            s.evictOutsideWindow()
            return true
        }
        if moved { core.wake.wake() }
        return moved
    }

    /// Starts over: frame 0 of the first loop, shown at the next ``frame(at:)`` call that finds
    /// it decoded, with ``framesShown`` and ``framesDropped`` back at 0. The frame on show stays
    /// until then.
    public func reset() {
        core.state.withLock { s in
            s.playhead = Playhead()
            s.framesShown = 0
            s.framesDropped = 0
            s.evictOutsideWindow()
        }
        core.wake.wake()
    }

    /// The index of each frame as it goes up, from the moment the stream is made, for as long
    /// as it is iterated (SDAnimatedImagePlayer's `animationFrameHandler`). Frames go up in
    /// ``frame(at:)``, on the thread that calls it; a slow reader gets every index, buffered.
    public var frameChanges: AsyncStream<Int> {
        let (stream, continuation) = AsyncStream<Int>.makeStream()
        let key = core.state.withLock { s -> Int in
            defer { s.nextObserver += 1 }
            s.observers[s.nextObserver] = continuation
            return s.nextObserver
        }
        continuation.onTermination = { [weak core] _ in
            core?.state.withLock { _ = $0.observers.removeValue(forKey: key) }
        }
        return stream
    }
}
