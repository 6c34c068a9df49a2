import CodecCore

extension VP8RowWriter {
    /// Reconstructs the macroblock row parsed into `job` (RFC 6386 12 and 14.5) into its band,
    /// lines ``VP8Decoder/bandExtraLines`` on, one macroblock at a time in the work area.
    mutating func reconstructRow(_ job: inout VP8RowJob) {
        let l = layout, mbY = job.mbRow
        let ys = l.yStride, uvs = l.uvStride
        let extra = VP8Decoder.bandExtraLines
        job.planes.withUnsafeMutableBufferPointer { pl in
        job.coefficients.withUnsafeMutableBufferPointer { co in
        job.blocks.withUnsafeMutableBufferPointer { bl in
        job.headers.withUnsafeBufferPointer { hd in
        work.withUnsafeMutableBufferPointer { wk in
        topSamples.withUnsafeMutableBufferPointer { ts in
            guard let plb = pl.baseAddress, let cob = co.baseAddress, let blb = bl.baseAddress,
                  let hdb = hd.baseAddress, let wkb = wk.baseAddress, let tsb = ts.baseAddress else { return }
            Self.startRow(wkb, mbY: mbY)
            for mbX in 0..<l.mbWidth {
                let area = VP8WorkArea(work: wkb, topSamples: tsb,
                                       coefficients: cob + mbX * VP8RowJob.coefficientsPerMacroblock,
                                       blocks: blb + mbX * VP8RowJob.blocksPerMacroblock)
                Self.reconstruct(area, mb: hdb[mbX], mbX: mbX, mbY: mbY, mbWidth: l.mbWidth, mbHeight: l.mbHeight)
                // Copy the macroblock into the band's current row.
                let yDst = plb + extra * ys + mbX * 16
                for j in 0..<16 { (yDst + j * ys).update(from: wkb + Self.yWork + j * 32, count: 16) }
                let uvOff = extra / 2 * uvs + mbX * 8
                for j in 0..<8 {
                    (plb + l.uOffset + uvOff + j * uvs).update(from: wkb + Self.uWork + j * 32, count: 8)
                    (plb + l.vOffset + uvOff + j * uvs).update(from: wkb + Self.vWork + j * 32, count: 8)
                }
            }
        }}}}}}
    }

    /// The work area's edges at the start of a row: 129 on the left, and above the first row
    /// 127 (corner and four samples to the right included); below it the corner is 129.
    static func startRow(_ w: UnsafeMutablePointer<UInt8>, mbY: Int) {
        for j in 0..<16 { w[yWork + j * 32 - 1] = 129 }
        for j in 0..<8 { w[uWork + j * 32 - 1] = 129; w[vWork + j * 32 - 1] = 129 }
        if mbY > 0 {
            w[yWork - 33] = 129; w[uWork - 33] = 129; w[vWork - 33] = 129
        } else {
            (w + yWork - 33).update(repeating: 127, count: 21)
            (w + uWork - 33).update(repeating: 127, count: 9)
            (w + vWork - 33).update(repeating: 127, count: 9)
        }
    }

    /// Offsets of the 16 luma sub-blocks in the work area, raster order.
    @inline(__always) static func subblockOffset(_ n: Int) -> Int { (n & 3) &* 4 &+ (n >> 2) &* 128 }

