/// The decoding thread: refreshes the timeline from the source and decodes ahead of playback.
extension AnimationPlayer.Core {
    /// Decodes the frames the window wants, one at a time, until the signal is stopped.
    ///
    /// Runs on a thread of its own (``DetachedThread``), never on a cooperative thread of Swift
    /// concurrency: a frame decode holds its thread for as long as it takes. Only this thread
    /// decodes or reads the source. It sleeps on ``wake`` when there is nothing to decode:
    /// ``AnimationPlayer/frame(at:)`` signals there when the playhead moves or needs a frame,
    /// and the source whenever it receives bytes.
    func run() {
        let observer = source.addObserver { [wake] in wake.wake() }
        defer { source.removeObserver(observer) }
        var refreshedRevision: Int?
        while !wake.isStopped {
            let revision = source.revision
            if revision != refreshedRevision {
                refresh()
                refreshedRevision = revision
            }
            if let index = state.withLock({ $0.nextFrameToDecode() }) {
                decode(index)
            } else if !wake.wait() {
                break
            }
        }
    }

    /// Decodes frame `index` (on the source's renderer, not holding the player's lock) and buffers it, or
    /// marks it failed so that playback skips it.
    private func decode(_ index: Int) {
        do {
            let image = try source.image(at: index)
            state.withLock { $0.store(image, at: index) }
        } catch {
            state.withLock { _ = $0.timeline.failed.insert(index) }
            refresh()
        }
    }

    /// Brings the timeline up to date with the source: frames known and their durations, frames
    /// whose data has arrived, the loop count, and whether more data can come.
    ///
    /// The status is read first: once it says the data is final, the counts read after it are
    /// final too. When no more data will come, every known frame counts as arrived: a truncated
    /// frame is shown as far as it goes, and one that cannot be decoded is skipped.
    private func refresh() {
        let status = source.status
        let isEnded = status != .readingHeader && status != .incomplete
        let count = source.count
        let loopCount = loops ?? source.properties?.loopCount ?? 1
        let (known, arrived) = state.withLock { ($0.timeline.frameCount, $0.timeline.arrivedCount) }
        let durations = (known..<max(known, count)).map { Self.microseconds(seconds: source.properties(at: $0)?.duration) }
        var nowArrived = isEnded ? max(known, count) : arrived
        while nowArrived < count, source.status(at: nowArrived) == .complete { nowArrived += 1 }
        state.withLock { s in
            s.timeline.durations += durations
            s.timeline.arrivedCount = nowArrived
            s.timeline.loopCount = loopCount
            s.timeline.isEnded = isEnded
        }
    }

    /// A frame duration in whole microseconds, at least 1 and at most a day; a frame whose
    /// duration is unknown or not finite lasts 100 ms.
    static func microseconds(seconds: Double?) -> Int {
        guard let seconds, seconds.isFinite else { return 100_000 }
        return max(1, Int((min(max(seconds, 0), 86_400) * 1_000_000).rounded()))
    }
}
