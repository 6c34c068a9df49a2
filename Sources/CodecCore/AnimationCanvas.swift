/// The composed canvas of an animation and the plan for random access to its frames
/// (YYImage's `blendFromIndex`, Wuffs' `restart_frame`).
///
/// Frame *k* is composed by drawing frames *s…k* on a new canvas, where *s* is the latest frame
/// at or before *k* that needs no predecessor (``AnimationCompositor/isIndependent``). A frame
/// that is independent but whose disposal is `previous` starts only itself: the frames after it
/// see the canvas from before it, which earlier frames drew. The canvas after the last frame
/// drawn is kept, so showing frames in order costs one frame each.
package struct AnimationCanvas: Sendable {
    package let width: Int
    package let height: Int
    /// How the compositor blends partial alpha.
    package let overRule: AnimationCompositor.OverRule
    /// The canvas with the frames drawn so far; nil until a frame has been planned.
    package private(set) var compositor: AnimationCompositor?
    /// The last frame drawn.
    package internal(set) var composedIndex = -1
    /// The frame drawing started from; the canvas shows frame ``composedIndex`` only when
    /// `composedIndex >= firstComposed`.
    private var firstComposed = 0
    /// Drawing started at an independent frame whose `previous` disposal restores what came
    /// before it, so the canvas cannot go past that frame.
    private var stopsAtFirst = false
    /// Per frame, the latest frame from which it and every later frame can be composed.
    private var startingPoints: [Int] = []
    /// Canvases allocated (and cleared) so far: one per restart of the composition, never one
    /// per frame or per append.
    package private(set) var canvasAllocations = 0
    /// The frame a decoder is drawing straight into the canvas, not finished yet
    /// (``compose(through:frame:makeImage:drawing:)``).
    var drawing: Int?

    /// Threads that may clear a new canvas (``DecodingOptions/maxThreads``).
    let maxThreads: Int

    /// A plan for a `width × height` canvas; the caller has checked the size against ``Limits``.
    package init(width: Int, height: Int, overRule: AnimationCompositor.OverRule = .porterDuff, maxThreads: Int = 1) {
        self.width = width
        self.height = height
        self.overRule = overRule
        self.maxThreads = maxThreads
    }

    /// Readies the canvas for composing frame `index` and returns the next frame to draw
    /// (`index + 1` when the canvas already shows it). `frame(j)` gives frame j's properties.
    ///
    /// The canvas is kept when it can go on to frame `index`: it shows a frame at or after the
    /// starting point and not after `index`, or it is new from that starting point (a first frame
    /// still arriving), and no frame later than `index` is half drawn on it.
    package mutating func prepare(toShow index: Int, frame: (Int) -> FrameProperties) -> Int {
        let start = independent(index, frame) ? index : startingPoint(index, frame)
        let fromStart = composedIndex >= firstComposed ? composedIndex >= start - 1 : firstComposed == start
        if compositor != nil && composedIndex <= index && fromStart
            && (!stopsAtFirst || index == firstComposed) && (drawing.map { index >= $0 } ?? true) {
            return composedIndex + 1
        }
        compositor = AnimationCompositor(width: width, height: height, overRule: overRule, maxThreads: maxThreads)
        canvasAllocations += 1
        composedIndex = start - 1
        firstComposed = start
        drawing = nil
        stopsAtFirst = start > 0 && restoresPredecessors(start, frame)
        return start
    }

    /// The frame to decode as bytes arrive (``DecodingOptions/decodesImmediately``): the one
    /// after the last frame composed on `canvas`, or the last of `frameCount` known. One frame
    /// at a time, so that a caller taking each frame as it completes finds it on the canvas and
    /// never makes the composition start over.
    package static func immediateTarget(_ canvas: AnimationCanvas?, frameCount: Int) -> Int {
        min(frameCount - 1, (canvas?.composedIndex ?? -1) + 1)
    }

    /// Draws finished frame `index` (the one ``prepare(toShow:frame:)`` returned, or the next).
    package mutating func draw(_ raster: Raster, frame index: Int, _ p: FrameProperties, blend: Blend) {
        modifyCompositor { $0.draw(raster, in: FrameRect(x: p.x, y: p.y, width: p.width, height: p.height), disposal: p.disposal, blend: blend) }
        composedIndex = index
    }

    /// Runs `body` on the compositor without a second reference to its canvas, so that writing
    /// the canvas copies nothing (nothing is done when there is no compositor).
    mutating func modifyCompositor<R, E: Error>(_ body: (inout AnimationCompositor) throws(E) -> R) throws(E) -> R? {
        guard var canvas = compositor else { return nil }
        compositor = nil
        defer { compositor = canvas }
        return try body(&canvas)
    }

    /// The canvas with an unfinished frame drawn on a copy, leaving the plan as it is.
    package func preview(_ raster: Raster, _ p: FrameProperties, blend: Blend) -> [UInt8] {
        guard var canvas = compositor else { return [] }
        canvas.draw(raster, in: FrameRect(x: p.x, y: p.y, width: p.width, height: p.height), disposal: p.disposal, blend: blend)
        return canvas.canvas
    }

    /// Bytes the canvas holds once allocated, with the rectangle saved for a `previous` disposal.
    package var heldBytes: Int { compositor?.heldBytes ?? width * height * 4 }

    /// The composed pixels (RGBA8).
    package var pixels: [UInt8] { compositor?.canvas ?? [] }

    private func independent(_ j: Int, _ frame: (Int) -> FrameProperties) -> Bool {
        j == 0 || AnimationCompositor.isIndependent(j, frame: frame(j), previous: frame(j - 1),
                                                    canvasWidth: width, canvasHeight: height)
    }

    /// Whether frame `j`'s `previous` disposal brings back a canvas that earlier frames drew.
    private func restoresPredecessors(_ j: Int, _ frame: (Int) -> FrameProperties) -> Bool {
        guard j > 0, frame(j).disposal == .previous else { return false }
        let previous = frame(j - 1)
        let cleared = previous.disposal == .background
            && FrameRect(x: previous.x, y: previous.y, width: previous.width, height: previous.height)
                .covers(width: width, height: height)
        return !cleared
    }

    /// The latest frame at or before `index` that starts every later frame too; kept per
    /// frame, so finding it costs O(1) once the frames have been seen.
    private mutating func startingPoint(_ index: Int, _ frame: (Int) -> FrameProperties) -> Int {
        while startingPoints.count <= index {
            let j = startingPoints.count
            let starts = j == 0 || (independent(j, frame) && !restoresPredecessors(j, frame))
            startingPoints.append(starts ? j : startingPoints[j - 1])
        }
        return startingPoints[index]
    }
}

