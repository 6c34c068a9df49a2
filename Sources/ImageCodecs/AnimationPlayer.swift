import CodecCore

/// Plays an ``ImageSource`` on a timeline: YYImage's `YYAnimatedImageView` frame buffer and
/// SDWebImage's `SDAnimatedImagePlayer` for Swift.
///
/// Ask ``frame(at:)`` for the frame to show at a time since playback started, as often as the
/// display refreshes. Frames last their browser-clamped ``FrameProperties/duration``; the
/// animation plays ``ImageProperties/loopCount`` times (0: forever) and then its last frame stays.
///
/// A thread of the player's own decodes the frames ahead of the playhead into a buffer of at most
/// `bufferBudget` bytes and evicts those behind it. With a budget below one canvas it holds only
/// the frame after the one shown, decoded as that one goes up (YYImage under memory pressure).
/// When decoding falls behind, the playhead skips to the frame that is due and counts the frames
/// it passed over as ``framesDropped``; a frame whose decode throws is skipped the same way.
///
/// The source may still be downloading: frames are played as their data arrives, and when the
/// next frame's data is missing at its time the timeline pauses on the frame shown, resuming
/// with that frame as soon as it has arrived and been decoded (waiting is not a drop).
///
/// ``frame(at:)`` never touches the source, whose renderer the decoding thread holds while it
/// decodes: everything it needs (durations, loops, which frames have arrived, the buffer, the
/// playhead) lives in the player's own state, which the thread refreshes. The thread is an
/// operating-system thread, not a task: a frame decode never holds one of Swift concurrency's
/// cooperative threads. Releasing the player stops the thread after its current decode.
public final class AnimationPlayer: Sendable {
    /// The state shared with the decoding thread.
    let core: Core
    /// Time on the player's clock since the player was made.
    private let elapsed: @Sendable () -> Duration

    /// Starts decoding `source` ahead of playback.
    ///
    /// `bufferBudget` bounds the bytes of decoded frames held ahead of the playhead (0 holds just
    /// the next frame); `loops`, when given, replaces the file's loop count (0: forever).
    /// `clock` times ``currentFrame()`` from the moment the player is made (tests inject a
    /// clock they move by hand); the decoding thread never sleeps on it — it waits until
    /// ``frame(at:)`` needs a frame or the source receives bytes.
    public init(source: ImageSource, bufferBudget: Int, loops: Int? = nil,
                clock: some Clock<Duration> = ContinuousClock()) {
        let start = clock.now
        elapsed = { start.duration(to: clock.now) }
        let core = Core(source: source, budget: max(0, bufferBudget), loops: loops.map { max(0, $0) })
        self.core = core
        DetachedThread.start { core.run() }
    }

    deinit {
        core.wake.stop()
        core.state.withLock { $0.observers.values }.forEach { $0.finish() }
    }

    /// The frame to show `elapsed` after playback started, or nil before the first one is ready.
    ///
    /// Walks the playhead forward to the frame due; that frame is shown if it is buffered,
    /// otherwise the last frame shown stays. Returns at once: it never waits on a decode.
    ///
    /// Frame 0's display begins at the first call that finds it decoded, so playback starts
    /// when there is something to show; likewise a frame the timeline paused for begins at the
    /// first call that finds it ready. Times should not decrease: an earlier time than the last
    /// leaves the playhead where it is.
    public func frame(at elapsed: Duration) -> (index: Int, image: DecodedImage)? {
        let now = Self.microseconds(elapsed)
        let (shown, needsDecode, changed) = core.state.withLock { s in
            let moved = s.advance(to: now)
            if moved { s.evictOutsideWindow() }
            let before = s.framesShown
            s.resolveDueFrame()
            let changed = s.framesShown != before ? Array(s.observers.values) : []
            return (s.shown, moved || s.awaitedFrame != nil, changed)
        }
        if needsDecode { core.wake.wake() }
        if let index = shown?.index { changed.forEach { $0.yield(index) } }
        return shown
    }

    /// The frame to show now on the player's clock: ``frame(at:)`` of the time since the
    /// player was made. Call it on every display refresh.
    public func currentFrame() -> (index: Int, image: DecodedImage)? {
        frame(at: elapsed())
    }

    /// Frames whose display time passed without being shown while their data was there, and
    /// frames skipped because their decode threw.
    public var framesDropped: Int { core.state.withLock { $0.framesDropped } }

    /// Frames shown so far, counting each loop's showing of a frame.
    public var framesShown: Int { core.state.withLock { $0.framesShown } }

    /// The largest sum of buffered frames' pixel bytes seen. The frame on show is held apart
    /// from the buffer once the buffer needs its room (for the frames after it), so the player
    /// holds at most one canvas beyond this.
    public var peakBufferBytes: Int { core.state.withLock { $0.buffer.peakBytes } }

    /// Whether playback is over: the last frame of the last loop is showing and no more data
    /// will come (or nothing can ever be shown: no frames, or none that decodes).
    public var isFinished: Bool { core.state.withLock { $0.isFinished } }

    /// `duration` in whole microseconds, clamped to ±2⁵³ µs (285 years) so that schedule
    /// arithmetic cannot overflow.
    static func microseconds(_ duration: Duration) -> Int {
        let (seconds, attoseconds) = duration.components
        let limit: Int64 = (1 << 53) / 1_000_000
        guard seconds > -limit, seconds < limit else { return seconds < 0 ? -(1 << 53) : 1 << 53 }
        return Int(seconds) * 1_000_000 + Int(attoseconds / 1_000_000_000_000)
    }
}

extension AnimationPlayer {
    /// What the player and its decoding thread share; the thread holds this, never the player.
    final class Core: Sendable {
        let source: ImageSource
        /// The loop count that replaces the file's, if any.
        let loops: Int?
        /// Wakes the decoding thread: a frame is needed, or the source has changed; stopped
        /// when the player goes.
        let wake = WakeSignal()
        let state: Locked<PlaybackState>

        init(source: ImageSource, budget: Int, loops: Int?) {
            self.source = source
            self.loops = loops
            state = Locked(PlaybackState(buffer: FrameBuffer(budget: budget)))
        }
    }

    /// Everything ``frame(at:)`` reads: the schedule, the playhead, the buffer and the counters.
    struct PlaybackState {
        var timeline = Timeline()
        var playhead = Playhead()
        var buffer: FrameBuffer
        /// The frame on show.
        var shown: (index: Int, image: DecodedImage)?
        var framesShown = 0
        var framesDropped = 0
        /// Skip to the frame due when decoding falls behind (true), or wait for it (false).
        var skipsLateFrames = true
        /// The streams of ``AnimationPlayer/frameChanges``, by key.
        var observers: [Int: AsyncStream<Int>.Continuation] = [:]
        var nextObserver = 0
    }
}
