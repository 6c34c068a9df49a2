/// The analysis pass before coding: how easily each macroblock compresses, from the spread of
/// the forward-DCT coefficients (RFC 6386 14.3) of its prediction residual, as libwebp's
/// analysis measures it (its "alpha" or susceptibility).
///
/// The macroblock is predicted from the source samples around it (as if the coding were
/// lossless) with DC and TM (RFC 6386 12.2) for luma and chroma. For each prediction the
/// magnitudes `|c| >> 3` (at most 31) of every coefficient are counted, and the spread is
/// `510 · (largest magnitude present) / (count of the most frequent magnitude)`: a flat residual
/// has nearly all coefficients at 0 and scores near 0, texture spreads them and scores high. The
/// higher of the two predictions' spreads is taken per plane (the texture, not a lucky
/// prediction), luma weighs 3 to chroma's 1, and the result is reversed into 0…255, high for
/// the macroblocks that are easy to compress, where quantization shows most.
enum VP8SegmentAnalysis {
    /// The susceptibility of every macroblock, 0…255 (raster order).
    static func susceptibilities(_ planes: VP8SourcePlanes) -> [UInt8] {
        let mbWidth = planes.mbWidth, mbHeight = planes.mbHeight
        var result = [UInt8](repeating: 0, count: mbWidth * mbHeight)
        var work = [UInt8](repeating: 0, count: VP8RowWriter.workSize)
        var source = [UInt8](repeating: 0, count: VP8RowWriter.workSize)
        var topSamples = [UInt8](repeating: 0, count: mbWidth * 32)
        var coefficients = [Int16](repeating: 0, count: 16)
        work.withUnsafeMutableBufferPointer { wb in
        source.withUnsafeMutableBufferPointer { sb in
        topSamples.withUnsafeMutableBufferPointer { tb in
        coefficients.withUnsafeMutableBufferPointer { cb in
            let w = wb.baseAddress!, s = sb.baseAddress!, top = tb.baseAddress!, c = cb.baseAddress!
            for mbY in 0..<mbHeight {
                VP8RowWriter.startRow(w, mbY: mbY)
                for mbX in 0..<mbWidth {
                    VP8RowWriter.loadEdges(w, top: top + mbX * 32, mbX: mbX, mbY: mbY, mbWidth: mbWidth,
                                         isSubblockPredicted: false)
                    planes.load(into: s, mbX: mbX, mbY: mbY)
                    let luma = spread(w, s, mbX: mbX, mbY: mbY, chroma: false, c)
                    let chroma = spread(w, s, mbX: mbX, mbY: mbY, chroma: true, c)
                    let mixed = (3 * luma + chroma + 2) >> 2
                    result[mbY * mbWidth + mbX] = UInt8(255 - min(255, mixed))
                    // The source becomes the "reconstruction" the next macroblocks predict from.
                    planes.load(into: w, mbX: mbX, mbY: mbY)
                    if mbY < mbHeight - 1 { VP8RowWriter.saveTop(w, top: top + mbX * 32) }
                }
            }
        }}}}
        return result
    }

    /// The larger spread of the DC and TM predictions' residuals over the luma (16 blocks) or
    /// the chroma (8 blocks).
    static func spread(_ w: UnsafeMutablePointer<UInt8>, _ s: UnsafePointer<UInt8>, mbX: Int, mbY: Int,
                       chroma: Bool, _ c: UnsafeMutablePointer<Int16>) -> Int {
        var best = 0
        for mode in 0..<2 {
            let blockMode = VP8Prediction.edgeMode(UInt8(mode), mbX: mbX, mbY: mbY)
            var histogram = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                             0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
            withUnsafeMutableBytes(of: &histogram) { raw in
                let h = raw.baseAddress!.assumingMemoryBound(to: Int.self)
                if chroma {
                    for offset in [VP8RowWriter.uWork, VP8RowWriter.vWork] {
                        VP8Prediction.predictBlock(blockMode, size: 8, w + offset)
                        for k in 0..<4 {
                            let o = offset + (k & 1) * 4 + (k >> 1) * 128
                            count(s + o, w + o, c, into: h)
                        }
                    }
                } else {
                    VP8Prediction.predictBlock(blockMode, size: 16, w + VP8RowWriter.yWork)
                    for n in 0..<16 {
                        let o = VP8RowWriter.yWork + VP8RowWriter.subblockOffset(n)
                        count(s + o, w + o, c, into: h)
                    }
                }
                var most = 0, last = 0
                for k in 0..<32 where h[k] > 0 {
                    most = max(most, h[k])
                    last = k
                }
                if most > 1 { best = max(best, 510 * last / most) }
            }
        }
        return best
    }

    @inline(__always)
    static func count(_ source: UnsafePointer<UInt8>, _ prediction: UnsafePointer<UInt8>,
                      _ c: UnsafeMutablePointer<Int16>, into histogram: UnsafeMutablePointer<Int>) {
        VP8ForwardTransform.forwardDCT(source, prediction, c)
        for k in 0..<16 {
            let v = Int(c[k])
            histogram[min(31, (v < 0 ? -v : v) >> 3)] += 1
        }
    }
}
