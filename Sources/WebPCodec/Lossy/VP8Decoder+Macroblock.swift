/// Pointers to the buffers one macroblock row is parsed with, taken once per row: the
/// decoder's contexts, and the row's slots in its ``VP8RowJob`` (the current macroblock's).
struct VP8RowBuffers {
    let bytes: UnsafeBufferPointer<UInt8>
    let coefficientProbabilities: UnsafePointer<UInt8>
    let subblockModeProbabilities: UnsafePointer<UInt8>
    /// 4 per macroblock of the row above, then 4 for the left of the current macroblock.
    let modes: UnsafeMutablePointer<UInt8>
    /// 9 per macroblock of the row above, then 9 for the left.
    let nonZero: UnsafeMutablePointer<UInt8>
    /// The macroblock's ``VP8RowJob/coefficientsPerMacroblock`` coefficients.
    let coefficients: UnsafeMutablePointer<Int16>
    /// The macroblock's 16 sub-block modes, then 24 transform kinds (0 none, 1 DC only, 2 full).
    let blocks: UnsafeMutablePointer<UInt8>

    /// The same buffers with the job's slots of macroblock `mbX`.
    func at(_ mbX: Int, coefficients: UnsafeMutablePointer<Int16>, blocks: UnsafeMutablePointer<UInt8>) -> VP8RowBuffers {
        VP8RowBuffers(bytes: bytes, coefficientProbabilities: coefficientProbabilities,
                      subblockModeProbabilities: subblockModeProbabilities, modes: modes, nonZero: nonZero,
                      coefficients: coefficients + mbX * VP8RowJob.coefficientsPerMacroblock,
                      blocks: blocks + mbX * VP8RowJob.blocksPerMacroblock)
    }
}

/// What the first partition says about one macroblock (RFC 6386 19.3).
struct VP8MacroblockHeader: Sendable {
    var segment = 0
    var skipsCoefficients = false
    var isSubblockPredicted = false
    /// The 16×16 luma mode (B_PRED's sub-block modes are in the row buffers) and chroma mode,
    /// numbered as ``VP8Prediction/BlockMode``.
    var lumaMode: UInt8 = 0
    var chromaMode: UInt8 = 0
}

extension VP8Decoder {
    /// Parses every macroblock of row `mbY` into ``job``: header, coefficients, and the loop
    /// filter parameters (``VP8RowWriter`` reconstructs the row). Returns true when a partition
    /// ran out of data.
    mutating func decodeMacroblocks(_ mbY: Int, _ modes: inout VP8BoolDecoder, _ tokens: inout VP8BoolDecoder,
                                    _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let header = self.header
        let mbWidth = self.mbWidth
        let strengths = filterStrengths
        let filterType = layout.filterType
        var truncated = false
        header.coefficientProbabilities.withUnsafeBufferPointer { cp in
        VP8Tables.keyFrameSubblockModeProbabilities.withUnsafeBufferPointer { sp in
        topModes.withUnsafeMutableBufferPointer { tm in
        nonZero.withUnsafeMutableBufferPointer { nz in
        job.coefficients.withUnsafeMutableBufferPointer { co in
        job.blocks.withUnsafeMutableBufferPointer { bl in
        job.headers.withUnsafeMutableBufferPointer { hd in
        job.filters.withUnsafeMutableBufferPointer { rf in
            guard let cpb = cp.baseAddress, let spb = sp.baseAddress, let tmb = tm.baseAddress,
                  let nzb = nz.baseAddress, let cob = co.baseAddress, let blb = bl.baseAddress,
                  let hdb = hd.baseAddress, let rfb = rf.baseAddress else { return }
            let row = VP8RowBuffers(bytes: bytes, coefficientProbabilities: cpb, subblockModeProbabilities: spb,
                                    modes: tmb, nonZero: nzb, coefficients: cob, blocks: blb)
            // The left context starts over on each row (RFC 6386 11.3, 13.3).
            (tmb + mbWidth * 4).update(repeating: 0, count: 4)
            (nzb + mbWidth * 9).update(repeating: 0, count: 9)
            for mbX in 0..<mbWidth {
                let buffers = row.at(mbX, coefficients: cob, blocks: blb)
                let mb = Self.readMacroblockHeader(&modes, buffers, header: header, mbX: mbX, mbWidth: mbWidth)
                var allZero = true
                if mb.skipsCoefficients {
                    let top = nzb + mbX * 9, left = nzb + mbWidth * 9
                    top.update(repeating: 0, count: 8)
                    left.update(repeating: 0, count: 8)
                    if !mb.isSubblockPredicted { top[8] = 0; left[8] = 0 }
                    (buffers.blocks + 16).update(repeating: 0, count: 24)
                } else {
                    allZero = Self.readResiduals(&tokens, buffers, mb: mb, quant: header.quant[mb.segment],
                                                 mbX: mbX, mbWidth: mbWidth)
                }
                if tokens.isPastEnd { truncated = true; return }
                if filterType > 0 {
                    var info = strengths[mb.segment * 2 + (mb.isSubblockPredicted ? 1 : 0)]
                    info.filtersInner = info.filtersInner || !allZero
                    rfb[mbX] = info
                }
                hdb[mbX] = mb
            }
            if modes.isPastEnd { truncated = true }
        }}}}}}}}
        return truncated
    }

