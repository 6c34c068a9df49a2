import CodecCore

/// DCT token decoding, RFC 6386 section 13, with dequantisation (14.1) folded in as libwebp
/// does it: each coefficient is multiplied by its factor and stored, truncated to 16 bits, at
/// its zigzag position.
enum VP8Tokens {
    /// Zigzag scan order (RFC 6386 13: 0, 1, 4, 8, 5, 2, 3, 6, 9, 12, 13, 10, 7, 11, 14, 15),
    /// position → raster index, one nibble per position (the hot loop reads no array).
    static let zigzagNibbles: UInt64 = 0xFEB7_ADC9_6325_8410
    /// Band of each position (RFC 6386 13.3 `coeff_bands`: 0, 1, 2, 3, 6, 4, 5, 6, 6, 6, 6, 6,
    /// 6, 6, 6, 7), one nibble per position; position 16 (past the end) reads as band 0.
    static let bandNibbles: UInt64 = 0x7666_6666_6546_3210

    @inline(__always) static func zigzag(_ n: Int) -> Int {
        Int(truncatingIfNeeded: (zigzagNibbles &>> UInt64(truncatingIfNeeded: n &* 4)) & 15)
    }

    /// The offset of position `n`'s band in a block type's `[8][3][11]` probabilities.
    @inline(__always) static func bandOffset(_ n: Int) -> Int {
        Int(truncatingIfNeeded: (bandNibbles &>> UInt64(truncatingIfNeeded: n &* 4)) & 15) &* 33
    }

    /// Extra-bit probabilities of DCT_CAT3...DCT_CAT6 (RFC 6386 13.2 Pcat3...Pcat6), 0-terminated.
    static let cat3: [UInt8] = [173, 148, 140, 0]
    static let cat4: [UInt8] = [176, 155, 140, 135, 0]
    static let cat5: [UInt8] = [180, 157, 141, 134, 130, 0]
    static let cat6: [UInt8] = [254, 254, 243, 230, 196, 177, 153, 140, 133, 130, 129, 0]

    /// Reads the tokens of one block of plane type `probs` (the `[8][3][11]` slice of one block
    /// type) from position `first`, with context `context` for the first token. Returns the
    /// position after the last token read before end of block (16 when the block ran to its
    /// end), which is what the non-zero context and the transform choice need.
    ///
    /// `@_transparent`, as ``largeValue(_:_:_:)``: `@inline(__always)` left the call in the
    /// block loop out of line (the reader then went through memory at every block); inlined at
    /// the two call sites, 24 MP q 90 decodes 2–3 % faster on one core and on two.
    @_transparent
    static func readBlock(_ reader: inout VP8BoolDecoder, _ bytes: UnsafeBufferPointer<UInt8>, probs: UnsafePointer<UInt8>,
                          context: Int, dc: Int32, ac: Int32, first: Int, out: UnsafeMutablePointer<Int16>) -> Int {
        // A local copy, written back once: where the optimiser leaves this function out of
        // line, the reader then stays in registers instead of memory through every decision.
        var r = reader
        defer { reader = r }
        var n = first
        var p = probs + bandOffset(n) + context &* 11
        while n < 16 {
            if !r.readBit(UInt32(p[0]), bytes) { return n }  // EOB
            while !r.readBit(UInt32(p[1]), bytes) {          // DCT_0: no EOB may follow
                n &+= 1
                if n == 16 { return 16 }
                p = probs + bandOffset(n)
            }
            let next = probs + bandOffset(n &+ 1)
            let v: Int32
            if !r.readBit(UInt32(p[2]), bytes) {
                v = 1
                p = next + 11
            } else {
                v = largeValue(&r, bytes, p)
                p = next + 22
            }
            let q = n > 0 ? ac : dc
            out[zigzag(n)] = Int16(truncatingIfNeeded: r.readSigned(v, bytes) &* q)
            n &+= 1
        }
        return 16
    }

