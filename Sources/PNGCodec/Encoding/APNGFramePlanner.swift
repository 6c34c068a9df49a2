import CodecCore

/// One APNG frame as it will be written: the rectangle that changes, how it is blended, and
/// its pixels (the rectangle's size); `disposal` is chosen once the next frame is known.
struct APNGFramePlan {
    var rect: FrameRect
    var blend: Blend
    var disposal: Disposal = .none
    var pixels: Raster
    var duration: Duration
    /// With OVER, the rectangle's plain pixels: the same frame written with SOURCE, which can
    /// compress better (the writer keeps the smaller).
    var sourcePixels: Raster?
}

/// Chooses, frame by frame, the smallest rectangle of an APNG frame and the dispose and blend
/// operations (APNG 1.0 "fcTL") such that the canvas, composited by the APNG rules, equals each
/// input frame exactly.
///
/// For frame i, each way frame i − 1 can be disposed gives a different canvas to draw on: frame
/// i − 1 itself (none), frame i − 1 with its rectangle cleared to transparent black
/// (background), or the canvas before frame i − 1 (previous). Each gives a candidate plan (the
/// bounding box of its differences with frame i); the caller keeps the one that compresses
/// smallest, as apngasm does. Inside the
/// rectangle, pixels that differ are written as they are; with the OVER blend, pixels that do
/// not differ are written fully transparent (they compress well and leave the canvas as it is),
/// which is exact only when every differing pixel is opaque, so OVER is used only then. An
/// unchanged pixel over a fully transparent canvas pixel is written as itself: APNG leaves the
/// colour of 0-over-0 open, and with source and canvas equal every decoder gives that pixel.
struct APNGFramePlanner {
    let width: Int
    let height: Int
    let bytesPerPixel: Int
    /// A pixel value the layout stores as fully transparent, or nil when it has none.
    let transparentPixel: [UInt8]?
    private var previousFrame: Raster?
    private var previousRect = FrameRect(x: 0, y: 0, width: 0, height: 0)
    private var framesPlanned = 0
    /// The canvas before the previous frame was drawn.
    private var beforePrevious: Raster

    init(width: Int, height: Int, bytesPerPixel: Int, transparentPixel: [UInt8]?) {
        self.width = width
        self.height = height
        self.bytesPerPixel = bytesPerPixel
        self.transparentPixel = transparentPixel
        beforePrevious = Raster(width: width, height: height, bytesPerPixel: bytesPerPixel)
    }

    /// One way to draw `frame`: the previous frame's `disposal`, this frame's plan on the canvas
    /// that disposal leaves, and that canvas.
    struct Candidate {
        let disposal: Disposal
        let plan: APNGFramePlan
        fileprivate let base: Raster
    }

    /// The ways to plan `frame` (the full canvas), one per dispose_op the previous frame can
    /// take, in the order NONE, BACKGROUND, PREVIOUS; the caller picks one with ``commit(_:frame:)``.
    /// The first frame has one: the whole canvas with SOURCE.
    func candidates(_ frame: Raster, duration: Duration) -> [Candidate] {
        let full = FrameRect(x: 0, y: 0, width: width, height: height)
        guard let previous = previousFrame else {
            return [Candidate(disposal: .none, plan: APNGFramePlan(rect: full, blend: .source, pixels: frame,
                                                                     duration: duration), base: beforePrevious)]
        }
        var cleared = previous
        clear(previousRect, in: &cleared)
        var options: [(Disposal, Raster)] = [(.none, previous), (.background, cleared)]
        // A first frame's PREVIOUS counts as BACKGROUND (APNG 1.0 "fcTL"): not offered for it.
        if framesPlanned > 1 { options.append((.previous, beforePrevious)) }
        return options.map { disposal, base in
            let rect = differences(base, frame) ?? FrameRect(x: 0, y: 0, width: 1, height: 1)
            let (pixels, blend, plain) = crop(frame, base: base, rect: rect)
            return Candidate(disposal: disposal, plan: APNGFramePlan(rect: rect, blend: blend, pixels: pixels,
                                                                     duration: duration,
                                                                     sourcePixels: blend == .over ? plain : nil),
                             base: base)
        }
    }

    /// Records that `frame` is drawn as `candidate` says: the canvas it was drawn on becomes the
    /// one PREVIOUS restores, and its rectangle the one BACKGROUND clears.
    mutating func commit(_ candidate: Candidate, frame: Raster) {
        beforePrevious = candidate.base
        previousFrame = frame
        previousRect = candidate.plan.rect
        framesPlanned += 1
    }

