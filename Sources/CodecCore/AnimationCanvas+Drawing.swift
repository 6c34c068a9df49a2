/// A frame's rectangle on the canvas, for a decoder that draws its rows straight into it.
///
/// Valid only during the call that hands it over.
package struct CanvasRegion {
    /// The canvas's first pixel (RGBA8, straight alpha, rows of `canvasWidth` pixels).
    package let canvas: UnsafeMutablePointer<UInt8>
    package let canvasWidth: Int
    /// The frame's rectangle, clipped to the canvas.
    package let rect: FrameRect
    /// Whether the frame starts on this canvas now: a decoder that drew part of it on an
    /// earlier canvas must start over.
    package let isNew: Bool

    /// The first pixel of the frame's row `y` (0 is the rectangle's top row).
    package func row(_ y: Int) -> UnsafeMutablePointer<UInt8> {
        canvas + ((rect.y + y) * canvasWidth + rect.x) * 4
    }
}

/// How far a frame drawn straight into the canvas has got.
package enum DrawnFrameState {
    /// Every pixel is drawn.
    case finished
    /// Still arriving: the canvas rows from the top that are final, and a touch-up for the copy
    /// of the canvas shown meanwhile (an interlaced frame's coarse preview), if any.
    case partial(finalRows: Int, preview: ((inout [UInt8]) -> Void)?)
}

extension AnimationCanvas {
    /// Decodes and draws the frames from the planned start through `index`, each straight into
    /// the canvas by `draw(j, region)`, which resumes frame j where it stopped (or starts it
    /// over when `region.isNew`). The compositor applies the previous frame's disposal and saves
    /// the rectangle of a frame whose disposal is `previous` before the frame's first rows, so
    /// no frame-sized buffer is needed for any disposal or blend.
    ///
    /// Returns the canvas and its final rows — a frame still arriving shows as far as it goes,
    /// and stays half drawn on the canvas, to be resumed — or nil when `makeImage` is false.
    package mutating func compose(through index: Int, frame: (Int) -> FrameProperties, makeImage: Bool,
                                 drawing draw: (Int, CanvasRegion) throws(DecodingError) -> DrawnFrameState)
        throws(DecodingError) -> (pixels: [UInt8], finalRows: Int)? {
        var next = prepare(toShow: index, frame: frame)
        while next <= index {
            let j = next, p = frame(j)
            let isNew = drawing != j
            drawing = j
            let width = width, height = height
            let state = try modifyCompositor { (canvas) throws(DecodingError) -> DrawnFrameState in
                let rect = FrameRect(x: p.x, y: p.y, width: p.width, height: p.height)
                if isNew { canvas.begin(rect, disposal: p.disposal) }
                return try canvas.withPixels { (base) throws(DecodingError) -> DrawnFrameState in
                    try draw(j, CanvasRegion(canvas: base, canvasWidth: width,
                                             rect: rect.clipped(toWidth: width, height: height), isNew: isNew))
                }
            }
            switch state {
            case .finished?:
                drawing = nil
                composedIndex = j
                next += 1
            case .partial(let finalRows, let touchUp)?:
                guard makeImage else { return nil }
                var shown = pixels
                touchUp?(&shown)
                return (shown, finalRows)
            case nil:
                return nil
            }
        }
        return makeImage ? (pixels, height) : nil
    }
}
