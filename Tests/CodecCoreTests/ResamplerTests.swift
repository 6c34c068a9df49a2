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
        for _ in 0..<3 { row.withUnsafeBufferPointer { r.consume(row: $0) } }
        #expect(r.finishedOutputRows == 1)
        row.withUnsafeBufferPointer { r.consume(row: $0) }
        #expect(r.finishedOutputRows == 2)
        #expect(r.raster.pixels == [UInt8](repeating: 200, count: 16))
    }
}
