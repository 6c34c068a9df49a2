import Testing
@testable import CodecCore

struct OrientationTests {
    /// A 3×2 image whose pixels are numbered 0…5 in the first byte.
    let image = Raster(width: 3, height: 2, bytesPerPixel: 4,
                       pixels: (0..<6).flatMap { [UInt8($0), 0, 0, 255] })

    func firstBytes(_ r: Raster) -> [UInt8] { stride(from: 0, to: r.pixels.count, by: 4).map { r.pixels[$0] } }

    @Test(arguments: [
        (1, 3, [0, 1, 2, 3, 4, 5]), (2, 3, [2, 1, 0, 5, 4, 3]), (3, 3, [5, 4, 3, 2, 1, 0]),
        (4, 3, [3, 4, 5, 0, 1, 2]), (5, 2, [0, 3, 1, 4, 2, 5]), (6, 2, [3, 0, 4, 1, 5, 2]),
        (7, 2, [5, 2, 4, 1, 3, 0]), (8, 2, [2, 5, 1, 4, 0, 3]),
    ])
    func everyOrientation(orientation: Int, width: Int, expected: [UInt8]) {
        let out = Orientation.apply(orientation, to: image)
        #expect(out.width == width)
        #expect(firstBytes(out) == expected)
    }

    @Test func readsOrientationFromEXIF() {
        // Big-endian TIFF header, IFD0 at 8 with one entry: tag 274, SHORT, count 1, value 6.
        let tiff: [UInt8] = [0x4D, 0x4D, 0, 42, 0, 0, 0, 8, 0, 1, 0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, 6, 0, 0, 0, 0, 0, 0]
        #expect(Orientation.fromEXIF(tiff) == 6)
        #expect(Orientation.fromEXIF(Array("Exif".utf8) + [0, 0] + tiff) == 6)
        #expect(Orientation.fromEXIF(Array(tiff[0..<12])) == nil)
        let little: [UInt8] = [0x49, 0x49, 42, 0, 8, 0, 0, 0, 1, 0, 0x12, 0x01, 3, 0, 1, 0, 0, 0, 3, 0, 0, 0]
        #expect(Orientation.fromEXIF(little) == 3)
    }
}