    /// Sets `rect` to transparent black.
    private func clear(_ rect: FrameRect, in raster: inout Raster) {
        let rowBytes = width * bytesPerPixel
        raster.pixels.withUnsafeMutableBufferPointer { p in
            for y in rect.y..<(rect.y + rect.height) {
                let start = y * rowBytes + rect.x * bytesPerPixel
                p.baseAddress!.advanced(by: start).update(repeating: 0, count: rect.width * bytesPerPixel)
            }
        }
    }

    /// The bounding box of the pixels that differ, nil when none do.
    private func differences(_ a: Raster, _ b: Raster) -> FrameRect? {
        let bpp = bytesPerPixel, rowBytes = width * bpp
        var minX = width, maxX = -1, minY = height, maxY = -1
        a.pixels.withUnsafeBufferPointer { pa in
            b.pixels.withUnsafeBufferPointer { pb in
                for y in 0..<height {
                    let ra = pa.baseAddress! + y * rowBytes, rb = pb.baseAddress! + y * rowBytes
                    var first = 0
                    while first < rowBytes && ra[first] == rb[first] { first &+= 1 }
                    guard first < rowBytes else { continue }
                    var last = rowBytes - 1
                    while ra[last] == rb[last] { last &-= 1 }
                    minX = min(minX, first / bpp)
                    maxX = max(maxX, last / bpp)
                    minY = min(minY, y)
                    maxY = y
                }
            }
        }
        guard maxY >= 0 else { return nil }
        return FrameRect(x: minX, y: minY, width: maxX - minX + 1, height: maxY - minY + 1)
    }

    /// `frame`'s pixels in `rect` and the blend: OVER with unchanged pixels transparent when the
    /// layout has a transparent value and every changed pixel is opaque, SOURCE otherwise; and
    /// the plain pixels of the rectangle.
    private func crop(_ frame: Raster, base: Raster, rect: FrameRect) -> (Raster, Blend, Raster) {
        let bpp = bytesPerPixel, rowBytes = width * bpp, outRow = rect.width * bpp
        var out = [UInt8](repeating: 0, count: outRow * rect.height)
        var canOver = transparentPixel != nil
        var unchanged = 0
        frame.pixels.withUnsafeBufferPointer { f in
            base.pixels.withUnsafeBufferPointer { b in
                out.withUnsafeMutableBufferPointer { o in
                    for y in 0..<rect.height {
                        let from = (rect.y + y) * rowBytes + rect.x * bpp
                        o.baseAddress!.advanced(by: y * outRow).update(from: f.baseAddress! + from, count: outRow)
                        guard canOver else { continue }
                        for x in 0..<rect.width {
                            let p = from + x * bpp
                            var same = true
                            for k in 0..<bpp where f[p + k] != b[p + k] { same = false; break }
                            if same {
                                unchanged += 1
                            } else if !isOpaque(f.baseAddress! + p) {
                                canOver = false
                                break
                            }
                        }
                    }
                }
            }
        }
        let cropped = Raster(width: rect.width, height: rect.height, bytesPerPixel: bpp, pixels: out)
        guard canOver, unchanged > 0, let transparentPixel else { return (cropped, .source, cropped) }
        var over = cropped
        frame.pixels.withUnsafeBufferPointer { f in
            base.pixels.withUnsafeBufferPointer { b in
                for y in 0..<rect.height {
                    for x in 0..<rect.width {
                        let p = (rect.y + y) * rowBytes + (rect.x + x) * bpp
                        var same = true
                        for k in 0..<bpp where f[p + k] != b[p + k] { same = false; break }
                        // Over a transparent canvas pixel the pixel stays itself: src and dst are then
                        // equal, so OVER gives it whichever colour a decoder keeps for 0 over 0.
                        if same && !isTransparent(b.baseAddress! + p) {
                            let q = (y * rect.width + x) * bpp
                            for k in 0..<bpp { over.pixels[q + k] = transparentPixel[k] }
                        }
                    }
                }
            }
        }
        return (over, .over, cropped)
    }

    private func isTransparent(_ p: UnsafePointer<UInt8>) -> Bool {
        bytesPerPixel == 8 ? p[6] == 0 && p[7] == 0 : p[3] == 0
    }

    private func isOpaque(_ p: UnsafePointer<UInt8>) -> Bool {
        bytesPerPixel == 8 ? p[6] == 0xFF && p[7] == 0xFF : p[3] == 0xFF
    }
}
