import Testing
@testable import CodecCore

struct PixelConversionTests {
    @Test func premultiplyRoundTripsWithinOne() {
        var pixels: [UInt8] = []
        for a in stride(from: 0, through: 255, by: 15) { for c in stride(from: 0, through: 255, by: 17) { pixels += [UInt8(c), 0, 255, UInt8(a)] } }
        var p = pixels
        PixelConversion.premultiplyRGBA8(&p)
        #expect(p[3] == 0 && p[0] == 0)
        PixelConversion.unpremultiplyRGBA8(&p)
        for i in stride(from: 0, to: p.count, by: 4) where pixels[i + 3] >= 128 {
            #expect(abs(Int(p[i]) - Int(pixels[i])) <= 1)
        }
    }

    @Test func optionsGiveBGRAAndNarrowSixteenBit() {
        let wide: [UInt16] = [0x1234, 0xABCD, 0xFF00, 0xFFFF]
        let raster = Raster(width: 1, height: 1, bytesPerPixel: 8, pixels: wide.withUnsafeBytes { Array($0) })
        var options = DecodingOptions()
        options.byteOrder = .bgra8
        let image = DecodedImage(raster: raster, finalRowCount: 1, options: options)
        #expect(image.pixelFormat == .bgra8)
        #expect(image.pixels == [0xFF, 0xAB, 0x12, 0xFF])
        #expect(image.rgba8Raster().pixels == [0x12, 0xAB, 0xFF, 0xFF])
        options.prefersSixteenBitOutput = true
        let sixteen = DecodedImage(raster: raster, finalRowCount: 1, options: options)
        #expect(sixteen.pixelFormat == .rgba16 && sixteen.bytesPerRow == 8)
    }
}