    /// A token of value 2 or more (RFC 6386 13.2 coeff_tree below `ONE`, with DCTextra).
    /// Inlined like the rest of the tree (forced: the optimiser left it out of line once
    /// ``readBlock(_:_:probs:context:dc:ac:first:out:)`` was inlined): a call would pass the
    /// reader through memory.
    @_transparent
    static func largeValue(_ r: inout VP8BoolDecoder, _ bytes: UnsafeBufferPointer<UInt8>, _ p: UnsafePointer<UInt8>) -> Int32 {
        if !r.readBit(UInt32(p[3]), bytes) {
            return r.readBit(UInt32(p[4]), bytes) ? 3 &+ (r.readBit(UInt32(p[5]), bytes) ? 1 : 0) : 2
        }
        if !r.readBit(UInt32(p[6]), bytes) {
            if !r.readBit(UInt32(p[7]), bytes) {
                return 5 &+ (r.readBit(159, bytes) ? 1 : 0)  // DCT_CAT1
            }
            return 7 &+ (r.readBit(165, bytes) ? 2 : 0) &+ (r.readBit(145, bytes) ? 1 : 0)  // DCT_CAT2
        }
        let bit1 = r.readBit(UInt32(p[8]), bytes) ? 1 : 0
        let bit0 = r.readBit(UInt32(p[9 + bit1]), bytes) ? 1 : 0
        let cat = 2 * bit1 + bit0  // DCT_CAT3 ... DCT_CAT6
        let table = cat == 0 ? cat3 : cat == 1 ? cat4 : cat == 2 ? cat5 : cat6
        var v: Int32 = 0
        var i = 0
        while table[i] != 0 {
            v = v &+ v &+ (r.readBit(UInt32(table[i]), bytes) ? 1 : 0)
            i += 1
        }
        return v &+ 3 &+ (8 << cat)
    }
}

extension VP8Decoder {
    /// Reads the coefficients of one macroblock (RFC 6386 13.3: Y2 when not B_PRED, then 16 Y,
    /// 4 U and 4 V blocks, each block's first context from its neighbours' non-zero flags),
    /// inverts the Y2 Walsh-Hadamard transform into the Y blocks' DC, and records per block
    /// which inverse DCT it needs. Returns true when every coefficient is zero.
    static func readResiduals(_ reader: inout VP8BoolDecoder, _ b: VP8RowBuffers, mb: VP8MacroblockHeader,
                              quant: VP8QuantMatrix, mbX: Int, mbWidth: Int) -> Bool {
        // A local copy, written back once, lets the reader live in registers.
        var r = reader
        defer { reader = r }
        let bytes = b.bytes
        let coeffs = b.coefficients
        coeffs.update(repeating: 0, count: 384 + 16)
        let top = b.nonZero + mbX * 9
        let left = b.nonZero + mbWidth * 9
        let kinds = b.blocks + 16
        let probs = b.coefficientProbabilities
        let typeStride = 8 * 33
        var first = 0
        var yProbs = probs + 3 * typeStride  // type 3: Y with DC
        if !mb.isSubblockPredicted {
            let y2 = coeffs + 384
            let ctx = Int(top[8]) + Int(left[8])
            let nz = VP8Tokens.readBlock(&r, bytes, probs: probs + 1 * typeStride, context: ctx,
                                         dc: quant.y2.dc, ac: quant.y2.ac, first: 0, out: y2)
            let flag: UInt8 = nz > 0 ? 1 : 0
            top[8] = flag
            left[8] = flag
            if nz > 1 {
                if VectorKernels.arePreferred {
                    VP8TransformSIMD.inverseWHT(y2, coeffs)
                } else {
                    VP8Transform.inverseWHT(y2, coeffs)
                }
            } else {
                let dc0 = Int16(truncatingIfNeeded: (Int32(y2[0]) &+ 3) &>> 3)
                for i in 0..<16 { coeffs[16 * i] = dc0 }
            }
            first = 1
            yProbs = probs  // type 0: Y after Y2
        }
        // The 16 Y, then 4 U and 4 V blocks, in one loop with one call of the token reader:
        // the optimiser inlines a single call site, so the reader stays in registers from block
        // to block (with a call per block it went through memory, and its entry and exit cost
        // about 40 instructions a block).
        let uvProbs = probs + 2 * typeStride
        var any = false
        for block in 0..<24 {
            // Context slots: Y columns and rows 0...3, U 4...5, V 6...7.
            let isLuma = block < 16
            let k = block &- 16
            let column = isLuma ? block & 3 : 4 &+ (k >> 2) &* 2 &+ (k & 1)
            let row = isLuma ? block >> 2 : 4 &+ (k >> 2) &* 2 &+ (k >> 1 & 1)
            let start = isLuma ? first : 0
            let q = isLuma ? quant.y1 : quant.uv
            let out = coeffs + block * 16
            let nz = VP8Tokens.readBlock(&r, bytes, probs: isLuma ? yProbs : uvProbs, context: Int(left[row]) + Int(top[column]),
                                         dc: q.dc, ac: q.ac, first: start, out: out)
            let flag: UInt8 = nz > start ? 1 : 0
            top[column] = flag
            left[row] = flag
            let kind: UInt8 = nz > 1 ? 2 : (out[0] != 0 ? 1 : 0)
            kinds[block] = kind
            any = any || kind != 0
        }
        return !any
    }
}
