/// The forward predictor transform (RFC 9649 section 4.1): a mode per tile, chosen by the
/// estimated cost of its residuals, and the residual image `pixel − prediction` per component.
enum VP8LPredictorEncoding {
    /// Modes 0…13 (14 and 15 predict black, as 0 does).
    static let modeCount = 14

    /// Mode `mode`'s prediction of the pixel at `i` (x ≥ 1, y ≥ 1) of an image `width` wide;
    /// TR of the last column is the row's first pixel, as the decoder reads it.
    @inline(__always)
    static func predict(_ mode: Int, _ p: UnsafePointer<UInt32>, _ i: Int, _ width: Int) -> UInt32 {
        let left = p[i &- 1]
        let t = i &- width
        switch mode {
        case 1: return left
        case 2: return p[t]
        case 3: return p[t &+ 1]
        case 4: return p[t &- 1]
        case 5: return VP8LTransform.average2(VP8LTransform.average2(left, p[t &+ 1]), p[t])
        case 6: return VP8LTransform.average2(left, p[t &- 1])
        case 7: return VP8LTransform.average2(left, p[t])
        case 8: return VP8LTransform.average2(p[t &- 1], p[t])
        case 9: return VP8LTransform.average2(p[t], p[t &+ 1])
        case 10:
            return VP8LTransform.average2(VP8LTransform.average2(left, p[t &- 1]),
                                          VP8LTransform.average2(p[t], p[t &+ 1]))
        case 11: return VP8LTransform.selectSIMD(left, p[t], p[t &- 1])
        case 12: return VP8LTransform.clampAddSubtractFullSIMD(left, p[t], p[t &- 1])
        case 13: return VP8LTransform.clampAddSubtractHalfSIMD(VP8LTransform.average2(left, p[t]), p[t &- 1])
        default: return VP8LTransform.black
        }
    }

    /// `a − b` per component, modulo 256.
    @inline(__always)
    static func subtractPixels(_ a: UInt32, _ b: UInt32) -> UInt32 {
        let alphaGreen = (a | 0x00FF_00FF) &- (b & 0xFF00_FF00)
        let redBlue = (a | 0xFF00_FF00) &- (b & 0x00FF_00FF)
        return (alphaGreen & 0xFF00_FF00) | (redBlue & 0x00FF_00FF)
    }

    /// The mode of each tile (`1 << bits` square), as the transform image stores it (the mode
    /// in green, alpha opaque). `modes` lists the modes tried.
    static func chooseModes(_ pixels: UnsafeBufferPointer<UInt32>, width: Int, height: Int, bits: Int,
                            modes: [Int]) -> [UInt32] {
        let tilesX = VP8LEntropyCoding.subsampledSize(width, bits: bits)
        let tilesY = VP8LEntropyCoding.subsampledSize(height, bits: bits)
        var chosen = [UInt32](repeating: VP8LTransform.black | 11 << 8, count: tilesX * tilesY)
        guard let p = pixels.baseAddress, height > 1, width > 1 else { return chosen }
        var costs = VP8LResidualCosts()
        for ty in 0..<tilesY {
            costs.refresh()
            let y0 = max(1, ty << bits), y1 = min(height, (ty + 1) << bits)
            for tx in 0..<tilesX {
                let x0 = max(1, tx << bits), x1 = min(width, (tx + 1) << bits)
                let left = tx > 0 ? Int((chosen[ty * tilesX + tx - 1] >> 8) & 0xF) : -1
                let above = ty > 0 ? Int((chosen[(ty - 1) * tilesX + tx] >> 8) & 0xF) : -1
                var bestMode = 0, bestCost = Int.max
                for mode in modes where y0 < y1 && x0 < x1 {
                    var cost = costs.tileCost(p, width: width, x0: x0, x1: x1, y0: y0, y1: y1) { i in
                        subtractPixels(p[i], predict(mode, p, i, width))
                    }
                    // A mode shared with a neighbouring tile makes the mode image cheaper.
                    if mode == left || mode == above { cost -= VP8LResidualCosts.one * 4 }
                    if cost < bestCost {
                        bestCost = cost
                        bestMode = mode
                    }
                }
                chosen[ty * tilesX + tx] = VP8LTransform.black | UInt32(bestMode) << 8
                if y0 < y1 && x0 < x1 {
                    costs.record(p, width: width, x0: x0, x1: x1, y0: y0, y1: y1) { i in
                        subtractPixels(p[i], predict(bestMode, p, i, width))
                    }
                }
            }
        }
        return chosen
    }

    /// The residuals of `pixels` with the tile modes `modes`: the top row predicts from the
    /// left (the first pixel from black), the first column from above. Unless `exact`, a fully
    /// transparent pixel takes its prediction's colour (alpha stays 0), so that its red, green
    /// and blue residuals are 0; `pixels` is changed to match, as later predictions read it.
    static func residuals(_ pixels: UnsafeMutableBufferPointer<UInt32>, width: Int, height: Int, bits: Int,
                          modes: [UInt32], exact: Bool) -> [UInt32] {
        let tilesX = VP8LEntropyCoding.subsampledSize(width, bits: bits)
        return [UInt32](unsafeUninitializedCapacity: pixels.count) { out, count in
            guard let p = pixels.baseAddress else { return }
            @inline(__always) func residual(_ i: Int, _ prediction: UInt32) -> UInt32 {
                if !exact && p[i] < 0x0100_0000 { p[i] = prediction & 0x00FF_FFFF }
                return subtractPixels(p[i], prediction)
            }
            for y in 0..<height {
                let row = y &* width
                if y == 0 {
                    out[0] = residual(0, VP8LTransform.black)
                    for x in 1..<max(1, width) { out[x] = residual(x, p[x &- 1]) }
                    continue
                }
                out[row] = residual(row, p[row &- width])
                var x = 1
                while x < width {
                    let tx = x >> bits
                    let mode = Int((modes[(y >> bits) &* tilesX &+ tx] &>> 8) & 0xF)
                    let end = min(width, (tx &+ 1) << bits)
                    while x < end {
                        let i = row &+ x
                        out[i] = residual(i, predict(mode, p, i, width))
                        x &+= 1
                    }
                }
            }
            count = pixels.count
        }
    }
}
