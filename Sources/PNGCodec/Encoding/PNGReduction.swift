/// Lossless reductions (after oxipng): the smallest colour type and bit depth that hold every
/// pixel exactly, chosen from a ``PNGColorAnalysis``. Each rule is a small pure function.
enum PNGReduction {
    /// The layouts that hold the pixels exactly, the preferred one first: grey at the smallest
    /// depth when it needs no alpha channel, a palette for 256 colours or fewer when it is
    /// smaller per pixel, then the direct colour type (without alpha when opaque or when one
    /// colour key covers the transparent pixels; 16 bits only when 8 would lose information).
    /// `keyIsFree`: no opaque pixel has the transparent pixels' colour.
    static func candidates(_ a: PNGColorAnalysis, keyIsFree: Bool) -> [PNGPixelLayout] {
        let depth = a.fitsEightBits ? 8 : 16
        let key = a.allowsColorKey && keyIsFree ? a.transparentColor : nil
        let needsAlpha = !a.isOpaque && key == nil
        var direct: PNGPixelLayout
        if a.isGray {
            let d = depth == 8 ? grayDepth(a.grayLevels) : 16
            direct = PNGPixelLayout(colorType: needsAlpha ? .greyscaleAlpha : .greyscale, bitDepth: needsAlpha ? depth : d)
            if let key { direct.transparentKey = [scaled(key & 0xFFFF, toDepth: d)] }
        } else {
            direct = PNGPixelLayout(colorType: needsAlpha ? .truecolorAlpha : .truecolor, bitDepth: depth)
            if let key {
                direct.transparentKey = [0, 16, 32].map { scaled((key >> UInt64($0)) & 0xFFFF, toDepth: depth) }
            }
        }
        guard depth == 8, !a.colors.overflowed else { return [direct] }
        let indexed = PNGPixelLayout(colorType: .indexed, bitDepth: paletteDepth(a.colors.colors.count),
                                     palette: paletteOrder(a.colors.colors))
        let palettePays = indexed.bitsPerPixel < direct.bitsPerPixel
        return palettePays ? [indexed, direct] : [direct, indexed]
    }

    /// The smallest grey bit depth (1, 2, 4 or 8) whose values, scaled up by bit replication
    /// (§13.12), give every level seen.
    static func grayDepth(_ seen: [Bool]) -> Int {
        for depth in [1, 2, 4] {
            let step = 255 / ((1 << depth) - 1)
            if seen.indices.allSatisfy({ !seen[$0] || $0 % step == 0 }) { return depth }
        }
        return 8
    }

    /// The smallest palette bit depth holding `count` entries.
    static func paletteDepth(_ count: Int) -> Int {
        count <= 2 ? 1 : count <= 4 ? 2 : count <= 16 ? 4 : 8
    }

    /// Palette entries that are not opaque first (so tRNS stays short), each group in the order
    /// the colours were met.
    static func paletteOrder(_ colors: [UInt32]) -> [UInt32] {
        colors.filter { $0 >> 24 != 255 } + colors.filter { $0 >> 24 == 255 }
    }

    /// A 16-bit sample value (v × 257 for 8-bit sources) in `depth` bits.
    static func scaled(_ v16: UInt64, toDepth depth: Int) -> Int {
        depth == 16 ? Int(v16) : Int(v16 >> 8) / (255 / ((1 << depth) - 1))
    }
}
