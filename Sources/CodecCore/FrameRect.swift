/// A rectangle on the canvas, in pixels.
package struct FrameRect: Sendable, Equatable {
    package var x: Int
    package var y: Int
    package var width: Int
    package var height: Int

    package init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// The part of this rectangle inside a `width × height` canvas (possibly empty).
    package func clipped(toWidth canvasWidth: Int, height canvasHeight: Int) -> FrameRect {
        let x0 = min(max(x, 0), canvasWidth), y0 = min(max(y, 0), canvasHeight)
        let x1 = min(max(x &+ width, x0), canvasWidth), y1 = min(max(y &+ height, y0), canvasHeight)
        return FrameRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    package func covers(width canvasWidth: Int, height canvasHeight: Int) -> Bool {
        x <= 0 && y <= 0 && x + width >= canvasWidth && y + height >= canvasHeight
    }
}
