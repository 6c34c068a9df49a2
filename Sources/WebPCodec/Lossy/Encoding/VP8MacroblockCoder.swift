/// The mode decision and reconstruction of one macroblock (RFC 6386 11, 12, 14): each
/// candidate mode is predicted in the work area, its residual transformed, quantized and
/// reconstructed exactly as the decoder will (``VP8Decoder/addResidual``), and scored by
/// `distortion + λ · bits` (distortion: the sum of squared errors against the source; bits: the
/// mode's tree cost and an estimate of its tokens; λ from the quantizer's AC factor). Effort
/// 0–1 try the four 16×16 luma modes; from effort 2 the ten 4×4 modes of every sub-block too.
///
/// The work areas have the decoder's layout (``VP8Decoder/yWork``…, stride 32); `source` holds
/// the macroblock's source samples at the same offsets. A macroblock's result is 20 bytes of
/// `info` (flags: bit 0 B_PRED, bit 1 no coefficients; the luma mode; the chroma mode; 16
/// sub-block modes, each the luma mode for 16×16) and 400 `levels` (blocks 0–15 Y, 16–19 U,
/// 20–23 V, 24 Y2, each 16 in zigzag order).
struct VP8MacroblockCoder {
    let quant: VP8QuantMatrix
    let usesSubblocks: Bool
    /// How many 16×16 luma and chroma modes are coded in full (all four from effort 6).
    let blockCandidates: Int
    /// How many sub-block modes are coded in full (the rest ranked out by prediction error).
    let subblockCandidates: Int
    let y1: VP8Quantizer, y2: VP8Quantizer, uv: VP8Quantizer
    let lambdaLuma: Double, lambdaChroma: Double
    /// Scratch: 16 blocks of coefficients, their dequantized twins (+ Y2), a saved luma area.
    var coefficients = [Int16](repeating: 0, count: 16 * 16 + 16)
    var dequantized = [Int16](repeating: 0, count: 16 * 16 + 16)
    var savedLuma = [UInt8](repeating: 0, count: 16 * 16)
    var savedLevels = [Int16](repeating: 0, count: 17 * 16)

    static let infoSize = 20
    static let levelsSize = 400

    init(quant: VP8QuantMatrix, effort: Int) {
        self.quant = quant
        usesSubblocks = effort >= 2
        subblockCandidates = effort >= 6 ? 10 : max(1, effort - 2)
        blockCandidates = effort >= 6 ? 4 : effort >= 3 ? 2 : 1
        y1 = VP8Quantizer(dc: quant.y1.dc, ac: quant.y1.ac)
        y2 = VP8Quantizer(dc: quant.y2.dc, ac: quant.y2.ac)
        uv = VP8Quantizer(dc: quant.uv.dc, ac: quant.uv.ac)
        lambdaLuma = 0.03 * Double(quant.y1.ac * quant.y1.ac)
        lambdaChroma = 0.03 * Double(quant.uv.ac * quant.uv.ac)
    }

