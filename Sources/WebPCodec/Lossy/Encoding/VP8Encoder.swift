import CodecCore

/// Encodes a VP8 key frame (RFC 6386), the payload of a WebP `VP8 ` chunk (RFC 9649 2.5).
///
/// With noise shaping an analysis pass first gives the macroblocks their segments
/// (``VP8SegmentPlan``, RFC 6386 9.3);
/// then three passes over the macroblocks: mode decision, quantization and reconstruction
/// (``VP8MacroblockCoder``, into the decoder's work area so that predictions use what the
/// decoder will have); then the tokens are counted to measure the coefficient probabilities
/// (RFC 6386 13.4: an update is written when it saves bits); then the first partition (frame
/// header, 9.2–9.11 and 19.2; macroblock headers, 19.3) and the token partitions (9.5) are
/// written (``VP8FrameWriter``).
enum VP8Encoder {
    /// The settings of one frame.
    struct Settings {
        /// cwebp's `-q` ÷ 100.
        var quality: Double
        var effort: Int
        /// cwebp's `-sns` ÷ 100 (``VP8SegmentPlan``).
        var noiseShaping = 0.0
        var sharpness = 0
    }

    /// The segments for `settings`: with noise shaping, from the analysis pass
    /// (``VP8SegmentAnalysis``); without it, one segment and no analysis.
    static func segmentPlan(_ planes: VP8SourcePlanes, settings: Settings) -> VP8SegmentPlan {
        let count = planes.mbWidth * planes.mbHeight
        guard settings.noiseShaping > 0 && count > 1 else { return VP8SegmentPlan(quality: settings.quality, macroblocks: count) }
        return VP8SegmentPlan(quality: settings.quality, noiseShaping: settings.noiseShaping,
                              susceptibilities: VP8SegmentAnalysis.susceptibilities(planes), count: 4)
    }

    /// Encodes ARGB pixels (alpha ignored). Throws `limitExceeded` when the first partition
    /// passes the 19 bits its size has in the frame tag (RFC 6386 9.1).
    static func encode(argb: [UInt32], width: Int, height: Int, settings: Settings) throws(EncodingError) -> [UInt8] {
        let planes = VP8SourcePlanes(argb: argb, width: width, height: height)
        let mbWidth = planes.mbWidth, mbHeight = planes.mbHeight
        let count = mbWidth * mbHeight
        var info = [UInt8](repeating: 0, count: count * VP8MacroblockCoder.infoSize)
        var levels = [Int16](repeating: 0, count: count * VP8MacroblockCoder.levelsSize)
        let plan = segmentPlan(planes, settings: settings)
        var coders = plan.quantizerIndices.map {
            VP8MacroblockCoder(quant: VP8QuantMatrix(index: $0, deltas: plan.deltas), effort: settings.effort)
        }
        var work = [UInt8](repeating: 0, count: VP8RowWriter.workSize)
        var source = [UInt8](repeating: 0, count: VP8RowWriter.workSize)
        var topSamples = [UInt8](repeating: 0, count: mbWidth * 32)
        var modes = [UInt8](repeating: 0, count: mbWidth * 4 + 4)
        work.withUnsafeMutableBufferPointer { wb in
        source.withUnsafeMutableBufferPointer { sb in
        topSamples.withUnsafeMutableBufferPointer { tb in
        modes.withUnsafeMutableBufferPointer { mb in
        info.withUnsafeMutableBufferPointer { ib in
        levels.withUnsafeMutableBufferPointer { lb in
            let w = wb.baseAddress!, s = sb.baseAddress!, top = tb.baseAddress!, m = mb.baseAddress!
            // The first partition holds at most 2^19 bytes (RFC 6386 9.1): B_PRED, whose 16 modes
            // cost the most, is tried only while the modes so far stay within an even share of
            // that (less 20,000 bits for the frame header and 2 per macroblock for its segment).
            let share = (Double((1 << 19) * 8) - 20_000 - Double(2 * count)) * 0.95 / Double(count)
            var modeBits = 0.0
            for mbY in 0..<mbHeight {
                VP8RowWriter.startRow(w, mbY: mbY)
                (m + mbWidth * 4).update(repeating: 0, count: 4)
                for mbX in 0..<mbWidth {
                    let index = mbY * mbWidth + mbX
                    VP8RowWriter.loadEdges(w, top: top + mbX * 32, mbX: mbX, mbY: mbY, mbWidth: mbWidth,
                                         isSubblockPredicted: true)
                    planes.load(into: s, mbX: mbX, mbY: mbY)
                    modeBits += coders[Int(plan.map[index])].code(work: w, source: s, mbX: mbX, mbY: mbY, topModes: m + mbX * 4,
                                           leftModes: m + mbWidth * 4, allowsSubblocks: modeBits < share * Double(index + 1),
                                           info: ib.baseAddress! + index * VP8MacroblockCoder.infoSize,
                                           levels: lb.baseAddress! + index * VP8MacroblockCoder.levelsSize)
                    if mbY < mbHeight - 1 { VP8RowWriter.saveTop(w, top: top + mbX * 32) }
                }
            }
        }}}}}}
        return try VP8FrameWriter(mbWidth: mbWidth, mbHeight: mbHeight, info: info, levels: levels, segments: plan)
            .frame(width: width, height: height, sharpness: settings.sharpness)
    }
}
