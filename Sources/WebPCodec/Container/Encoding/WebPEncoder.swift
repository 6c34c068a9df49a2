import CodecCore

/// Encodes WebP files: lossless (VP8L) stills, in a simple or (with metadata) extended
/// container, and animations of lossless frames (SPEC-NOTES.md, "WebP encoding").
///
/// A still is encoded and written when its frame is added. The frames of an animation are
/// planned as they come (each compared with the canvas the previous ones leave) and held
/// compressed until ``finish(to:)``, since the RIFF header states the file's size.
package struct WebPEncoder: ImageEncoding {
    package let options: EncodingOptions
    private var canvas: EncodingCanvas?
    private var planner: WebPFramePlanner?
    private var added = 0
    private var finished = false

    package var supportsAnimation: Bool { true }
    /// VP8 trades pixels for bytes: `maxFileSize` is met by a quality search.
    package var isLossy: Bool { !options.lossless }

    package init(options: EncodingOptions) {
        self.options = options
    }

    /// Checks the canvas: width and height 1…16383 (libwebp's limit; every frame of
    /// an animation may cover the canvas), a loop count of 16 bits.
    package mutating func begin(_ canvas: EncodingCanvas, to sink: inout some ByteSink) throws(EncodingError) {
        guard self.canvas == nil, !finished else { throw .invalidRequest("begin called twice") }
        guard canvas.width > 0, canvas.height > 0 else { throw .invalidRequest("canvas width and height must be positive") }
        guard canvas.width <= VP8LEncoder.maxDimension, canvas.height <= VP8LEncoder.maxDimension else {
            throw .limitExceeded("WebP width and height are at most 16383")
        }
        guard (0...65535).contains(canvas.loopCount) else { throw .invalidRequest("loop count must be within 0...65535") }
        self.canvas = canvas
        if canvas.frameCount > 1 {
            let coding: WebPFramePlanner.Coding = options.lossless ? .lossless : options.mixed ? .mixed : .lossy
            planner = WebPFramePlanner(width: canvas.width, height: canvas.height, effort: options.effort,
                                       exact: options.exact, coding: coding, options: options)
        }
    }

    /// Encodes one frame of the canvas size; RGBA16 is narrowed to 8 bits.
    package mutating func add(_ frame: EncodingFrame, to sink: inout some ByteSink) throws(EncodingError) {
        guard let canvas, !finished else { throw .invalidRequest("add called before begin or after finish") }
        guard frame.width == canvas.width, frame.height == canvas.height else {
            throw .invalidRequest("every WebP frame must have the canvas size")
        }
        guard added < canvas.frameCount else { throw .invalidRequest("more frames than the canvas announced") }
        added += 1
        var argb = Self.argb(frame)
        if planner != nil {
            let duration = try Self.milliseconds(frame.duration)
            try planner?.add(argb, duration: duration)
            return
        }
        let hasAlpha = argb.contains { $0 < 0xFF00_0000 }
        guard options.lossless else {
            let (vp8, alpha) = try WebPLossyEncoder.encode(argb: argb, width: frame.width, height: frame.height,
                                                           options: options)
            try sink.write(WebPStillWriter.file(image: WebPChunkWriter.chunk("VP8 ", vp8),
                                                alpha: alpha.map { WebPChunkWriter.chunk("ALPH", $0) },
                                                width: frame.width, height: frame.height, hasAlpha: hasAlpha,
                                                metadata: canvas.metadata))
            return
        }
        let vp8l = VP8LEncoder.encode(argb: &argb, width: frame.width, height: frame.height, effort: options.effort,
                                      exact: options.exact)
        try sink.write(WebPStillWriter.file(vp8l: vp8l, width: frame.width, height: frame.height, hasAlpha: hasAlpha,
                                            metadata: canvas.metadata))
    }

    /// Writes the animation (a still was written when added).
    package mutating func finish(to sink: inout some ByteSink) throws(EncodingError) {
        guard let canvas, !finished else { throw .invalidRequest("finish called before begin or twice") }
        guard added > 0 else { throw .invalidRequest("a WebP needs at least one frame") }
        finished = true
        guard let planner else { return }
        self.planner = nil
        try WebPAnimationWriter.write(planner.frames, canvas: canvas, background: options.backgroundColor, to: &sink)
    }

    /// A duration in milliseconds, rounded to the nearest, at most 2^24 − 1 (ANMF's 24 bits).
    static func milliseconds(_ duration: Duration) throws(EncodingError) -> Int {
        let (seconds, attoseconds) = duration.components
        guard seconds >= 0, attoseconds >= 0 else { throw .invalidRequest("frame duration must not be negative") }
        guard seconds < Int64(WebPAnimationLimits.maxDuration / 1000 + 1) else { return WebPAnimationLimits.maxDuration }
        let ms = Int(seconds) * 1000 + Int((attoseconds + 500_000_000_000_000) / 1_000_000_000_000_000)
        return min(ms, WebPAnimationLimits.maxDuration)
    }

    /// The frame as ARGB (alpha in the top byte).
    static func argb(_ frame: EncodingFrame) -> [UInt32] {
        let pixels = frame.rgba8Pixels()
        let count = frame.width * frame.height
        return [UInt32](unsafeUninitializedCapacity: count) { out, initialized in
            pixels.withUnsafeBufferPointer { p in
                for i in 0..<min(count, p.count / 4) {
                    let o = i &* 4
                    out[i] = UInt32(p[o &+ 3]) << 24 | UInt32(p[o]) << 16 | UInt32(p[o &+ 1]) << 8 | UInt32(p[o &+ 2])
                }
            }
            initialized = min(count, pixels.count / 4)
        }
    }
}

