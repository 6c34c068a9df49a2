import CodecCore

/// Encodes GIF89a files: stills and animations, exact for frames of at most 256 colours and
/// quantized otherwise (SPEC-NOTES.md, "GIF encoding").
///
/// Frames are held (alpha thresholded, 4 bytes a pixel) until ``finish(to:)``: whether one
/// Global Color Table can serve every frame is known only once all have been planned (each
/// planned frame is kept cropped to what it draws). The file is then written to the sink
/// frame by frame.
package struct GIFEncoder: ImageEncoding {
    /// Alpha below this is the transparent index; at or above it the pixel is opaque.
    package static let alphaThreshold: UInt8 = 128
    /// The largest Delay Time (§23, 16 bits), in centiseconds.
    package static let maxDelay = 65535

    package let options: EncodingOptions
    private var canvas: EncodingCanvas?
    private var frames: [(pixels: [UInt32], delay: Int)] = []
    private var finished = false

    package var supportsAnimation: Bool { true }
    /// Colour reduction depends on the input, not on ``EncodingOptions/quality``.
    package var isLossy: Bool { false }

    package init(options: EncodingOptions) {
        self.options = options
    }

    /// Checks the canvas: width and height 1…65535 (§18, 16-bit fields) and a loop count that
    /// fits the NETSCAPE2.0 extension's 16 bits.
    package mutating func begin(_ canvas: EncodingCanvas, to sink: inout some ByteSink) throws(EncodingError) {
        guard self.canvas == nil, !finished else { throw .invalidRequest("begin called twice") }
        guard canvas.width > 0, canvas.height > 0 else { throw .invalidRequest("canvas width and height must be positive") }
        guard canvas.width <= 65535, canvas.height <= 65535 else {
            throw .limitExceeded("GIF width and height are at most 65535")
        }
        guard (0...65535).contains(canvas.loopCount) else { throw .invalidRequest("loop count must be within 0...65535") }
        self.canvas = canvas
    }

    /// Takes one frame of the canvas size; RGBA16 is narrowed to 8 bits.
    package mutating func add(_ frame: EncodingFrame, to sink: inout some ByteSink) throws(EncodingError) {
        guard let canvas, !finished else { throw .invalidRequest("add called before begin or after finish") }
        guard frame.width == canvas.width, frame.height == canvas.height else {
            throw .invalidRequest("every GIF frame must have the canvas size")
        }
        guard frames.count < canvas.frameCount else { throw .invalidRequest("more frames than the canvas announced") }
        let delay = try Self.centiseconds(frame.duration)
        frames.append((Self.packed(frame), delay))
    }

    /// Plans and writes every frame, then the Trailer (§27).
    package mutating func finish(to sink: inout some ByteSink) throws(EncodingError) {
        guard let canvas, !finished else { throw .invalidRequest("finish called before begin or twice") }
        guard !frames.isEmpty else { throw .invalidRequest("a GIF needs at least one frame") }
        finished = true
        let animated = frames.count > 1
        var planner = GIFFramePlanner(width: canvas.width, height: canvas.height, dither: options.dithering)
        var planned: [GIFPlannedFrame] = []
        for i in frames.indices {
            let (pixels, delay) = frames[i]
            frames[i].pixels = []
            if let ready = planner.plan(pixels, delay: delay) { planned.append(ready.cropped(canvasWidth: canvas.width)) }
        }
        if let last = planner.finish() { planned.append(last.cropped(canvasWidth: canvas.width)) }
        frames = []
        let global = animated ? Self.globalTable(planned) : nil
        var out: [UInt8] = []
        for (i, frame) in planned.enumerated() {
            let table = GIFFrameWriter.table(for: frame, global: global)
            if i == 0 {
                GIFBlockWriter.header(width: canvas.width, height: canvas.height,
                                      globalTable: animated ? global?.colors : table.colors.colors, into: &out)
                if animated && canvas.loopCount != 1 { GIFBlockWriter.loop(canvas.loopCount, into: &out) }
            }
            let start = out.count
            GIFFrameWriter.write(frame, table: table, localTable: animated && !table.isGlobal, animated: animated,
                                 interlaced: options.interlace, into: &out)
            // A frame of few colours may be smaller with a small local table (short codes) than
            // with the global one: both are tried.
            if animated && table.isGlobal && global.map({ $0.count > 16 }) == true {
                var local: [UInt8] = []
                GIFFrameWriter.write(frame, table: GIFFrameWriter.localTable(for: frame), localTable: true,
                                     animated: animated, interlaced: options.interlace, into: &local)
                if local.count < out.count - start { out.replaceSubrange(start..., with: local) }
            }
            try sink.write(out)
            out.removeAll(keepingCapacity: true)
        }
        GIFBlockWriter.trailer(into: &out)
        try sink.write(out)
    }

    /// A duration in centiseconds, rounded to the nearest (halves up) and capped at 65535.
    static func centiseconds(_ duration: Duration) throws(EncodingError) -> Int {
        let (seconds, attoseconds) = duration.components
        guard seconds >= 0, attoseconds >= 0 else { throw .invalidRequest("frame duration must not be negative") }
        guard seconds < Int64(maxDelay / 100 + 1) else { return maxDelay }
        let cs = Int(seconds) * 100 + Int((attoseconds + 5_000_000_000_000_000) / 10_000_000_000_000_000)
        return min(cs, maxDelay)
    }

    /// The frame's pixels packed (R in the low byte), alpha below ``alphaThreshold`` as 0 and
    /// the rest opaque.
    static func packed(_ frame: EncodingFrame) -> [UInt32] {
        let pixels = frame.rgba8Pixels()
        let count = frame.width * frame.height
        return [UInt32](unsafeUninitializedCapacity: count) { out, initialized in
            pixels.withUnsafeBufferPointer { p in
                for i in 0..<min(count, p.count / 4) {
                    let base = i &* 4
                    out[i] = p[base &+ 3] < alphaThreshold ? 0
                        : UInt32(p[base]) | UInt32(p[base &+ 1]) << 8 | UInt32(p[base &+ 2]) << 16 | 0xFF00_0000
                }
            }
            initialized = count
        }
    }

    /// The Global Color Table of an animation: every colour the frames draw, when they fit
    /// (with the transparent entry when there is room); otherwise the
    /// colours of the frames, in order, whose drawn colours fit 255 entries together, plus the
    /// transparent entry (the other frames get local tables); nil when no frame's colours fit.
    /// Ordered by ``ordered(_:by:)``.
    static func globalTable(_ frames: [GIFPlannedFrame]) -> GIFColorSet? {
        var all = GIFColorSet()
        var allFit = true
        var sets: [GIFColorSet] = []
        for frame in frames {
            var set = GIFColorSet()
            guard frame.drawnColors(into: &set) else {
                allFit = false
                continue
            }
            sets.append(set)
            if allFit { allFit = set.colors.allSatisfy { all.insert($0) } }
        }
        // Full (256 colours): frames that need a transparent index take one they do not draw.
        if allFit {
            _ = all.insert(0)
            return ordered(all, by: sets)
        }
        var union = GIFColorSet()
        for set in sets {
            var trial = union
            if set.colors.allSatisfy({ trial.insert($0) }) && trial.count < GIFColorSet.capacity { union = trial }
        }
        guard union.count > 0 else { return nil }
        _ = union.insert(0)
        return ordered(union, by: sets)
    }

    /// `table` with the transparent entry first, then the colours drawn by the most frames:
    /// a frame that draws only common colours uses low indices, so a smaller LZW code size.
    static func ordered(_ table: GIFColorSet, by frames: [GIFColorSet]) -> GIFColorSet {
        var uses = [UInt32: Int]()
        for frame in frames {
            for c in frame.colors { uses[c, default: 0] += 1 }
        }
        let colors = table.colors.enumerated().sorted { a, b in
            let (ua, ub) = (a.element == 0 ? Int.max : uses[a.element] ?? 0, b.element == 0 ? Int.max : uses[b.element] ?? 0)
            return ua != ub ? ua > ub : a.offset < b.offset
        }
        return GIFColorSet(colors.map(\.element))
    }
}