    /// Codes one macroblock; `topModes`/`leftModes` are the sub-block mode contexts (4 each),
    /// updated as the decoder updates them.
    /// B_PRED is tried only with `allowsSubblocks` (the first partition's size is limited).
    /// Returns the bits the macroblock's modes take in the first partition.
    mutating func code(work w: UnsafeMutablePointer<UInt8>, source s: UnsafePointer<UInt8>, mbX: Int, mbY: Int,
                       topModes: UnsafeMutablePointer<UInt8>, leftModes: UnsafeMutablePointer<UInt8>,
                       allowsSubblocks: Bool, info: UnsafeMutablePointer<UInt8>,
                       levels: UnsafeMutablePointer<Int16>) -> Double {
        levels.update(repeating: 0, count: Self.levelsSize)
        let ranked = rankBlockModes(dst: w + VP8RowWriter.yWork, src: s + VP8RowWriter.yWork, size: 16, mbX: mbX, mbY: mbY,
                                    lambda: lambdaLuma, bits: VP8ModeCost.lumaBits)
        let best16 = bestBlockMode(ranked, lambda: lambdaLuma, bits: VP8ModeCost.lumaBits) {
            $0.codeLuma16($1, w, s, mbX: mbX, mbY: mbY, levels: levels)
        }
        var isSubblock = false
        var modeBits = VP8ModeCost.lumaBits(best16.mode)
        if usesSubblocks && allowsSubblocks {
            Self.copyLuma(from: w + VP8RowWriter.yWork, to: &savedLuma)
            savedLevels.withUnsafeMutableBufferPointer { $0.baseAddress!.update(from: levels, count: 16 * 16) }
            savedLevels.withUnsafeMutableBufferPointer { ($0.baseAddress! + 256).update(from: levels + 384, count: 16) }
            let (cost4, bits4) = codeSubblocks(w, s, topModes: topModes, leftModes: leftModes, info: info, levels: levels)
            if cost4 < best16.cost {
                isSubblock = true
                modeBits = bits4
            } else {
                Self.copyLuma(savedLuma, to: w + VP8RowWriter.yWork)
                savedLevels.withUnsafeBufferPointer {
                    levels.update(from: $0.baseAddress!, count: 256)
                    (levels + 384).update(from: $0.baseAddress! + 256, count: 16)
                }
            }
        }
        if !isSubblock {
            for k in 0..<16 { info[3 + k] = UInt8(best16.mode) }
            for k in 0..<4 { topModes[k] = UInt8(best16.mode); leftModes[k] = UInt8(best16.mode) }
        } else {
            (levels + 384).update(repeating: 0, count: 16)
        }
        let rankedUV = rankBlockModes(dst: w + VP8RowWriter.uWork, src: s + VP8RowWriter.uWork, size: 8, mbX: mbX, mbY: mbY,
                                      lambda: lambdaChroma, bits: VP8ModeCost.chromaBits)
        let bestUV = bestBlockMode(rankedUV, lambda: lambdaChroma, bits: VP8ModeCost.chromaBits) {
            $0.codeChroma($1, w, s, mbX: mbX, mbY: mbY, levels: levels)
        }
        var allZero = true
        for i in 0..<Self.levelsSize where levels[i] != 0 { allZero = false; break }
        info[0] = (isSubblock ? 1 : 0) | (allZero ? 2 : 0)
        info[1] = UInt8(best16.mode)
        info[2] = UInt8(bestUV.mode)
        return modeBits + VP8ModeCost.chromaBits(bestUV.mode)
    }

    /// Codes the first ``blockCandidates`` of the `ranked` modes with `code` (which returns the
    /// cost without mode bits), then the cheapest again, leaving its result in place.
    mutating func bestBlockMode(_ ranked: [Int], lambda: Double, bits: (Int) -> Double,
                                code: (inout Self, Int) -> Double) -> (mode: Int, cost: Double) {
        var best = (mode: 0, cost: Double.infinity)
        for k in 0..<blockCandidates {
            let c = code(&self, ranked[k]) + lambda * bits(ranked[k])
            if c < best.cost { best = (ranked[k], c) }
        }
        _ = code(&self, best.mode)
        return best
    }

    /// The four whole-block modes (DC, TM, V, H) ordered by the squared error of their
    /// prediction (luma, or the U plane) plus λ times their bits, best first.
    func rankBlockModes(dst: UnsafeMutablePointer<UInt8>, src: UnsafePointer<UInt8>, size: Int, mbX: Int, mbY: Int,
                        lambda: Double, bits: (Int) -> Double) -> [Int] {
        guard blockCandidates < 4 else { return [0, 1, 2, 3] }
        var scores = [Double](repeating: 0, count: 4)
        for mode in 0..<4 {
            VP8Prediction.predictBlock(VP8Prediction.edgeMode(UInt8(mode), mbX: mbX, mbY: mbY), size: size, dst)
            scores[mode] = Double(Self.sse(src, dst, width: size, height: size)) + lambda * bits(mode)
        }
        return [0, 1, 2, 3].sorted { scores[$0] < scores[$1] }
    }