    /// RFC 6386 19.3 and 11.2 to 11.4: segment id, skip flag, luma mode (sub-block modes with
    /// the fixed key-frame probabilities and their above/left contexts), chroma mode.
    @inline(__always)
    static func readMacroblockHeader(_ r: inout VP8BoolDecoder, _ b: VP8RowBuffers, header: VP8FrameHeader,
                                     mbX: Int, mbWidth: Int) -> VP8MacroblockHeader {
        let bytes = b.bytes
        var mb = VP8MacroblockHeader()
        let seg = header.segmentation
        if seg.updatesMap {
            let p = seg.treeProbabilities
            mb.segment = !r.readBit(p[0], bytes) ? (r.readBit(p[1], bytes) ? 1 : 0) : (r.readBit(p[2], bytes) ? 3 : 2)
        }
        if header.usesSkipProbability { mb.skipsCoefficients = r.readBit(header.skipProbability, bytes) }
        let top = b.modes + mbX * 4
        let left = b.modes + mbWidth * 4
        mb.isSubblockPredicted = !r.readBit(145, bytes)
        if !mb.isSubblockPredicted {
            // kf_ymode_tree with kf_ymode_prob {145, 156, 163, 128}; numbered DC 0, TM 1, V 2, H 3,
            // which are also the sub-block modes they imply for the contexts (B_DC, B_TM, B_VE, B_HE).
            let mode: UInt8 = r.readBit(156, bytes) ? (r.readBit(128, bytes) ? 1 : 3) : (r.readBit(163, bytes) ? 2 : 0)
            mb.lumaMode = mode
            top.update(repeating: mode, count: 4)
            left.update(repeating: mode, count: 4)
        } else {
            for y in 0..<4 {
                var mode = left[y]
                for x in 0..<4 {
                    let p = b.subblockModeProbabilities + (Int(top[x]) * 10 + Int(mode)) * 9
                    mode = readSubblockMode(&r, p, bytes)
                    top[x] = mode
                    b.blocks[y * 4 + x] = mode
                }
                left[y] = mode
            }
        }
        // uv_mode_tree with kf_uv_mode_prob {142, 114, 183}.
        mb.chromaMode = !r.readBit(142, bytes) ? 0 : !r.readBit(114, bytes) ? 2 : r.readBit(183, bytes) ? 1 : 3
        return mb
    }

    /// bmode_tree (RFC 6386 11.2), modes numbered DC, TM, VE, HE, LD, RD, VR, VL, HD, HU.
    @inline(__always)
    static func readSubblockMode(_ r: inout VP8BoolDecoder, _ p: UnsafePointer<UInt8>,
                                 _ bytes: UnsafeBufferPointer<UInt8>) -> UInt8 {
        if !r.readBit(UInt32(p[0]), bytes) { return 0 }
        if !r.readBit(UInt32(p[1]), bytes) { return 1 }
        if !r.readBit(UInt32(p[2]), bytes) { return 2 }
        if !r.readBit(UInt32(p[3]), bytes) {
            if !r.readBit(UInt32(p[4]), bytes) { return 3 }
            return r.readBit(UInt32(p[5]), bytes) ? 6 : 5
        }
        if !r.readBit(UInt32(p[6]), bytes) { return 4 }
        if !r.readBit(UInt32(p[7]), bytes) { return 7 }
        return r.readBit(UInt32(p[8]), bytes) ? 9 : 8
    }
}
