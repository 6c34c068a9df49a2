/// How pixels are stored in the file: colour type, bit depth, palette and transparent colour
/// (PNG 3rd edition §11.2.1 IHDR, §11.2.3 PLTE, §11.3.2.1 tRNS).
struct PNGPixelLayout: Equatable {
    var colorType: PNGHeader.ColorType
    var bitDepth: Int
    /// Palette entries as RGBA8 packed `r | g << 8 | b << 16 | a << 24` (indexed colour only).
    var palette: [UInt32] = []
    /// The tRNS colour key in `bitDepth` units: one grey value, or R, G, B.
    var transparentKey: [Int]?

    /// Bits of one pixel.
    var bitsPerPixel: Int { bitDepth * colorType.channels }

    /// The filters' byte distance `bpp` (§7.3).
    var filterStride: Int { max(1, bitsPerPixel / 8) }

    /// Bytes of a scanline of `pixels` pixels, without the filter-type byte.
    func rowBytes(pixels: Int) -> Int { (pixels * bitsPerPixel + 7) / 8 }

    /// Whether some stored value is fully transparent (an APNG frame can then leave pixels
    /// unchanged with the OVER blend).
    var hasTransparentValue: Bool {
        switch colorType {
        case .greyscaleAlpha, .truecolorAlpha: true
        case .indexed: palette.contains { $0 >> 24 == 0 }
        case .greyscale, .truecolor: transparentKey != nil
        }
    }

    /// The 13-byte IHDR payload (§11.2.1).
    func headerPayload(width: Int, height: Int, interlaced: Bool) -> [UInt8] {
        var p = [UInt8]()
        PNGChunkWriter.appendBigEndian(UInt32(width), to: &p)
        PNGChunkWriter.appendBigEndian(UInt32(height), to: &p)
        p += [UInt8(bitDepth), colorType.rawValue, 0, 0, interlaced ? 1 : 0]
        return p
    }

    /// The PLTE payload (§11.2.3), empty unless indexed.
    var paletteChunk: [UInt8] {
        palette.flatMap { [UInt8(truncatingIfNeeded: $0), UInt8(truncatingIfNeeded: $0 >> 8), UInt8(truncatingIfNeeded: $0 >> 16)] }
    }

    /// The tRNS payload (§11.3.2.1), nil when there is none: palette alphas up to the last
    /// entry that is not opaque, or the colour key as 2-byte samples.
    var transparencyChunk: [UInt8]? {
        if colorType == .indexed {
            guard let last = palette.lastIndex(where: { $0 >> 24 != 255 }) else { return nil }
            return palette[...last].map { UInt8(truncatingIfNeeded: $0 >> 24) }
        }
        return transparentKey?.flatMap { [UInt8(truncatingIfNeeded: $0 >> 8), UInt8(truncatingIfNeeded: $0)] }
    }
}
