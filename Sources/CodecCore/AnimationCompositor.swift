/// Composes animation frames onto a full RGBA8 canvas the way browsers show them.
///
/// The canvas starts transparent black. Before frame *k* is drawn, frame *k−1*'s disposal
/// is applied to *k−1*'s rectangle: `none` leaves it, `background` clears it to transparent
/// black, `previous` restores what was there before *k−1* was drawn (APNG 1.0 §fcTL, GIF89a
/// §23 "Disposal Method"). A `previous` disposal on the first frame acts as `background`.
package struct AnimationCompositor: Sendable {
    /// How `over` mixes a pixel with partial alpha into the canvas.
    package enum OverRule: Sendable, Equatable {
        /// Porter–Duff over in exact integers, rounded to nearest (APNG, GIF).
        case porterDuff
        /// libwebp's `WebPAnimDecoder` (anim_decode.c, BlendPixelNonPremult): the destination's
        /// weight is `αd(256−αs) >> 8`, the colour `(Cs·αs + Cd·w) · ⌊2^24/αo⌋ >> 24`; a pixel in
        /// the rectangle the previous frame disposed to background is copied, not blended.
        case webPAnimDecoder
    }

    package let width: Int
    package let height: Int
    package let overRule: OverRule
    /// The composed canvas after the last frame drawn, RGBA8, straight alpha.
    package private(set) var canvas: [UInt8]
    private var lastRect: FrameRect?
    private var lastDisposal = Disposal.none
    /// The pixels under `lastRect` before the last frame was drawn, kept for `previous`.
    private var saved: [UInt8] = []

    /// Bytes held: the canvas and the rectangle saved for a `previous` disposal.
    package var heldBytes: Int { canvas.count + saved.count }

    /// A transparent canvas, cleared on up to `maxThreads` threads; the caller has checked its
    /// size against ``Limits``.
    package init(width: Int, height: Int, overRule: OverRule = .porterDuff, maxThreads: Int = 1) {
        self.width = width
        self.height = height
        self.overRule = overRule
        canvas = PixelStorage.make(count: width * height * 4, zeroed: true, maxThreads: maxThreads)
    }

    /// Applies the previous frame's disposal, then draws `frame` (an RGBA8 raster the size
    /// of `rect`, which lies inside the canvas) with `blend`.
    package mutating func draw(_ frame: Raster, in rect: FrameRect, disposal: Disposal, blend: Blend) {
        let cleared = lastDisposal == .background ? lastRect : nil
        applyPendingDisposal()
        let target = rect.clipped(toWidth: width, height: height)
        if blend == .source && target == rect && rect.covers(width: width, height: height)
            && frame.bytesPerRow == width * 4 && frame.pixels.count == canvas.count {
            // A frame that replaces the whole canvas becomes the canvas: no copy.
            if disposal == .previous { saved = canvas }
            canvas = frame.pixels
            lastRect = target
            lastDisposal = disposal
            return
        }
        if disposal == .previous { saved = copyOut(target) }
        for row in 0..<target.height {
            let src = (row + target.y - rect.y) * frame.bytesPerRow + (target.x - rect.x) * 4
            let dst = ((row + target.y) * width + target.x) * 4
            canvas.withUnsafeMutableBufferPointer { out in
                frame.pixels.withUnsafeBufferPointer { inp in
                    let o = out.baseAddress! + dst, i = inp.baseAddress! + src
                    if blend == .source {
                        o.update(from: i, count: target.width * 4)
                    } else if overRule == .webPAnimDecoder {
                        Self.blendWebP(o, i, count: target.width, y: row + target.y, x: target.x, cleared: cleared)
                    } else {
                        Self.blendOver(o, i, count: target.width)
                    }
                }
            }
        }
        lastRect = target
        lastDisposal = disposal
    }

    /// Applies the previous frame's disposal, then readies `rect` for a frame that its decoder
    /// draws straight into the canvas (``withPixels(_:)``), saving what lies under it when its
    /// own disposal is `previous`. The result is the same as ``draw(_:in:disposal:blend:)``
    /// with the decoded frame.
    package mutating func begin(_ rect: FrameRect, disposal: Disposal) {
        applyPendingDisposal()
        let target = rect.clipped(toWidth: width, height: height)
        if disposal == .previous { saved = copyOut(target) }
        lastRect = target
        lastDisposal = disposal
    }

    /// Calls `body` with the canvas's first pixel, for a decoder drawing into it.
    package mutating func withPixels<R, E: Error>(_ body: (UnsafeMutablePointer<UInt8>) throws(E) -> R) throws(E) -> R {
        try canvas.withUnsafeMutableBufferPointer { (p) throws(E) -> R in try body(p.baseAddress!) }
    }

    /// Porter–Duff "source over" on straight alpha (PNG 3rd edition §13.16 "Alpha channel
    /// processing", which APNG's APNG_BLEND_OP_OVER names): with αs and αd in 0…1,
    /// αo = αs + αd(1−αs) and Co = (Cs·αs + Cd·αd(1−αs)) / αo, in integers rounded to nearest.
    @inline(__always)
    private static func blendOver(_ out: UnsafeMutablePointer<UInt8>, _ inp: UnsafePointer<UInt8>, count: Int) {
        for p in 0..<count {
            let o = out + p * 4, i = inp + p * 4
            let sa = UInt32(i[3]), da = UInt32(o[3])
            if sa == 255 || da == 0 { o.update(from: i, count: 4); continue }
            if sa == 0 { continue }
            let u = sa &* 255, v = (255 &- sa) &* da, total = u &+ v
            for c in 0..<3 {
                o[c] = UInt8(truncatingIfNeeded: (UInt32(i[c]) &* u &+ UInt32(o[c]) &* v &+ total / 2) / total)
            }
            o[3] = UInt8(truncatingIfNeeded: (total &+ 127) / 255)
        }
    }

    /// libwebp's non-premultiplied blend (``OverRule/webPAnimDecoder``) of one row starting at
    /// canvas (`x`, `y`); the pixels inside `cleared` are copied.
    private static func blendWebP(_ out: UnsafeMutablePointer<UInt8>, _ inp: UnsafePointer<UInt8>, count: Int,
                                  y: Int, x: Int, cleared: FrameRect?) {
        var copied = 0..<0
        if let c = cleared, y >= c.y, y < c.y + c.height {
            copied = max(0, c.x - x)..<max(0, min(count, c.x + c.width - x))
        }
        for p in 0..<count {
            let o = out + p * 4, i = inp + p * 4
            let sa = UInt32(i[3])
            if sa == 255 || copied.contains(p) { o.update(from: i, count: 4); continue }
            if sa == 0 { continue }
            let dw = (UInt32(o[3]) &* (256 &- sa)) &>> 8
            let total = sa &+ dw
            let scale = (1 << 24) / total
            for c in 0..<3 {
                o[c] = UInt8(truncatingIfNeeded: ((UInt32(i[c]) &* sa &+ UInt32(o[c]) &* dw) &* scale) &>> 24)
            }
            o[3] = UInt8(truncatingIfNeeded: total)
        }
    }

    private mutating func applyPendingDisposal() {
        guard let rect = lastRect else { return }
        switch lastDisposal {
        case .none: break
        case .background: fill(rect, with: nil)
        case .previous: fill(rect, with: saved)
        }
        lastRect = nil
        saved = []
    }

    private func copyOut(_ rect: FrameRect) -> [UInt8] {
        var out = [UInt8]()
        out.reserveCapacity(rect.width * rect.height * 4)
        for row in rect.y..<(rect.y + rect.height) {
            let start = (row * width + rect.x) * 4
            out.append(contentsOf: canvas[start..<(start + rect.width * 4)])
        }
        return out
    }

    /// Clears `rect` to transparent black, or writes `pixels` (a copy of the same rectangle).
    private mutating func fill(_ rect: FrameRect, with pixels: [UInt8]?) {
        let rowBytes = rect.width * 4
        for row in 0..<rect.height {
            let start = ((row + rect.y) * width + rect.x) * 4
            if let pixels {
                canvas.replaceSubrange(start..<(start + rowBytes), with: pixels[(row * rowBytes)..<((row + 1) * rowBytes)])
            } else {
                for i in start..<(start + rowBytes) { canvas[i] = 0 }
            }
        }
    }

    /// Whether frame `index` can be composed from a transparent canvas, without any earlier
    /// frame: the first frame, a full-canvas frame that replaces every pixel, or a frame
    /// whose predecessor cleared the whole canvas (YYImage's `blendFromIndex` rule).
    package static func isIndependent(_ index: Int, frame: FrameProperties, previous: FrameProperties?,
                                     canvasWidth: Int, canvasHeight: Int) -> Bool {
        guard index > 0, let previous else { return true }
        let rect = FrameRect(x: frame.x, y: frame.y, width: frame.width, height: frame.height)
        if frame.blend == .source && rect.covers(width: canvasWidth, height: canvasHeight) { return true }
        let prevRect = FrameRect(x: previous.x, y: previous.y, width: previous.width, height: previous.height)
        return previous.disposal == .background && prevRect.covers(width: canvasWidth, height: canvasHeight)
    }
}