    static func copyLuma(from w: UnsafePointer<UInt8>, to saved: inout [UInt8]) {
        saved.withUnsafeMutableBufferPointer { out in
            for j in 0..<16 { (out.baseAddress! + 16 * j).update(from: w + 32 * j, count: 16) }
        }
    }

    static func copyLuma(_ saved: [UInt8], to w: UnsafeMutablePointer<UInt8>) {
        saved.withUnsafeBufferPointer { src in
            for j in 0..<16 { (w + 32 * j).update(from: src.baseAddress! + 16 * j, count: 16) }
        }
    }

    /// Predicts, codes and reconstructs the luma with 16×16 mode `mode`; returns distortion plus
    /// λ times the estimated token bits.
    mutating func codeLuma16(_ mode: Int, _ w: UnsafeMutablePointer<UInt8>, _ s: UnsafePointer<UInt8>,
                             mbX: Int, mbY: Int, levels: UnsafeMutablePointer<Int16>) -> Double {
        let y = w + VP8RowWriter.yWork, src = s + VP8RowWriter.yWork
        VP8Prediction.predictBlock(VP8Prediction.edgeMode(UInt8(mode), mbX: mbX, mbY: mbY), size: 16, y)
        let y1 = self.y1, y2 = self.y2
        var bits = 0.0
        coefficients.withUnsafeMutableBufferPointer { cb in
        dequantized.withUnsafeMutableBufferPointer { db in
            let c = cb.baseAddress!, d = db.baseAddress!
            for n in 0..<16 {
                let o = VP8RowWriter.subblockOffset(n)
                VP8ForwardTransform.forwardDCT(src + o, y + o, c + 16 * n)
            }
            VP8ForwardTransform.forwardWHT(c, c + 256)
            let y2Levels = levels + 384
            let y2Last = y2.quantize(c + 256, first: 0, levels: y2Levels, dequantized: d + 256)
            bits += Self.estimatedBits(y2Levels, first: 0, last: y2Last)
            if y2Last >= 1 {
                VP8Transform.inverseWHT(d + 256, d)
            } else {
                let dc0 = Int16(truncatingIfNeeded: (Int32(d[256]) &+ 3) &>> 3)
                for n in 0..<16 { d[16 * n] = dc0 }
            }
            for n in 0..<16 {
                let blockLevels = levels + 16 * n
                blockLevels[0] = 0
                let last = y1.quantize(c + 16 * n, first: 1, levels: blockLevels, dequantized: d + 16 * n)
                bits += Self.estimatedBits(blockLevels, first: 1, last: last)
                let kind: UInt8 = last >= 1 ? 2 : (d[16 * n] != 0 ? 1 : 0)
                VP8RowWriter.addResidual(kind, d + 16 * n, y + VP8RowWriter.subblockOffset(n))
            }
        }}
        return Double(Self.sse(src, y, width: 16, height: 16)) + lambdaLuma * bits
    }

