/// Pointers to the buffers one macroblock row is parsed with, taken once per row: the
/// decoder's contexts, and the row's slots in its ``VP8RowJob`` (the current macroblock's).
struct VP8RowBuffers {
    let bytes: UnsafeBufferPointer<UInt8>
    let coefficientProbabilities: UnsafePointer<UInt8>
    /// 9 per macroblock of the row above, then 9 for the left.
    let nonZero: UnsafeMutablePointer<UInt8>
    /// The macroblock's ``VP8RowJob/coefficientsPerMacroblock`` coefficients.
    let coefficients: UnsafeMutablePointer<Int16>
    /// The macroblock's 16 sub-block modes, then 24 transform kinds (0 none, 1 DC only, 2 full).
    let blocks: UnsafeMutablePointer<UInt8>

    /// The same buffers with the job's slots of macroblock `mbX`.
    func at(_ mbX: Int, coefficients: UnsafeMutablePointer<Int16>, blocks: UnsafeMutablePointer<UInt8>) -> VP8RowBuffers {
        VP8RowBuffers(bytes: bytes, coefficientProbabilities: coefficientProbabilities, nonZero: nonZero,
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
    /// Parses every macroblock of row `mbY` into ``job``: headers (from ``modeRows``),
    /// coefficients, and the loop filter parameters (``VP8RowWriter`` reconstructs the row).
    /// Returns true when a partition ran out of data.
    mutating func decodeMacroblocks(_ mbY: Int, _ tokens: inout VP8BoolDecoder, _ bytes: UnsafeBufferPointer<UInt8>,
                                    isFinal: Bool) -> Bool {
        guard let modesTruncated = modeRows.claim(mbY, bytes: bytes, isFinal: isFinal), !modesTruncated else { return true }
        let header = self.header
        let mbWidth = self.mbWidth
        let strengths = filterStrengths
        let filterType = layout.filterType
        let modeRows = self.modeRows
        var truncated = false
        header.coefficientProbabilities.withUnsafeBufferPointer { cp in
        nonZero.withUnsafeMutableBufferPointer { nz in
        job.coefficients.withUnsafeMutableBufferPointer { co in
        job.blocks.withUnsafeMutableBufferPointer { bl in
        job.headers.withUnsafeMutableBufferPointer { hd in
        job.filters.withUnsafeMutableBufferPointer { rf in
            guard let cpb = cp.baseAddress, let nzb = nz.baseAddress, let cob = co.baseAddress,
                  let blb = bl.baseAddress, let hdb = hd.baseAddress, let rfb = rf.baseAddress else { return }
            modeRows.copy(row: mbY, into: hdb, blocks: blb)
            let row = VP8RowBuffers(bytes: bytes, coefficientProbabilities: cpb, nonZero: nzb, coefficients: cob, blocks: blb)
            // The left context starts over on each row (RFC 6386 13.3).
            (nzb + mbWidth * 9).update(repeating: 0, count: 9)
            for mbX in 0..<mbWidth {
                let buffers = row.at(mbX, coefficients: cob, blocks: blb)
                let mb = hdb[mbX]
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
            }
        }}}}}}
        return truncated
    }

    /// RFC 6386 19.3 and 11.2 to 11.4: segment id, skip flag, luma mode (sub-block modes, into
    /// `subblockModes`, with the fixed key-frame `probabilities` and their `top`/`left`
    /// contexts, 4 each), chroma mode.
    @inline(__always)
    static func readMacroblockHeader(_ reader: inout VP8BoolDecoder, _ bytes: UnsafeBufferPointer<UInt8>, header: VP8FrameHeader,
                                     top: UnsafeMutablePointer<UInt8>, left: UnsafeMutablePointer<UInt8>,
                                     probabilities: UnsafePointer<UInt8>,
                                     subblockModes: UnsafeMutablePointer<UInt8>) -> VP8MacroblockHeader {
        var r = reader
        defer { reader = r }
        var mb = VP8MacroblockHeader()
        let seg = header.segmentation
        if seg.updatesMap {
            let p = seg.treeProbabilities
            mb.segment = !r.readBit(p[0], bytes) ? (r.readBit(p[1], bytes) ? 1 : 0) : (r.readBit(p[2], bytes) ? 3 : 2)
        }
        if header.usesSkipProbability { mb.skipsCoefficients = r.readBit(header.skipProbability, bytes) }
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
                    let p = probabilities + (Int(top[x]) * 10 + Int(mode)) * 9
                    mode = readSubblockMode(&r, p, bytes)
                    top[x] = mode
                    subblockModes[y * 4 + x] = mode
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
    static func readSubblockMode(_ reader: inout VP8BoolDecoder, _ p: UnsafePointer<UInt8>,
                                 _ bytes: UnsafeBufferPointer<UInt8>) -> UInt8 {
        // A local copy, written back once (see VP8Tokens.readBlock).
        var r = reader
        defer { reader = r }
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
