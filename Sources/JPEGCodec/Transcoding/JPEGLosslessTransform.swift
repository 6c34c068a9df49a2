/// A lossless rearrangement of a JPEG's DCT blocks, as libjpeg-turbo's `transupp.c` does it
/// for `jpegtran -flip`, `-rotate`, `-transpose` and `-transverse`.
///
/// Inside a block, mirroring negates the odd rows or columns of coefficients and a quarter turn
/// transposes them (the DCT basis functions are even or odd about the block's centre). Whole
/// iMCUs move; the partial iMCUs at the edges that a mirror would carry into the image's
/// interior cannot move, and are left as `transupp.c` leaves them: untouched by the mirror of
/// that axis (but still transposed, and mirrored along the other axis where it can be), unless
/// `trim` drops them.
public enum JPEGLosslessTransform: Sendable, Equatable, CaseIterable {
    /// `none` copies the blocks; `flipHorizontal` and `flipVertical` mirror left–right and
    /// top–bottom; `transpose` mirrors across the top-left to bottom-right diagonal, `transverse`
    /// across the other one; `rotate90`, `rotate180` and `rotate270` turn clockwise by that many
    /// degrees.
    case none, flipHorizontal, flipVertical, transpose, transverse, rotate90, rotate180, rotate270

    /// Whether the transform swaps width and height (and sampling factors).
    public var transposes: Bool {
        switch self {
        case .transpose, .transverse, .rotate90, .rotate270: true
        default: false
        }
    }

    /// The transform that turns an image stored with EXIF `orientation` (1–8, TIFF 6.0 tag
    /// 274) upright.
    public static func upright(orientation: Int) -> JPEGLosslessTransform {
        switch orientation {
        case 2: .flipHorizontal
        case 3: .rotate180
        case 4: .flipVertical
        case 5: .transpose
        case 6: .rotate90
        case 7: .transverse
        case 8: .rotate270
        default: .none
        }
    }

    /// Whether the output mirrors the source's columns (`x`) or rows (`y`), in output terms.
    var mirrorsX: Bool { [.flipHorizontal, .rotate90, .rotate180, .transverse].contains(self) }
    var mirrorsY: Bool { [.flipVertical, .rotate270, .rotate180, .transverse].contains(self) }
}

/// One component's blocks as the decoder holds them: `blocksWide × blocksHigh` blocks of 64
/// coefficients in natural order, row by row (padded to the source's whole MCUs).
struct JPEGSourcePlane {
    let blocksWide: Int
    let blocksHigh: Int
    var coefficients: [Int16]
}

/// Where each output block of a transform comes from: the sizes `transupp.c` computes for the
/// output (`jtransform_request_workspace`, with `-trim`'s `trim_right_edge`/`trim_bottom_edge`)
/// and the mirrorable extent of each component (`MCU_cols · h`, `MCU_rows · v`).
struct JPEGTransformGeometry {
    let transform: JPEGLosslessTransform
    let outputWidth: Int
    let outputHeight: Int
    /// Output sampling factors per component (transposed, or 1×1 for one component).
    let sampling: [(h: Int, v: Int)]
    /// Output blocks per component.
    let blocksWide: [Int]
    let blocksHigh: [Int]
    /// Per component, the output blocks across and down that lie in whole iMCUs and so can be
    /// mirrored.
    let mirrorWide: [Int]
    let mirrorHigh: [Int]

    init(width: Int, height: Int, sampling source: [(h: Int, v: Int)], transform: JPEGLosslessTransform, trim: Bool) {
        self.transform = transform
        let single = source.count == 1
        let t = transform.transposes
        let maxH = source.map(\.h).max() ?? 1, maxV = source.map(\.v).max() ?? 1
        // The output's iMCU in pixels (8 for one component, whose sampling becomes 1×1).
        let imcuW = single ? 8 : 8 * (t ? maxV : maxH)
        let imcuH = single ? 8 : 8 * (t ? maxH : maxV)
        var w = t ? height : width, h = t ? width : height
        if trim {
            if transform.mirrorsX, w / imcuW > 0 { w = w / imcuW * imcuW }
            if transform.mirrorsY, h / imcuH > 0 { h = h / imcuH * imcuH }
        }
        outputWidth = w
        outputHeight = h
        sampling = single ? [(1, 1)] : source.map { t ? (h: $0.v, v: $0.h) : $0 }
        let outMaxH = sampling.map(\.h).max() ?? 1, outMaxV = sampling.map(\.v).max() ?? 1
        blocksWide = sampling.map { (w * $0.h + 8 * outMaxH - 1) / (8 * outMaxH) }
        blocksHigh = sampling.map { (h * $0.v + 8 * outMaxV - 1) / (8 * outMaxV) }
        // transupp.c counts whole iMCUs of the untrimmed source along the output axis.
        let mcuCols = (t ? height : width) / (8 * outMaxH)
        let mcuRows = (t ? width : height) / (8 * outMaxV)
        mirrorWide = sampling.map { mcuCols * $0.h }
        mirrorHigh = sampling.map { mcuRows * $0.v }
    }

