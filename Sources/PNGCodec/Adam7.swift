/// Adam7 interlacing (PNG 3rd edition §8.2): seven passes over 8×8 tiles.
enum Adam7 {
    static let xStart = [0, 4, 0, 2, 0, 1, 0]
    static let yStart = [0, 0, 4, 0, 2, 0, 1]
    static let xStep = [8, 8, 4, 4, 2, 2, 1]
    static let yStep = [8, 8, 8, 4, 4, 2, 2]
    /// Size of the block each pass's pixel stands for in a progressive preview.
    static let blockWidth = [8, 4, 4, 2, 2, 1, 1]
    static let blockHeight = [8, 8, 4, 4, 2, 2, 1]

    /// Pixels across and rows in `pass` of a `width × height` image (either may be 0).
    static func passSize(_ pass: Int, width: Int, height: Int) -> (width: Int, height: Int) {
        let w = width > xStart[pass] ? (width - xStart[pass] + xStep[pass] - 1) / xStep[pass] : 0
        let h = height > yStart[pass] ? (height - yStart[pass] + yStep[pass] - 1) / yStep[pass] : 0
        return (w, h)
    }

    /// Fills every pixel not yet written by passes `0..<passesDone` from the pixel of the latest
    /// finished pass that covers it, giving a displayable preview (as libpng's "sparkle-free"
    /// progressive display does). Pixels of pass `passesDone` already written are kept.
    static func expandPreview(_ pixels: inout [UInt8], width: Int, height: Int, bytesPerPixel bpp: Int,
                              passesDone: Int) {
        guard passesDone > 0, passesDone < 7 else { return }
        let source = pixels
        let bw = blockWidth[passesDone - 1], bh = blockHeight[passesDone - 1]
        for y in 0..<height {
            let sy = y / bh * bh
            for x in 0..<width {
                let sx = x / bw * bw
                if sx == x && sy == y { continue }
                if writtenBy(passes: passesDone, x: x, y: y) { continue }
                let s = (sy * width + sx) * bpp, d = (y * width + x) * bpp
                for b in 0..<bpp { pixels[d + b] = source[s + b] }
            }
        }
    }

    /// Whether pixel (x, y) belongs to one of the first `passes` passes.
    static func writtenBy(passes: Int, x: Int, y: Int) -> Bool {
        for p in 0..<passes where x % xStep[p] == xStart[p] && y % yStep[p] == yStart[p] { return true }
        return false
    }
}