    /// Predicts and reconstructs one macroblock in the work area (RFC 6386 12 and 14.5), with
    /// libwebp's edges: the left column comes from the previous macroblock (unfiltered), the row
    /// above from ``topSamples`` (unfiltered), and for B_PRED the four samples above-right of
    /// the macroblock are those of the next macroblock above (the last macroblock of a row
    /// repeats its own last sample above), repeated for the right column's lower sub-blocks.
    /// Saves the bottom row for the row below.
    static func reconstruct(_ b: VP8WorkArea, mb: VP8MacroblockHeader, mbX: Int, mbY: Int,
                            mbWidth: Int, mbHeight: Int) {
        let w = b.work
        let y = w + yWork, u = w + uWork, v = w + vWork
        let bps = 32
        let top = b.topSamples + mbX * 32
        loadEdges(w, top: top, mbX: mbX, mbY: mbY, mbWidth: mbWidth, isSubblockPredicted: mb.isSubblockPredicted)
        let coeffs = b.coefficients
        let kinds = b.blocks + 16
        if mb.isSubblockPredicted {
            for n in 0..<16 {
                let dst = y + subblockOffset(n)
                VP8Prediction.predictSubblock(b.blocks[n], dst)
                addResidual(kinds[n], coeffs + n * 16, dst)
            }
        } else {
            VP8Prediction.predictBlock(VP8Prediction.edgeMode(mb.lumaMode, mbX: mbX, mbY: mbY), size: 16, y)
            for n in 0..<16 { addResidual(kinds[n], coeffs + n * 16, y + subblockOffset(n)) }
        }
        let chroma = VP8Prediction.edgeMode(mb.chromaMode, mbX: mbX, mbY: mbY)
        VP8Prediction.predictBlock(chroma, size: 8, u)
        VP8Prediction.predictBlock(chroma, size: 8, v)
        for k in 0..<4 {
            let offset = (k & 1) * 4 + (k >> 1) * 4 * bps
            addResidual(kinds[16 + k], coeffs + (16 + k) * 16, u + offset)
            addResidual(kinds[20 + k], coeffs + (20 + k) * 16, v + offset)
        }
        if mbY < mbHeight - 1 { saveTop(w, top: top) }
    }

    /// The edges of a macroblock in the work area `w` (RFC 6386 12.2, 12.3, as libwebp sets
    /// them): the previous macroblock's right columns become the left edge, the row above comes
    /// from `top` (the saved bottom rows), and for B_PRED the four samples above-right (those of
    /// the next macroblock above; the last of a row repeats its own last sample above) are
    /// repeated for the right column's lower sub-blocks. Shared with the encoder.
    static func loadEdges(_ w: UnsafeMutablePointer<UInt8>, top: UnsafePointer<UInt8>, mbX: Int, mbY: Int,
                          mbWidth: Int, isSubblockPredicted: Bool) {
        let y = w + yWork, u = w + uWork, v = w + vWork
        let bps = 32
        if mbX > 0 {
            for j in -1..<16 { (y + j * bps - 4).update(from: y + j * bps + 12, count: 4) }
            for j in -1..<8 {
                (u + j * bps - 4).update(from: u + j * bps + 4, count: 4)
                (v + j * bps - 4).update(from: v + j * bps + 4, count: 4)
            }
        }
        if mbY > 0 {
            (y - bps).update(from: top, count: 16)
            (u - bps).update(from: top + 16, count: 8)
            (v - bps).update(from: top + 24, count: 8)
        }
        guard isSubblockPredicted else { return }
        let topRight = y - bps + 16
        if mbY > 0 {
            if mbX >= mbWidth - 1 {
                topRight.update(repeating: top[15], count: 4)
            } else {
                topRight.update(from: top + 32, count: 4)
            }
        }
        for k in 1..<4 { (topRight + 4 * k * bps).update(from: topRight, count: 4) }
    }

    /// Saves the macroblock's bottom rows (16 luma, 8 + 8 chroma) for the row below.
    static func saveTop(_ w: UnsafePointer<UInt8>, top: UnsafeMutablePointer<UInt8>) {
        top.update(from: w + yWork + 15 * 32, count: 16)
        (top + 16).update(from: w + uWork + 7 * 32, count: 8)
        (top + 24).update(from: w + vWork + 7 * 32, count: 8)
    }

    @inline(__always)
    static func addResidual(_ kind: UInt8, _ coeffs: UnsafeMutablePointer<Int16>, _ dst: UnsafeMutablePointer<UInt8>) {
        if kind == 2 {
            if VectorKernels.arePreferred {
                VP8TransformSIMD.inverseDCT(coeffs, dst)
            } else {
                VP8Transform.inverseDCT(coeffs, dst)
            }
        } else if kind == 1 {
            VP8Transform.inverseDCTDCOnly(coeffs, dst)
        }
    }
}

/// Pointers to what one macroblock is reconstructed with: the work area, the unfiltered
/// bottom samples of the row above, and the macroblock's coefficients and block kinds.
struct VP8WorkArea {
    let work: UnsafeMutablePointer<UInt8>
    let topSamples: UnsafeMutablePointer<UInt8>
    let coefficients: UnsafeMutablePointer<Int16>
    /// 16 sub-block modes, then 24 transform kinds (0 none, 1 DC only, 2 full).
    let blocks: UnsafeMutablePointer<UInt8>
}
