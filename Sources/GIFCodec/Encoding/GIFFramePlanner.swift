import CodecCore

/// A frame whose pixels are decided: what the canvas shows after it (`target`), which pixels it
/// must draw (`drawn`), and its rectangle. Its disposal is decided when the next frame is
/// planned, which may also widen the rectangle, so it is written one frame late.
struct GIFPlannedFrame {
    /// The full canvas after this frame, packed colours (0 transparent).
    var target: [UInt32]
    /// 1 where the canvas before the frame differs from `target`.
    var drawn: [UInt8]
    var rect: FrameRect
    /// Delay Time, centiseconds.
    var delay: Int
    var disposal = Disposal.none
    /// Whether the frame names a transparent index even if none of its pixels uses it.
    var namesTransparent = false

    /// The frame with `target` and `drawn` cut to its rectangle (rows of `rect.width`).
    func cropped(canvasWidth: Int) -> GIFPlannedFrame {
        var frame = self
        frame.target = []
        frame.drawn = []
        frame.target.reserveCapacity(rect.width * rect.height)
        frame.drawn.reserveCapacity(rect.width * rect.height)
        for y in rect.y..<(rect.y + rect.height) {
            let row = y * canvasWidth
            frame.target += target[(row + rect.x)..<(row + rect.x + rect.width)]
            frame.drawn += drawn[(row + rect.x)..<(row + rect.x + rect.width)]
        }
        return frame
    }

    /// Whether the (cropped) frame needs the transparent index: a pixel needs no drawing, the
    /// frame is disposed to background, or it names one (``namesTransparent``).
    var needsTransparent: Bool {
        disposal == .background || namesTransparent || drawn.contains(0)
    }

    /// Adds the colours of the drawn pixels of the (cropped) frame; false when they are more
    /// than 256.
    func drawnColors(into set: inout GIFColorSet) -> Bool {
        for i in drawn.indices where drawn[i] != 0 {
            guard set.insert(target[i]) else { return false }
        }
        return true
    }
}

/// Decides, frame by frame, what each image of an animation draws (GIF89a §20, §23):
///
/// - A pixel is drawn only where the canvas before the frame differs from what the frame must
///   show; the image is cropped to the drawn pixels' bounding box, and pixels inside it that
///   need no drawing are left to the transparent index (``GIFFrameWriter``).
/// - The previous frame's disposal is chosen here, between "leave in place" (only possible when
///   every pixel that turns transparent was already so) and "restore to background" (clears its
///   rectangle, widened to cover the pixels that turn transparent), by the cheaper estimate: the
///   drawn pixels, plus an eighth of the pixels that the rectangles add without drawing.
/// - Frames with more than 256 colours are quantized (``GIFPaletteBuilder``, ``GIFPaletteMapper``)
///   over the drawn pixels only: a pixel whose input colour did not change and that the
///   canvas still shows keeps the colour it was given before, so still backgrounds stay still.
///
/// Colours are packed RGBA8 with alpha already thresholded: opaque, or 0 for transparent.
struct GIFFramePlanner {
    let width: Int
    let height: Int
    let dither: Bool
    private var previousInput: [UInt32]?
    /// Made for the first quantized frame and reused (it is large and clears only what was used).
    private var histogram: GIFColorHistogram?
    private var pending: GIFPlannedFrame?

    init(width: Int, height: Int, dither: Bool) {
        self.width = width
        self.height = height
        self.dither = dither
    }

    /// Plans the next frame; returns the previous one, now final, to be written.
    mutating func plan(_ input: [UInt32], delay: Int) -> GIFPlannedFrame? {
        var set = GIFColorSet()
        let fewColors = input.withUnsafeBufferPointer { set.insert(contentsOf: $0) }
        let previousTarget = pending?.target ?? [UInt32](repeating: 0, count: input.count)
        let turning = input.indices.map { input[$0] == 0 && previousTarget[$0] != 0 ? UInt8(1) : 0 }
        let toClear = Self.bounds(of: turning, width: width)

        var best: Option?
        if toClear == nil {
            best = option(input, canvas: previousTarget, previousTarget: previousTarget, fewColors: fewColors, extra: 0)
        }
        if let last = pending {
            let widened = toClear.map { Self.union(last.rect, $0) } ?? last.rect
            var canvas = previousTarget
            Self.clear(widened, in: &canvas, width: width)
            let extra = widened.width * widened.height - last.rect.width * last.rect.height
            var cleared = option(input, canvas: canvas, previousTarget: previousTarget, fewColors: fewColors, extra: extra)
            cleared.widened = widened
            if best.map({ cleared.cost < $0.cost }) ?? true { best = cleared }
        }
        guard let chosen = best else { return nil }
        let exact = chosen.exact
        var finished = pending
        if let widened = chosen.widened {
            finished?.disposal = .background
            finished?.rect = widened
        }
        var target = chosen.canvas
        let rect = chosen.bounds ?? FrameRect(x: 0, y: 0, width: 1, height: 1)
        if exact {
            for i in target.indices where chosen.drawn[i] != 0 { target[i] = input[i] }
        } else if let bounds = chosen.bounds {
            var histogram = self.histogram ?? GIFColorHistogram()
            self.histogram = nil
            histogram.removeAll()
            input.withUnsafeBufferPointer { p in chosen.drawn.withUnsafeBufferPointer { histogram.add(p, mask: $0) } }
            // 256 colours only for a first frame without transparency: it draws every pixel,
            // so it never needs the transparent entry; others keep one.
            let opaqueFirst = previousInput == nil && !input.contains(0)
            let palette = GIFPaletteBuilder.palette(histogram, maxColors: opaqueFirst ? 256 : 255)
            self.histogram = histogram
            GIFPaletteMapper.map(input, mask: chosen.drawn, rect: bounds, width: width, palette: palette,
                                 dither: dither, into: &target)
        }
        pending = GIFPlannedFrame(target: target, drawn: chosen.drawn, rect: rect, delay: delay)
        // Where no image has been drawn, browsers show transparency; Pillow shows the first
        // image's transparent index if it has one, else the background colour.
        pending?.namesTransparent = previousInput == nil && !rect.covers(width: width, height: height)
        previousInput = input
        return finished
    }

