import ImageCodecs
import PNGCodec
import Testing

/// The command-line tool's PNG writer: what it writes decodes to the same pixels.
struct PNGWriterTests {
    @Test(arguments: [4, 8])
    func roundTrip(bytesPerPixel: Int) throws {
        let width = 37, height = 23
        let pixels = (0..<(width * height * bytesPerPixel)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 / 7) }
        let raster = Raster(width: width, height: height, bytesPerPixel: bytesPerPixel, pixels: pixels)
        var options = DecodingOptions()
        options.prefersSixteenBitOutput = true
        let source = ImageSource(bytes: try PNGWriter.encode(raster), options: options)
        #expect(source.status == .complete)
        let image = try source.image(at: 0)
        #expect(image.width == width && image.height == height)
        #expect(image.pixels == pixels)
        #expect(source.properties?.bitDepth == bytesPerPixel * 2)
    }
}
