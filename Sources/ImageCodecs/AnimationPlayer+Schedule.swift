/// The timeline: which frame is due when, loops, pauses for missing data, and drops.
extension AnimationPlayer {
    /// What the player knows of the source's frames, refreshed by the decoding thread.
    struct Timeline {
        /// Display time of each frame known so far, in microseconds (``FrameProperties/duration``).
        var durations: [Int] = []
        /// Frames `0..<arrivedCount` have all the data they will ever get.
        var arrivedCount = 0
        /// No more data will come: the frames known are all there are.
        var isEnded = false
        /// Times the animation plays; 0 means forever.
        var loopCount = 1
        /// Frames whose decode threw: they are skipped.
        var failed: Set<Int> = []

        var frameCount: Int { durations.count }

        /// Whether every frame is known and has arrived.
        var isWhole: Bool { isEnded && frameCount > 0 && arrivedCount == frameCount }

        /// The frame after frame `index` of loop `loop` (-1: before the first frame).
        ///
        /// It is `waiting` while its data has not arrived, or while the source may still add
        /// frames after the last one known; `end` after the last frame of the last loop.
        func successor(of index: Int, loop: Int) -> Step {
            let next = index + 1
            if next < frameCount { return next < arrivedCount ? .frame(next, loop: loop) : .waiting }
            guard isEnded else { return .waiting }
            guard frameCount > 0, loopCount == 0 || loop + 1 < loopCount else { return .end }
            return .frame(0, loop: loop + 1)
        }
    }

    /// A step along the timeline.
    enum Step: Equatable {
        case frame(Int, loop: Int)
        case waiting
        case end
    }

    /// Where playback stands: the frame due and when its display began.
    struct Playhead {
        /// The frame due; -1 before the first.
        var index = -1
        /// The loop it belongs to, counting from 0.
        var loop = 0
        /// When its display began on the timeline, in microseconds since playback started.
        var start = 0
        /// Whether it has been shown, or skipped because its decode threw.
        var isResolved = true
        /// Whether its time is over and the timeline waits for its successor's data; the
        /// successor's display begins when it is ready.
        var isPaused = true
    }
}

extension AnimationPlayer.PlaybackState {
    /// Walks the playhead to the frame due at `now` (microseconds); returns whether it moved.
    ///
    /// Frames passed over without being shown are dropped; with ``skipsLateFrames`` off, the
    /// walk stops at the first frame not shown yet instead, and one that is late (not decoded
    /// yet, or reached after its time was over) starts its display when it goes up. The walk stops at a frame whose data
    /// has not arrived: the timeline pauses there until the frame is buffered, and that frame's
    /// display begins at the time it is first found ready.
    mutating func advance(to now: Int) -> Bool {
        let before = (playhead.index, playhead.loop)
        skipWholeLoops(to: now)
        walk: while true {
            let step = timeline.successor(of: playhead.index, loop: playhead.loop)
            if playhead.isPaused {
                guard case .frame(let index, let loop) = step,
                      buffer.images[index] != nil || timeline.failed.contains(index) else { break walk }
                playhead = .init(index: index, loop: loop, start: now, isResolved: false, isPaused: false)
                continue
            }
            if !skipsLateFrames, !playhead.isResolved {
                // YYAnimatedImageView: a late frame is waited for, and shown for its whole
                // duration from when it goes up; no frame is passed over. A frame on time keeps
                // its place on the schedule.
                let index = playhead.index
                let notReady = buffer.images[index] == nil && !timeline.failed.contains(index)
                if notReady || now >= playhead.start + timeline.durations[index] { playhead.start = now }
                break walk
            }
            let end = playhead.start + timeline.durations[playhead.index]
            guard now >= end else { break walk }
            switch step {
            case .end:
                break walk
            case .waiting:
                playhead.isPaused = true
                break walk
            case .frame(let index, let loop):
                if !playhead.isResolved { framesDropped += 1 }
                playhead = .init(index: index, loop: loop, start: end, isResolved: false, isPaused: false)
            }
        }
        return before != (playhead.index, playhead.loop)
    }

    /// Jumps over whole loops that `now` lies beyond, counting their frames as dropped, so that a
    /// far jump costs at most two loops of walking.
    private mutating func skipWholeLoops(to now: Int) {
        guard skipsLateFrames, !playhead.isPaused, playhead.index >= 0, timeline.isWhole else { return }
        let cycle = timeline.durations.reduce(0, +)
        var loops = (now - playhead.start) / cycle - 1
        if timeline.loopCount > 0 { loops = min(loops, timeline.loopCount - 1 - playhead.loop) }
        guard loops > 0 else { return }
        framesDropped += loops * timeline.frameCount - (playhead.isResolved ? 1 : 0)
        playhead.loop += loops
        playhead.start += loops * cycle
        playhead.isResolved = false
    }

    /// Shows the frame due if it is buffered, or drops it if its decode threw.
    mutating func resolveDueFrame() {
        guard !playhead.isResolved else { return }
        if timeline.failed.contains(playhead.index) {
            framesDropped += 1
        } else if let image = buffer.images[playhead.index] {
            shown = (playhead.index, image)
            framesShown += 1
        } else {
            return
        }
        playhead.isResolved = true
    }

    /// The frame the playhead needs next that is not buffered yet, if any: the frame due while
    /// it is unshown, else its successor.
    var awaitedFrame: Int? {
        var index = playhead.index
        if playhead.isResolved {
            guard case .frame(let next, _) = timeline.successor(of: playhead.index, loop: playhead.loop) else { return nil }
            index = next
        }
        return buffer.images[index] == nil && !timeline.failed.contains(index) ? index : nil
    }

    /// Whether the last frame of the last loop has been shown (or skipped) and no more data will
    /// come, or nothing can ever be shown.
    var isFinished: Bool {
        if timeline.isEnded && timeline.failed.count == timeline.frameCount { return true }
        return playhead.isResolved && timeline.successor(of: playhead.index, loop: playhead.loop) == .end
    }
}