/// Writes an animated WebP: RIFF, VP8X, ICCP, ANIM, the ANMF frames, EXIF, XMP.
enum WebPAnimationWriter {
    static func write(_ frames: [WebPFramePlanner.Frame], canvas: EncodingCanvas, background: RGBA8,
                      to sink: inout some ByteSink) throws(EncodingError) {
        let metadata = canvas.metadata
        var features: WebPChunkWriter.Features = [.animation]
        if frames.contains(where: \.hasAlpha) { features.insert(.alpha) }
        var head: [[UInt8]] = []
        var tail: [[UInt8]] = []
        if let icc = metadata.iccProfile { features.insert(.icc); head.append(WebPChunkWriter.chunk("ICCP", icc)) }
        head.append(WebPChunkWriter.anim(background: (background.r, background.g, background.b, background.a),
                                         loopCount: canvas.loopCount))
        if let exif = metadata.exifToWrite { features.insert(.exif); tail.append(WebPChunkWriter.chunk("EXIF", exif)) }
        if let xmp = metadata.xmp { features.insert(.xmp); tail.append(WebPChunkWriter.chunk("XMP ", xmp)) }
        head.insert(WebPChunkWriter.vp8x(features, width: canvas.width, height: canvas.height), at: 0)
        // An ANMF chunk: 8 header bytes, 16 bytes of fields, the image chunks (padded).
        let frameBytes = frames.reduce(0) { $0 + 24 + $1.image.count }
        let total = head.reduce(0) { $0 + $1.count } + frameBytes + tail.reduce(0) { $0 + $1.count }
        // RFC 9649 2.4: the RIFF size is 32 bits.
        guard total <= Int(UInt32.max) - 4 else { throw .limitExceeded("a WebP file holds at most 4 GiB") }
        try sink.write(WebPChunkWriter.riffHeader(chunkBytes: total))
        for chunk in head { try sink.write(chunk) }
        for f in frames {
            try sink.write(WebPChunkWriter.anmf(x: f.x, y: f.y, width: f.width, height: f.height, duration: f.duration,
                                                blend: f.blend, disposeToBackground: f.disposeToBackground,
                                                image: f.image))
        }
        for chunk in tail { try sink.write(chunk) }
    }
}
