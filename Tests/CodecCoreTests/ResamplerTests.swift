import Testing
@testable import CodecCore

struct ResamplerTests {
    @Test func fittedSizeKeepsAspectAndNeverEnlarges() {
        #expect(StreamingResampler.fittedSize(width: 4000, height: 3000, maxPixelSize: 400) == (400, 300))
        #expect(StreamingResampler.fittedSize(width: 30, height: 20, maxPixelSize: 400) == (30, 20))
        #expect(StreamingResampler.fittedSize(width: 10000, height: 1, maxPixelSize: 100) == (100, 1))
    }

    @Test func boxFilterAveragesAndWeighsByAlpha() {
        // 2×2 → 1×1: red opaque, blue opaque, two transparent pixels with colour that must not leak.
        let image = Raster(width: 2, height: 2, bytesPerPixel: 4,
                           pixels: [255, 0, 0, 255, 0, 0, 255, 255, 0, 255, 0, 0, 0, 255, 0, 0])
        let out = StreamingResampler.resample(image, toWidth: 1, height: 1)
        #expect(out.pixels == [128, 0, 128, 128])
    }

    @Test func streamingRowsBecomeFinal() {
        var r = StreamingResampler(inputWidth: 4, inputHeight: 4, outputWidth: 2, outputHeight: 2)
        let row = [UInt8](repeating: 200, count: 16)
        for y in 0..<3 { row.withUnsafeBufferPointer { r.consume(row: $0, y: y) } }
        #expect(r.finishedOutputRows == 1)
        row.withUnsafeBufferPointer { r.consume(row: $0, y: 3) }
        #expect(r.finishedOutputRows == 2)
        #expect(r.raster.pixels == [UInt8](repeating: 200, count: 16))
    }

    /// Pixels given in any order and any grouping (Adam7 passes, interlaced rows, a frame at an
    /// offset on a larger canvas) shrink to the same image as the whole raster does.
    @Test func anyOrderEqualsWholeRaster() {
        var rng = SystemRandomNumberGenerator()
        let width = 37, height = 23
        let pixels = (0..<(width * height * 4)).map { _ in UInt8.random(in: 0...255, using: &rng) }
        let whole = Raster(width: width, height: height, bytesPerPixel: 4, pixels: pixels)
        let expected = StreamingResampler.resample(whole, toWidth: 10, height: 7)
        var sparse = StreamingResampler(inputWidth: width, inputHeight: height, outputWidth: 10, outputHeight: 7)
        for (x0, step) in [(0, 3), (1, 3), (2, 3)] {
            for y in (0..<height).reversed() {
                let count = (width - x0 + step - 1) / step
                var picked: [UInt8] = []
                for i in 0..<count {
                    let p = (y * width + x0 + i * step) * 4
                    picked += pixels[p..<(p + 4)]
                }
                picked.withUnsafeBufferPointer { sparse.accumulate($0.baseAddress!, count: count, x: x0, step: step, y: y) }
            }
        }
        #expect(sparse.finishedOutputRows == 0)
        sparse.markFinal(rows: height)
        #expect(sparse.finishedOutputRows == 7 && sparse.raster == expected)

        // A 5×4 opaque frame at (30, 19) of the canvas: the rest of the canvas is transparent.
        var canvas = [UInt8](repeating: 0, count: width * height * 4)
        var placed = StreamingResampler(inputWidth: width, inputHeight: height, outputWidth: 10, outputHeight: 7)
        let frame = [UInt8](repeating: 200, count: 5 * 4)
        for y in 0..<4 {
            frame.withUnsafeBufferPointer { placed.accumulate($0.baseAddress!, count: 5, x: 30, y: 19 + y) }
            for x in 0..<5 { for c in 0..<4 { canvas[((19 + y) * width + 30 + x) * 4 + c] = 200 } }
        }
        let reference = Raster(width: width, height: height, bytesPerPixel: 4, pixels: canvas)
        #expect(placed.raster == StreamingResampler.resample(reference, toWidth: 10, height: 7))
    }
}
