import CodecCore

/// Plans the frames of an animated WebP (RFC 9649 2.7.1.1) as the decoder will composite them:
/// each frame is cropped to the rectangle that changed (even offsets), drawn either replacing
/// its rectangle or alpha-blended with the unchanged pixels left transparent, and the previous
/// frame either left in place or disposed to background (cleared to transparent) — every
/// valid choice is encoded (by effort) and the smallest is kept.
///
/// Frames are VP8L, VP8 (with ALPH when not opaque), or per frame the smaller of the two
/// (`img2webp -mixed`). The canvas is tracked with the frames' source pixels, also for lossy
/// frames (the changed rectangles are those of the source, as img2webp finds them).
struct WebPFramePlanner {
    /// One planned frame, with its image chunks (VP8L, or ALPH and VP8).
    struct Frame {
        var x: Int, y: Int, width: Int, height: Int
        var duration: Int
        var blend: Bool
        var disposeToBackground = false
        var image: [UInt8]
        var hasAlpha: Bool
    }

    /// How frames are compressed.
    enum Coding { case lossless, lossy, mixed }

    let width: Int
    let height: Int
    let effort: Int
    let exact: Bool
    let coding: Coding
    /// The options of lossy frames (quality, alpha quality).
    let options: EncodingOptions
    /// The canvas as the decoder shows it after the last planned frame.
    private var canvas: [UInt32]
    private(set) var frames: [Frame] = []

    init(width: Int, height: Int, effort: Int, exact: Bool, coding: Coding = .lossless,
         options: EncodingOptions = EncodingOptions()) {
        self.width = width
        self.height = height
        self.effort = effort
        self.exact = exact
        self.coding = coding
        self.options = options
        canvas = [UInt32](repeating: 0, count: width * height)
    }

    /// Plans the next frame (ARGB, the full canvas) shown for `duration` milliseconds.
    mutating func add(_ argb: [UInt32], duration: Int) throws(EncodingError) {
        var target = argb
        if !exact {
            for i in target.indices where target[i] < 0x0100_0000 { target[i] = 0 }
        }
        var states: [(disposes: Bool, pixels: [UInt32])] = [(false, canvas)]
        if let previous = frames.last, effort >= 3 {
            var cleared = canvas
            for y in previous.y..<(previous.y + previous.height) {
                for x in previous.x..<(previous.x + previous.width) { cleared[y * width + x] = 0 }
            }
            states.append((true, cleared))
        }
        var candidates: [Candidate] = []
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
                if let c = candidate(target, over: state.pixels, rect: rect, blend: blend, disposes: state.disposes) {
                    candidates.append(c)
                }
            }
        }
        if candidates.isEmpty, let c = candidate(target, over: canvas, rect: (0, 0, 1, 1), blend: false, disposes: false) {
            candidates.append(c)
        }
        // Several choices are compared by encoding each; below effort 7 by fast encodings, the
        // winner then encoded again at the effort asked.
        let trialEffort = effort >= 7 || candidates.count == 1 ? effort : min(effort, 1)
        var best: (candidate: Candidate, image: [UInt8])?
        for c in candidates {
            let image = try encode(c, effort: trialEffort)
            if best.map({ image.count < $0.image.count }) ?? true { best = (c, image) }
        }
        guard let best else { return }
        let chosen = best.candidate
        let image = trialEffort != effort ? try encode(chosen, effort: effort) : best.image
        if chosen.disposesPrevious { frames[frames.count - 1].disposeToBackground = true }
        frames.append(Frame(x: chosen.rect.x, y: chosen.rect.y, width: chosen.rect.width, height: chosen.rect.height,
                            duration: duration, blend: chosen.blend, image: image, hasAlpha: chosen.hasAlpha))
        canvas = target
    }

    /// A candidate's image chunks: VP8L, VP8 (and ALPH), or the smaller of the two.
    private func encode(_ c: Candidate, effort: Int) throws(EncodingError) -> [UInt8] {
        var lossless: [UInt8]?
        if coding != .lossy {
            var pixels = c.pixels
            lossless = WebPChunkWriter.chunk("VP8L", VP8LEncoder.encode(argb: &pixels, width: c.rect.width,
                                                                         height: c.rect.height, effort: effort, exact: exact))
        }
        guard coding != .lossless else { return lossless ?? [] }
        var o = options
        o.effort = effort
        let (vp8, alpha) = try WebPLossyEncoder.encode(argb: c.pixels, width: c.rect.width, height: c.rect.height, options: o)
        let lossy = (alpha.map { WebPChunkWriter.chunk("ALPH", $0) } ?? []) + WebPChunkWriter.chunk("VP8 ", vp8)
        if let lossless, lossless.count <= lossy.count { return lossless }
        return lossy
    }

    /// One way to draw a frame: its rectangle's pixels, blended or not, over the canvas left
    /// as it is or with the previous frame disposed.
    private struct Candidate {
        var rect: (x: Int, y: Int, width: Int, height: Int)
        var blend: Bool
        var disposesPrevious: Bool
        var pixels: [UInt32]
        var hasAlpha: Bool
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
    /// transparent ones). Nil when `blend` cannot give `target`, or gives what replacing gives
    /// (no unchanged pixel in the rectangle).
    private func candidate(_ target: [UInt32], over base: [UInt32], rect: (x: Int, y: Int, width: Int, height: Int),
                           blend: Bool, disposes: Bool) -> Candidate? {
        var sub = [UInt32](repeating: 0, count: rect.width * rect.height)
        var hasAlpha = false
        var cleared = false
        for y in 0..<rect.height {
            for x in 0..<rect.width {
                let i = (rect.y + y) * width + rect.x + x
                var pixel = target[i]
                if blend {
                    if pixel == base[i] {
                        cleared = cleared || pixel != 0
                        pixel = 0
                    } else if pixel >> 24 != 0xFF {
                        return nil
                    }
                }
                if pixel >> 24 != 0xFF { hasAlpha = true }
                sub[y * rect.width + x] = pixel
            }
        }
        if blend && !cleared { return nil }
        return Candidate(rect: rect, blend: blend, disposesPrevious: disposes, pixels: sub, hasAlpha: hasAlpha)
    }
}

/// RFC 9649 2.7.1.1: ANMF fields.
enum WebPAnimationLimits {
    /// The frame duration is 24 bits of milliseconds.
    static let maxDuration = (1 << 24) - 1
}