    /// Output MCUs per row and MCU rows (A.2.4).
    var mcusPerRow: Int { (outputWidth + 8 * outMaxH - 1) / (8 * outMaxH) }
    var mcuRows: Int { (outputHeight + 8 * outMaxV - 1) / (8 * outMaxV) }
    private var outMaxH: Int { sampling.map(\.h).max() ?? 1 }
    private var outMaxV: Int { sampling.map(\.v).max() ?? 1 }

    /// Transforms component `c`'s blocks: each output block is the source block it comes from,
    /// transposed and negated as `transupp.c` does; the output is padded to whole MCUs with
    /// libjpeg's dummy blocks. Source blocks outside `source` read as zero. Without a transform
    /// and with the same MCU grid, `source`'s blocks are taken over (it is left empty).
    func apply(_ source: inout JPEGSourcePlane, component c: Int) -> JPEGCoefficientPlane {
        let wide = blocksWide[c], high = blocksHigh[c]
        let (h, v) = sampling[c]
        let stride = mcusPerRow * h, rows = mcuRows * v
        // No transform and the same MCU grid: the decoder's blocks are the output's.
        if transform == .none, source.blocksWide == stride, source.blocksHigh == rows {
            var blocks: [Int16] = []
            swap(&blocks, &source.coefficients)
            if var out = JPEGCoefficientPlane(blocksPerRow: stride, blockRows: rows, coefficients: blocks) {
                out.fillDummyBlocks(blockRows: 0..<rows, realWidth: wide, realHeight: high, h: h)
                return out
            }
        }
        let cw = mirrorWide[c], ch = mirrorHigh[c]
        let t = transform.transposes
        // Every block is written below: the real ones here, the dummies by fillDummyBlocks.
        let blocks = [Int16](unsafeUninitializedCapacity: stride * rows * 64) { dst, initialized in
            source.coefficients.withUnsafeBufferPointer { src in
                for y in 0..<high {
                    for x in 0..<wide {
                        let mx = transform.mirrorsX && x < cw, my = transform.mirrorsY && y < ch
                        // Output (x, y) in the source's axes: a transpose swaps them.
                        let ox = mx ? cw - 1 - x : x, oy = my ? ch - 1 - y : y
                        let sx = t ? oy : ox, sy = t ? ox : oy
                        // Mirroring output x negates odd output columns: source rows when transposed.
                        let negateRows = t ? mx : my, negateColumns = t ? my : mx
                        let d = dst.baseAddress! + (y &* stride &+ x) &* 64
                        guard sx < source.blocksWide, sy < source.blocksHigh else {
                            d.initialize(repeating: 0, count: 64)
                            continue
                        }
                        Self.copyBlock(src.baseAddress! + (sy &* source.blocksWide &+ sx) &* 64, to: d, transpose: t,
                                       negateOddRows: negateRows, negateOddColumns: negateColumns)
                    }
                }
            }
            initialized = stride * rows * 64
        }
        guard var out = JPEGCoefficientPlane(blocksPerRow: stride, blockRows: rows, coefficients: blocks) else {
            return JPEGCoefficientPlane(blocksPerRow: stride, blockRows: rows)
        }
        out.fillDummyBlocks(blockRows: 0..<rows, realWidth: wide, realHeight: high, h: h)
        return out
    }

    /// Copies one block, transposed or not, negating the coefficients in odd rows and/or odd
    /// columns (of the source block) and so mirroring its pixels.
    @inline(__always)
    static func copyBlock(_ s: UnsafePointer<Int16>, to d: UnsafeMutablePointer<Int16>, transpose: Bool,
                          negateOddRows: Bool, negateOddColumns: Bool) {
        if !transpose && !negateOddRows && !negateOddColumns {
            d.initialize(from: s, count: 64)
            return
        }
        for i in 0..<8 {
            let rowSign = negateOddRows && i & 1 == 1
            for j in 0..<8 {
                let negate = rowSign != (negateOddColumns && j & 1 == 1)
                let v = s[i &* 8 &+ j]
                d[transpose ? j &* 8 &+ i : i &* 8 &+ j] = negate ? 0 &- v : v
            }
        }
    }
}
