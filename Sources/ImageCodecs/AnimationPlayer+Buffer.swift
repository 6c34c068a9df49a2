/// The frame buffer: which decoded frames are kept, within the byte budget.
extension AnimationPlayer {
    /// Decoded frames by index, and the bytes they hold.
    struct FrameBuffer {
        /// The bytes the buffered frames may hold; one frame is held whatever the budget.
        var budget: Int
        private(set) var images: [Int: DecodedImage] = [:]
        private(set) var bytes = 0
        private(set) var peakBytes = 0
        /// The pixel bytes of one canvas, once a frame has been decoded (all frames are canvases).
        private(set) var frameBytes: Int?

        init(budget: Int) {
            self.budget = budget
        }

        /// How many frames the budget holds: at least one.
        var slots: Int { frameBytes.map { max(1, budget / max(1, $0)) } ?? 1 }

        /// Evicts every frame not in `window`.
        mutating func keep(only window: [Int]) {
            let kept = Set(window)
            guard images.keys.contains(where: { !kept.contains($0) }) else { return }
            images = images.filter { kept.contains($0.key) }
            bytes = images.values.reduce(0) { $0 + $1.pixels.count }
        }

        /// Buffers frame `index`.
        mutating func insert(_ image: DecodedImage, at index: Int) {
            guard images[index] == nil else { return }
            images[index] = image
            bytes += image.pixels.count
            peakBytes = max(peakBytes, bytes)
        }

        /// Notes the size of a canvas, which sets how many frames the budget holds.
        mutating func measure(_ image: DecodedImage) {
            frameBytes = frameBytes ?? image.pixels.count
        }
    }
}

extension AnimationPlayer.PlaybackState {
    /// The frames the buffer should hold, in the order they will be due: the frame due while it
    /// is unshown, then its successors (wrapping round while loops remain), as many as the
    /// budget holds and at least one. Frames whose data has not arrived end the window.
    func window() -> [Int] {
        var frames: [Int] = []
        var (index, loop) = (playhead.index, playhead.loop)
        var considered = 0
        if !playhead.isResolved {
            considered = 1
            if !timeline.failed.contains(index) { frames.append(index) }
        }
        while frames.count < buffer.slots, considered < timeline.frameCount,
              case .frame(let next, let nextLoop) = timeline.successor(of: index, loop: loop) {
            considered += 1
            (index, loop) = (next, nextLoop)
            if !timeline.failed.contains(next) { frames.append(next) }
        }
        return frames
    }

    /// Evicts the frames outside the window.
    mutating func evictOutsideWindow() {
        buffer.keep(only: window())
    }

    /// The frame the decoding thread should decode next: the first in the window not buffered.
    func nextFrameToDecode() -> Int? {
        window().first { buffer.images[$0] == nil }
    }

    /// Buffers a frame the decoding thread decoded, if the window still wants it.
    mutating func store(_ image: DecodedImage, at index: Int) {
        buffer.measure(image)
        let window = window()
        buffer.keep(only: window)
        if window.contains(index) { buffer.insert(image, at: index) }
    }
}
