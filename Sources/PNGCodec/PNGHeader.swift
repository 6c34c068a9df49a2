import CodecCore

/// The IHDR chunk (PNG 3rd edition §11.2.1).
struct PNGHeader: Equatable {
    /// PNG §11.2.1 Table 11 "Allowed combinations of colour type and bit depth".
    enum ColorType: UInt8 {
        case greyscale = 0
        case truecolor = 2
        case indexed = 3
        case greyscaleAlpha = 4
        case truecolorAlpha = 6

        /// Samples per pixel.
        var channels: Int {
            switch self {
            case .greyscale, .indexed: 1
            case .greyscaleAlpha: 2
            case .truecolor: 3
            case .truecolorAlpha: 4
            }
        }

        func allows(bitDepth: Int) -> Bool {
            switch self {
            case .greyscale: [1, 2, 4, 8, 16].contains(bitDepth)
            case .indexed: [1, 2, 4, 8].contains(bitDepth)
            case .truecolor, .greyscaleAlpha, .truecolorAlpha: bitDepth == 8 || bitDepth == 16
            }
        }
    }

    let width: Int
    let height: Int
    let bitDepth: Int
    let colorType: ColorType
    let interlaced: Bool

    /// Parses and validates the 13-byte IHDR payload.
    init(_ p: UnsafeBufferPointer<UInt8>) throws(DecodingError) {
        guard p.count == 13 else { throw .invalidData("IHDR length is not 13") }
        let w = Int(p[0]) << 24 | Int(p[1]) << 16 | Int(p[2]) << 8 | Int(p[3])
        let h = Int(p[4]) << 24 | Int(p[5]) << 16 | Int(p[6]) << 8 | Int(p[7])
        guard w > 0, h > 0, w <= Int(Int32.max), h <= Int(Int32.max) else {
            throw .invalidData("IHDR width or height is 0 or above 2^31-1")
        }
        guard let type = ColorType(rawValue: p[9]) else { throw .invalidData("IHDR colour type is not 0, 2, 3, 4 or 6") }
        guard type.allows(bitDepth: Int(p[8])) else { throw .invalidData("IHDR bit depth is not allowed for the colour type") }
        guard p[10] == 0 else { throw .invalidData("IHDR compression method is not 0") }
        guard p[11] == 0 else { throw .invalidData("IHDR filter method is not 0") }
        guard p[12] <= 1 else { throw .invalidData("IHDR interlace method is not 0 or 1") }
        width = w
        height = h
        bitDepth = Int(p[8])
        colorType = type
        interlaced = p[12] == 1
    }

    /// Bits of one pixel.
    var bitsPerPixel: Int { bitDepth * colorType.channels }

    /// The filter's byte distance `bpp` (§7.3): bytes per complete pixel, at least 1.
    var filterStride: Int { max(1, bitsPerPixel / 8) }

    /// Bytes in one scanline of `pixels` pixels, without the filter-type byte.
    func rowBytes(pixels: Int) -> Int { (pixels * bitsPerPixel + 7) / 8 }
}
