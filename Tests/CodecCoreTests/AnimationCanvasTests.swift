import Testing
@testable import CodecCore

struct AnimationCanvasTests {
    static func frame(_ x: Int, _ w: Int, _ disposal: Disposal, _ blend: Blend) -> FrameProperties {
        FrameProperties(x: x, y: 0, width: w, height: 1, unclampedDuration: 0.1, disposal: disposal, blend: blend)
    }

    /// Frame 2 covers the canvas but restores what was before it: it starts itself, not frame 3.
    static let frames = [
        frame(0, 4, .none, .source), frame(1, 1, .none, .over), frame(0, 4, .previous, .source),
        frame(2, 1, .none, .over), frame(0, 4, .none, .source),
    ]

    @Test func independentFrameWithPreviousDisposalStartsOnlyItself() {
        var plan = AnimationCanvas(width: 4, height: 1)
        #expect(plan.prepare(toShow: 2) { Self.frames[$0] } == 2)
        var fresh = AnimationCanvas(width: 4, height: 1)
        #expect(fresh.prepare(toShow: 3) { Self.frames[$0] } == 0)
        #expect(fresh.prepare(toShow: 4) { Self.frames[$0] } == 4)
    }

    @Test func resumesOnlyFromAComposedCanvas() {
        var plan = AnimationCanvas(width: 4, height: 1)
        let pixel = Raster(width: 1, height: 1, bytesPerPixel: 4, pixels: [1, 2, 3, 255])
        let row = Raster(width: 4, height: 1, bytesPerPixel: 4, pixels: [UInt8](repeating: 9, count: 16))
        #expect(plan.prepare(toShow: 1) { Self.frames[$0] } == 0)
        plan.draw(row, frame: 0, Self.frames[0], blend: .source)
        plan.draw(pixel, frame: 1, Self.frames[1], blend: .over)
        #expect(plan.composedIndex == 1)
        // Showing frame 2 resumes after frame 1; after a reset that drew nothing, frame 1 is redrawn.
        #expect(plan.prepare(toShow: 2) { Self.frames[$0] } == 2)
        var reset = AnimationCanvas(width: 4, height: 1)
        #expect(reset.prepare(toShow: 4) { Self.frames[$0] } == 4)
        #expect(reset.prepare(toShow: 3) { Self.frames[$0] } == 0)
        #expect(reset.preview(pixel, Self.frames[1], blend: .over).count == 16)
    }
}
