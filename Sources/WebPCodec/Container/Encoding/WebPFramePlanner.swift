/// Plans the frames of an animated WebP (RFC 9649 2.7.1.1) as the decoder will composite them:
/// each frame is cropped to the rectangle that changed (even offsets), drawn either replacing
/// its rectangle or alpha-blended with the unchanged pixels left transparent, and the previous
/// frame either left in place or disposed to background (cleared to transparent) — every
/// valid choice is encoded (by effort) and the smallest is kept.
struct WebPFramePlanner {
    /// One planned frame, with its encoded VP8L bitstream.
    struct Frame {
        var x: Int, y: Int, width: Int, height: Int
        var duration: Int
        var blend: Bool
        var disposeToBackground = false
        var vp8l: [UInt8]
        var hasAlpha: Bool
    }

    let width: Int
    let height: Int
    let effort: Int
    let exact: Bool
    /// The canvas as the decoder shows it after the last planned frame.
    private var canvas: [UInt32]
    private(set) var frames: [Frame] = []

    init(width: Int, height: Int, effort: Int, exact: Bool) {
        self.width = width
        self.height = height
        self.effort = effort
        self.exact = exact
        canvas = [UInt32](repeating: 0, count: width * height)
    }

    /// Plans the next frame (ARGB, the full canvas) shown for `duration` milliseconds.
    mutating func add(_ argb: [UInt32], duration: Int) {
        var target = argb
        if !exact {
            for i in target.indices where target[i] < 0x0100_0000 { target[i] = 0 }
        }
        var best: Frame?
        var bestBase = canvas
        var bestDisposesPrevious = false
        // Below effort 7 the choices are compared by fast encodings and the winner is encoded again.
        let trialEffort = effort >= 7 ? effort : min(effort, 1)
        var states: [(disposes: Bool, pixels: [UInt32])] = [(false, canvas)]
        if let previous = frames.last, effort >= 3 {
            var cleared = canvas
            for y in previous.y..<(previous.y + previous.height) {
                for x in previous.x..<(previous.x + previous.width) { cleared[y * width + x] = 0 }
            }
            states.append((true, cleared))
        }
        for state in states {
            guard let rect = changedRect(target, state.pixels) else {
                if !state.disposes, !frames.isEmpty {
                    // Nothing changed: the previous frame stays longer.
                    let merged = frames[frames.count - 1].duration + duration
                    if merged <= WebPAnimationLimits.maxDuration {
                        frames[frames.count - 1].duration = merged
                        canvas = target
                        return
                    }
                }
                continue
            }
            for blend in [false, true] {
                guard let candidate = encode(target, over: state.pixels, rect: rect, blend: blend, duration: duration,
                                             effort: trialEffort)
                else { continue }
                if best.map({ candidate.vp8l.count < $0.vp8l.count }) ?? true {
                    best = candidate
                    bestBase = state.pixels
                    bestDisposesPrevious = state.disposes
                }
            }
        }
        var frame = best ?? encode(target, over: states[0].pixels, rect: (0, 0, 1, 1), blend: false, duration: duration,
                                   effort: effort)
        if let chosen = best, trialEffort != effort {
            frame = encode(target, over: bestBase, rect: (chosen.x, chosen.y, chosen.width, chosen.height),
                           blend: chosen.blend, duration: duration, effort: effort)
        }
        if bestDisposesPrevious { frames[frames.count - 1].disposeToBackground = true }
        if let frame { frames.append(frame) }
        canvas = target
    }

    /// The bounding box of the pixels that differ, its origin moved to even coordinates; nil
    /// when none differ.
    private func changedRect(_ a: [UInt32], _ b: [UInt32]) -> (x: Int, y: Int, width: Int, height: Int)? {
        var minX = width, minY = height, maxX = -1, maxY = -1
        a.withUnsafeBufferPointer { a in
            b.withUnsafeBufferPointer { b in
                for y in 0..<height {
                    let row = y &* width
                    var x = 0
                    while x < width && a[row &+ x] == b[row &+ x] { x &+= 1 }
                    if x == width { continue }
                    var last = width &- 1
                    while a[row &+ last] == b[row &+ last] { last &-= 1 }
                    minX = min(minX, x)
                    maxX = max(maxX, last)
                    if minY == height { minY = y }
                    maxY = y
                }
            }
        }
        guard maxX >= 0 else { return nil }
        let x = minX & ~1, y = minY & ~1
        return (x, y, maxX + 1 - x, maxY + 1 - y)
    }

    /// The frame drawing `rect` of `target` over `base`: replacing it, or (`blend`) blended
    /// with the unchanged pixels transparent, which only works when every changed pixel is
    /// opaque (the decoder copies opaque pixels as they are and keeps the canvas under
    /// transparent ones). Nil when `blend` cannot give `target`.
    private func encode(_ target: [UInt32], over base: [UInt32], rect: (x: Int, y: Int, width: Int, height: Int),
                        blend: Bool, duration: Int, effort: Int) -> Frame? {
        var sub = [UInt32](repeating: 0, count: rect.width * rect.height)
        var hasAlpha = false
        for y in 0..<rect.height {
            for x in 0..<rect.width {
                let i = (rect.y + y) * width + rect.x + x
                var pixel = target[i]
                if blend {
                    if pixel == base[i] {
                        pixel = 0
                    } else if pixel >> 24 != 0xFF {
                        return nil
                    }
                }
                if pixel >> 24 != 0xFF { hasAlpha = true }
                sub[y * rect.width + x] = pixel
            }
        }
        let vp8l = VP8LEncoder.encode(argb: &sub, width: rect.width, height: rect.height, effort: effort, exact: exact)
        return Frame(x: rect.x, y: rect.y, width: rect.width, height: rect.height, duration: duration, blend: blend,
                     vp8l: vp8l, hasAlpha: hasAlpha)
    }
}

/// RFC 9649 2.7.1.1: ANMF fields.
enum WebPAnimationLimits {
    /// The frame duration is 24 bits of milliseconds.
    static let maxDuration = (1 << 24) - 1
}