/// How far one frame's pixels have been decoded, as ``AnimationCanvas/compose`` needs to know.
package enum FrameState {
    /// Every pixel is decoded: the frame-sized raster.
    case finished(Raster)
    /// Still arriving: a preview of the frame made on request (nil when nothing of it is decoded
    /// yet), how to draw it, and the canvas rows from the top that are final.
    case partial(preview: () -> Raster?, blend: Blend, finalRows: Int)
}

extension AnimationCanvas {
    /// Decodes and draws the frames from the planned start through `index`. Returns the canvas
    /// and its final rows — a frame still arriving is drawn, as far as it goes, on a copy — or
    /// nil when `makeImage` is false (the work is done and kept). `decode(j)` decodes frame j,
    /// resuming where it stopped.
    package mutating func compose(through index: Int, frame: (Int) -> FrameProperties, makeImage: Bool,
                                 decode: (Int) throws(DecodingError) -> FrameState) throws(DecodingError)
        -> (pixels: [UInt8], finalRows: Int)? {
        var next = prepare(toShow: index, frame: frame)
        while next <= index {
            let p = frame(next)
            switch try decode(next) {
            case .finished(let raster):
                draw(raster, frame: next, p, blend: p.blend)
                next += 1
            case .partial(let makePreview, let blend, let finalRows):
                guard makeImage else { return nil }
                guard let raster = makePreview() else {
                    // Nothing of the frame yet: unless a disposal changes it, the canvas as it is.
                    if next == 0 || frame(next - 1).disposal == .none { return (pixels, finalRows) }
                    return (preview(Raster(width: p.width, height: p.height, bytesPerPixel: 4), p, blend: .over), finalRows)
                }
                return (preview(raster, p, blend: blend), finalRows)
            }
        }
        return makeImage ? (pixels, height) : nil
    }
}
