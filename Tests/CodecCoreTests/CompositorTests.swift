import Testing
@testable import CodecCore

struct CompositorTests {
    func solid(_ w: Int, _ h: Int, _ px: [UInt8]) -> Raster {
        Raster(width: w, height: h, bytesPerPixel: 4, pixels: Array((0..<(w * h)).map { _ in px }.joined()))
    }

    func pixel(_ c: AnimationCompositor, _ x: Int, _ y: Int) -> [UInt8] {
        Array(c.canvas[((y * c.width + x) * 4)..<((y * c.width + x) * 4 + 4)])
    }

    @Test func disposeBackgroundClearsOnlyTheRectangle() {
        var c = AnimationCompositor(width: 4, height: 4)
        c.draw(solid(4, 4, [255, 0, 0, 255]), in: FrameRect(x: 0, y: 0, width: 4, height: 4), disposal: .none, blend: .source)
        c.draw(solid(2, 2, [0, 255, 0, 255]), in: FrameRect(x: 1, y: 1, width: 2, height: 2), disposal: .background, blend: .source)
        #expect(pixel(c, 1, 1) == [0, 255, 0, 255])
        c.draw(solid(1, 1, [0, 0, 255, 255]), in: FrameRect(x: 0, y: 0, width: 1, height: 1), disposal: .none, blend: .source)
        #expect(pixel(c, 1, 1) == [0, 0, 0, 0])
        #expect(pixel(c, 3, 3) == [255, 0, 0, 255])
        #expect(pixel(c, 0, 0) == [0, 0, 255, 255])
    }

    @Test func disposePreviousRestores() {
        var c = AnimationCompositor(width: 2, height: 2)
        c.draw(solid(2, 2, [9, 9, 9, 255]), in: FrameRect(x: 0, y: 0, width: 2, height: 2), disposal: .none, blend: .source)
        c.draw(solid(1, 2, [1, 2, 3, 255]), in: FrameRect(x: 1, y: 0, width: 1, height: 2), disposal: .previous, blend: .source)
        #expect(pixel(c, 1, 0) == [1, 2, 3, 255])
        c.draw(solid(1, 1, [7, 7, 7, 255]), in: FrameRect(x: 0, y: 0, width: 1, height: 1), disposal: .none, blend: .source)
        #expect(pixel(c, 1, 0) == [9, 9, 9, 255])
        #expect(pixel(c, 1, 1) == [9, 9, 9, 255])
    }

    @Test func disposePreviousOnFirstFrameActsAsBackground() {
        var c = AnimationCompositor(width: 1, height: 1)
        c.draw(solid(1, 1, [5, 5, 5, 255]), in: FrameRect(x: 0, y: 0, width: 1, height: 1), disposal: .previous, blend: .source)
        c.draw(solid(1, 1, [0, 0, 0, 0]), in: FrameRect(x: 0, y: 0, width: 1, height: 1), disposal: .none, blend: .over)
        #expect(pixel(c, 0, 0) == [0, 0, 0, 0])
    }

    @Test func overIsPorterDuff() {
        var c = AnimationCompositor(width: 1, height: 1)
        c.draw(solid(1, 1, [0, 0, 0, 255]), in: FrameRect(x: 0, y: 0, width: 1, height: 1), disposal: .none, blend: .source)
        c.draw(solid(1, 1, [0, 0, 255, 128]), in: FrameRect(x: 0, y: 0, width: 1, height: 1), disposal: .none, blend: .over)
        #expect(pixel(c, 0, 0) == [0, 0, 128, 255])
        var d = AnimationCompositor(width: 1, height: 1)
        d.draw(solid(1, 1, [200, 100, 0, 128]), in: FrameRect(x: 0, y: 0, width: 1, height: 1), disposal: .none, blend: .over)
        #expect(pixel(d, 0, 0) == [200, 100, 0, 128])
        d.draw(solid(1, 1, [0, 0, 200, 0]), in: FrameRect(x: 0, y: 0, width: 1, height: 1), disposal: .none, blend: .over)
        #expect(pixel(d, 0, 0) == [200, 100, 0, 128])
        // 50% white over 50% black: αo = 0.75, colour = 255·0.5 / 0.75 ≈ 170.
        var e = AnimationCompositor(width: 1, height: 1)
        e.draw(solid(1, 1, [0, 0, 0, 128]), in: FrameRect(x: 0, y: 0, width: 1, height: 1), disposal: .none, blend: .source)
        e.draw(solid(1, 1, [255, 255, 255, 128]), in: FrameRect(x: 0, y: 0, width: 1, height: 1), disposal: .none, blend: .over)
        #expect(pixel(e, 0, 0) == [170, 170, 170, 192])
    }

    @Test func independence() {
        let full = FrameProperties(x: 0, y: 0, width: 4, height: 4, unclampedDuration: 0, disposal: .none, blend: .source)
        var part = full
        part.width = 2
        var clearing = part
        clearing.disposal = .background
        var fullClear = full
        fullClear.disposal = .background
        #expect(AnimationCompositor.isIndependent(0, frame: part, previous: nil, canvasWidth: 4, canvasHeight: 4))
        #expect(AnimationCompositor.isIndependent(3, frame: full, previous: part, canvasWidth: 4, canvasHeight: 4))
        #expect(!AnimationCompositor.isIndependent(3, frame: part, previous: clearing, canvasWidth: 4, canvasHeight: 4))
        #expect(AnimationCompositor.isIndependent(3, frame: part, previous: fullClear, canvasWidth: 4, canvasHeight: 4))
    }
}

extension CompositorTests {
    /// A frame that replaces the whole canvas is adopted, not copied; `previous` still restores.
    @Test func fullCanvasSourceFrameIsAdoptedAndRestorable() {
        var c = AnimationCompositor(width: 2, height: 1)
        let full = FrameRect(x: 0, y: 0, width: 2, height: 1)
        c.draw(solid(2, 1, [1, 1, 1, 255]), in: full, disposal: .none, blend: .source)
        c.draw(solid(2, 1, [2, 2, 2, 255]), in: full, disposal: .previous, blend: .source)
        #expect(pixel(c, 1, 0) == [2, 2, 2, 255])
        c.draw(solid(1, 1, [3, 3, 3, 255]), in: FrameRect(x: 0, y: 0, width: 1, height: 1), disposal: .none, blend: .source)
        #expect(pixel(c, 0, 0) == [3, 3, 3, 255] && pixel(c, 1, 0) == [1, 1, 1, 255])
    }
}
