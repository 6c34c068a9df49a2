/// Colour indexing (RFC 9649 section 4.4), encoding side: the palette of an image with at most
/// 256 colours, and the index image, bundled (2, 4 or 8 indices a pixel) for 16 colours or fewer.
enum VP8LPaletteEncoding {
    /// The distinct colours of `pixels` in ascending order, or nil when there are more than 256.
    static func palette(_ pixels: UnsafeBufferPointer<UInt32>) -> [UInt32]? {
        // Open addressing over 1024 slots; slot value 0 with `zeroSeen` tracks colour 0.
        var slots = [UInt32](repeating: 0, count: 1024)
        var colors: [UInt32] = []
        var zeroSeen = false
        var last: UInt32 = 0
        var lastValid = false
        for argb in pixels {
            if lastValid && argb == last { continue }
            last = argb
            lastValid = true
            if argb == 0 {
                if !zeroSeen { zeroSeen = true; colors.append(0) }
            } else {
                var h = Int((argb &* 0x1E35_A7BD) &>> 22)
                while slots[h] != 0 && slots[h] != argb { h = (h &+ 1) & 1023 }
                if slots[h] == 0 {
                    slots[h] = argb
                    colors.append(argb)
                }
            }
            if colors.count > 256 { return nil }
        }
        return colors.sorted()
    }

    /// RFC 9649 4.4: `width_bits` for a palette of `size` colours.
    static func bundleBits(_ size: Int) -> Int {
        size > 16 ? 0 : size > 4 ? 1 : size > 2 ? 2 : 3
    }

    /// The index image (indices in green, packed lowest first when bundled) and its width.
    static func indexImage(_ pixels: UnsafeBufferPointer<UInt32>, width: Int, height: Int,
                           palette: [UInt32]) -> (pixels: [UInt32], width: Int) {
        var lookup: [UInt32: UInt32] = [:]
        for (i, c) in palette.enumerated() { lookup[c] = UInt32(i) }
        let bits = bundleBits(palette.count)
        let packedWidth = VP8LEntropyCoding.subsampledSize(width, bits: bits)
        let bitsPerIndex = UInt32(8 >> bits)
        var out = [UInt32](repeating: 0xFF00_0000, count: packedWidth * height)
        var last: UInt32 = palette.first ?? 0
        var lastIndex: UInt32 = 0
        for y in 0..<height {
            for x in 0..<width {
                let argb = pixels[y * width + x]
                if argb != last {
                    last = argb
                    lastIndex = lookup[argb] ?? 0
                }
                let slot = y * packedWidth + (x >> bits)
                let shift = 8 + UInt32(x & ((1 << bits) - 1)) * bitsPerIndex
                out[slot] |= lastIndex << shift
            }
        }
        return (out, packedWidth)
    }

    /// The palette as its sub-image stores it: each entry minus the previous, per component.
    static func deltaCoded(_ palette: [UInt32]) -> [UInt32] {
        var out = palette
        for i in stride(from: palette.count - 1, to: 0, by: -1) {
            out[i] = VP8LPredictorEncoding.subtractPixels(palette[i], palette[i - 1])
        }
        return out
    }
}