    /// Chooses, codes and reconstructs the 16 sub-blocks' modes in decoding order; returns the
    /// total cost, mode bits included, and the mode bits.
    mutating func codeSubblocks(_ w: UnsafeMutablePointer<UInt8>, _ s: UnsafePointer<UInt8>,
                                topModes: UnsafeMutablePointer<UInt8>, leftModes: UnsafeMutablePointer<UInt8>,
                                info: UnsafeMutablePointer<UInt8>, levels: UnsafeMutablePointer<Int16>) -> (Double, Double) {
        let y = w + VP8RowWriter.yWork, src = s + VP8RowWriter.yWork
        let q = y1
        var modeBits = VP8ModeCost.cost(false, 145)
        var total = lambdaLuma * modeBits
        var modes = (UInt8(0), UInt8(0), UInt8(0), UInt8(0), UInt8(0), UInt8(0), UInt8(0), UInt8(0),
                     UInt8(0), UInt8(0), UInt8(0), UInt8(0), UInt8(0), UInt8(0), UInt8(0), UInt8(0))
        withUnsafeMutableBytes(of: &modes) { raw in
            let m = raw.baseAddress!.assumingMemoryBound(to: UInt8.self)
            for n in 0..<16 {
                let bx = n & 3, by = n >> 2
                let above = by == 0 ? Int(topModes[bx]) : Int(m[n - 4])
                let left = bx == 0 ? Int(leftModes[by]) : Int(m[n - 1])
                let o = VP8RowWriter.subblockOffset(n)
                // Below effort 6 only the modes whose prediction alone scores best are coded.
                var candidates = (0, 1, 2, 3, 4, 5, 6, 7, 8, 9)
                let tried = subblockCandidates
                withUnsafeMutableBytes(of: &candidates) { raw in
                    let list = raw.baseAddress!.assumingMemoryBound(to: Int.self)
                    if tried < 10 { rankByPrediction(list, dst: y + o, src: src + o, above: above, left: left) }
                }
                // The best candidate's reconstruction and levels are kept, and put back when a
                // later candidate was coded over them (coding it again would give the same).
                var best = (mode: 0, cost: Double.infinity)
                var kept = Reconstruction()
                var lastIsBest = false
                for k in 0..<tried {
                    let mode = withUnsafeBytes(of: &candidates) { $0.load(fromByteOffset: k * 8, as: Int.self) }
                    let c = codeSubblock(mode, y + o, src + o, q: q, levels: levels + 16 * n)
                        + lambdaLuma * VP8ModeCost.subblockBits(mode, above: above, left: left)
                    lastIsBest = c < best.cost
                    if lastIsBest {
                        best = (mode, c)
                        kept = Reconstruction(y + o, levels + 16 * n)
                    }
                }
                if !lastIsBest { kept.restore(y + o, levels + 16 * n) }
                m[n] = UInt8(best.mode)
                total += best.cost
                modeBits += VP8ModeCost.subblockBits(best.mode, above: above, left: left)
            }
            for k in 0..<16 { info[3 + k] = m[k] }
            for k in 0..<4 { topModes[k] = m[12 + k]; leftModes[k] = m[4 * k + 3] }
        }
        return (total, modeBits)
    }