    /// The last frame, once every frame has been planned.
    mutating func finish() -> GIFPlannedFrame? {
        defer { pending = nil }
        return pending
    }

    /// One way to draw a frame: over `canvas`, the pixels in `drawn`, exactly or quantized;
    /// `widened` is the previous frame's rectangle when it is to be cleared first.
    private struct Option {
        var canvas: [UInt32]
        var drawn: [UInt8]
        var bounds: FrameRect?
        var exact: Bool
        var cost: Int
        var widened: FrameRect?
    }

    /// Draws the frame over `canvas`: exactly when the frame has at most 256 colours or the
    /// pixels to draw at most 255, else quantized. `extra`: pixels the previous frame's
    /// rectangle grows by.
    private func option(_ input: [UInt32], canvas: [UInt32], previousTarget: [UInt32], fewColors: Bool,
                        extra: Int) -> Option {
        var (drawn, bounds, count) = drawnPixels(input, canvas: canvas, previousTarget: previousTarget, exact: true)
        var exact = fewColors
        if !exact {
            var set = GIFColorSet()
            exact = input.withUnsafeBufferPointer { p in
                drawn.indices.allSatisfy { drawn[$0] == 0 || set.insert(p[$0]) } && set.count < GIFColorSet.capacity
            }
        }
        if !exact {
            (drawn, bounds, count) = drawnPixels(input, canvas: canvas, previousTarget: previousTarget, exact: false)
        }
        let area: Int = bounds.map { $0.width * $0.height } ?? 1
        let cost = count + (area - count + extra) / 8
        return Option(canvas: canvas, drawn: drawn, bounds: bounds, exact: exact, cost: cost)
    }

    /// The pixels the frame must draw over `canvas`: opaque pixels whose colour the canvas does
    /// not show, or, when quantizing, whose input changed or whose earlier colour was cleared.
    private func drawnPixels(_ input: [UInt32], canvas: [UInt32], previousTarget: [UInt32], exact: Bool)
        -> (drawn: [UInt8], bounds: FrameRect?, count: Int) {
        let n = min(input.count, canvas.count, previousTarget.count)
        let previous = exact ? nil : previousInput.flatMap { $0.count >= n ? $0 : nil }
        var count = 0
        let drawn = [UInt8](unsafeUninitializedCapacity: n) { out, initialized in
            input.withUnsafeBufferPointer { source in
                canvas.withUnsafeBufferPointer { shown in
                    previousTarget.withUnsafeBufferPointer { before in
                        if let previous {
                            previous.withUnsafeBufferPointer { was in
                                for i in 0..<n {
                                    let c = source[i]
                                    let draw = c != 0 && (c != was[i] || shown[i] != before[i])
                                    out[i] = draw ? 1 : 0
                                    count &+= draw ? 1 : 0
                                }
                            }
                        } else {
                            for i in 0..<n {
                                let c = source[i]
                                let draw = c != 0 && (!exact || shown[i] != c)
                                out[i] = draw ? 1 : 0
                                count &+= draw ? 1 : 0
                            }
                        }
                    }
                }
            }
            initialized = n
        }
        return (drawn, Self.bounds(of: drawn, width: width), count)
    }

    /// The bounding box of the nonzero bytes of `mask` (a `width`-wide canvas).
    private static func bounds(of mask: [UInt8], width: Int) -> FrameRect? {
        var minX = Int.max, minY = Int.max, maxX = -1, maxY = -1
        mask.withUnsafeBufferPointer { m in
            for y in 0..<(m.count / width) {
                let row = y &* width
                var x = 0
                while x < width && m[row &+ x] == 0 { x &+= 1 }
                guard x < width else { continue }
                var last = width &- 1
                while m[row &+ last] == 0 { last &-= 1 }
                minX = min(minX, x)
                maxX = max(maxX, last)
                if minY == .max { minY = y }
                maxY = y
            }
        }
        guard maxX >= 0 else { return nil }
        return FrameRect(x: minX, y: minY, width: maxX - minX + 1, height: maxY - minY + 1)
    }

    private static func union(_ a: FrameRect, _ b: FrameRect) -> FrameRect {
        let x0 = min(a.x, b.x), y0 = min(a.y, b.y)
        let x1 = max(a.x + a.width, b.x + b.width), y1 = max(a.y + a.height, b.y + b.height)
        return FrameRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    private static func clear(_ rect: FrameRect, in canvas: inout [UInt32], width: Int) {
        for y in rect.y..<(rect.y + rect.height) {
            for x in rect.x..<(rect.x + rect.width) { canvas[y * width + x] = 0 }
        }
    }
}