    /// Orders the ten sub-block modes in `list` by the squared error of their prediction plus
    /// λ times their mode bits, best first.
    func rankByPrediction(_ list: UnsafeMutablePointer<Int>, dst: UnsafeMutablePointer<UInt8>,
                          src: UnsafePointer<UInt8>, above: Int, left: Int) {
        var scores = (0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
        withUnsafeMutableBytes(of: &scores) { raw in
            let score = raw.baseAddress!.assumingMemoryBound(to: Double.self)
            for mode in 0..<10 {
                VP8Prediction.predictSubblock(UInt8(mode), dst)
                score[mode] = Double(Self.sse(src, dst, width: 4, height: 4))
                    + lambdaLuma * VP8ModeCost.subblockBits(mode, above: above, left: left)
            }
            for i in 1..<10 {
                let m = list[i]
                var j = i
                while j > 0 && score[list[j - 1]] > score[m] { list[j] = list[j - 1]; j -= 1 }
                list[j] = m
            }
        }
    }

    /// One sub-block with mode `mode`: prediction, coding, reconstruction; its cost without
    /// the mode's bits.
    mutating func codeSubblock(_ mode: Int, _ dst: UnsafeMutablePointer<UInt8>, _ src: UnsafePointer<UInt8>,
                               q: VP8Quantizer, levels: UnsafeMutablePointer<Int16>) -> Double {
        VP8Prediction.predictSubblock(UInt8(mode), dst)
        var bits = 0.0
        coefficients.withUnsafeMutableBufferPointer { cb in
        dequantized.withUnsafeMutableBufferPointer { db in
            let c = cb.baseAddress!, d = db.baseAddress!
            VP8ForwardTransform.forwardDCT(src, dst, c)
            let last = q.quantize(c, first: 0, levels: levels, dequantized: d)
            bits = Self.estimatedBits(levels, first: 0, last: last)
            let kind: UInt8 = last >= 1 ? 2 : (d[0] != 0 ? 1 : 0)
            VP8RowWriter.addResidual(kind, d, dst)
        }}
        return Double(Self.sse(src, dst, width: 4, height: 4)) + lambdaLuma * bits
    }

    /// Chroma with mode `mode` (both planes).
    mutating func codeChroma(_ mode: Int, _ w: UnsafeMutablePointer<UInt8>, _ s: UnsafePointer<UInt8>,
                             mbX: Int, mbY: Int, levels: UnsafeMutablePointer<Int16>) -> Double {
        let blockMode = VP8Prediction.edgeMode(UInt8(mode), mbX: mbX, mbY: mbY)
        let uv = self.uv
        var distortion = 0
        var bits = 0.0
        for (plane, offset) in [VP8RowWriter.uWork, VP8RowWriter.vWork].enumerated() {
            let dst = w + offset, src = s + offset
            VP8Prediction.predictBlock(blockMode, size: 8, dst)
            coefficients.withUnsafeMutableBufferPointer { cb in
            dequantized.withUnsafeMutableBufferPointer { db in
                let c = cb.baseAddress!, d = db.baseAddress!
                for k in 0..<4 {
                    let o = (k & 1) * 4 + (k >> 1) * 128
                    let blockLevels = levels + 16 * (16 + plane * 4 + k)
                    VP8ForwardTransform.forwardDCT(src + o, dst + o, c)
                    let last = uv.quantize(c, first: 0, levels: blockLevels, dequantized: d)
                    bits += Self.estimatedBits(blockLevels, first: 0, last: last)
                    let kind: UInt8 = last >= 1 ? 2 : (d[0] != 0 ? 1 : 0)
                    VP8RowWriter.addResidual(kind, d, dst + o)
                }
            }}
            distortion += Self.sse(src, dst, width: 8, height: 8)
        }
        return Double(distortion) + lambdaChroma * bits
    }

    /// A rough count of a block's token bits: a bit and a half per zero before the last level,
    /// 3.5 per ±1, 5 plus twice the magnitude's bit length above, one for the end of block.
    @inline(__always)
    static func estimatedBits(_ levels: UnsafePointer<Int16>, first: Int, last: Int) -> Double {
        guard last >= first else { return 1 }
        // In half bits, so the sum stays an integer.
        var halves: Int32 = 2
        for n in first...last {
            let l = Int32(levels[n])
            let v = l < 0 ? -l : l
            halves &+= v < 2 ? 3 &+ 4 &* v : 10 &+ 4 &* Int32(32 &- v.leadingZeroBitCount)
        }
        return Double(halves) / 2
    }

    /// The sum of squared differences of two areas of stride 32.
    @inline(__always)
    static func sse(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, width: Int, height: Int) -> Int {
        var sum = 0
        for j in 0..<height {
            let ra = a + 32 * j, rb = b + 32 * j
            for i in 0..<width {
                let d = Int(ra[i]) &- Int(rb[i])
                sum &+= d &* d
            }
        }
        return sum
    }
}

/// A coded sub-block's 4×4 reconstructed pixels (rows ``VP8Prediction/stride`` apart) and its
/// 16 quantized levels.
private struct Reconstruction {
    var rows = SIMD4<UInt32>()
    var levels = SIMD16<Int16>()

    init() {}

    init(_ pixels: UnsafePointer<UInt8>, _ levels: UnsafePointer<Int16>) {
        for r in 0..<4 {
            rows[r] = UnsafeRawPointer(pixels + r * VP8Prediction.stride).loadUnaligned(as: UInt32.self)
        }
        self.levels = UnsafeRawPointer(levels).loadUnaligned(as: SIMD16<Int16>.self)
    }

    func restore(_ pixels: UnsafeMutablePointer<UInt8>, _ levels: UnsafeMutablePointer<Int16>) {
        for r in 0..<4 {
            UnsafeMutableRawPointer(pixels + r * VP8Prediction.stride).storeBytes(of: rows[r], as: UInt32.self)
        }
        UnsafeMutableRawPointer(levels).storeBytes(of: self.levels, as: SIMD16<Int16>.self)
    }
}
