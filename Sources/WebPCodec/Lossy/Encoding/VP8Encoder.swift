import CodecCore

/// Encodes a VP8 key frame (RFC 6386), the payload of a WebP `VP8 ` chunk (RFC 9649 2.5).
///
/// Three passes over the macroblocks: mode decision, quantization and reconstruction
/// (``VP8MacroblockCoder``, into the decoder's work area so that predictions use what the
/// decoder will have); then the tokens are counted to measure the coefficient probabilities
/// (RFC 6386 13.4: an update is written when it saves bits); then the first partition (frame
/// header, 9.2–9.11 and 19.2; macroblock headers, 19.3) and the token partitions (9.5) are
/// written (``VP8FrameWriter``).
enum VP8Encoder {
    /// The settings of one frame.
    struct Settings {
        /// The quantizer index 0…127 (RFC 6386 9.6).
        var quantizerIndex: Int
        var effort: Int
        var filterLevel: Int
        var sharpness = 0
    }

    /// libwebp's mapping in spirit: quality `c` (0…1) is made roughly linear in the file size
    /// (`2c/3` below 0.75, `2c − 1` above), its cube root taken, and the index is
    /// `127 · (1 − root)`.
    static func quantizerIndex(quality: Double) -> Int {
        let c = min(max(quality, 0), 1)
        let linear = c < 0.75 ? c * 2 / 3 : 2 * c - 1
        // The cube root by Newton's method (from 1, above the root of any value in 0…1).
        var root = 1.0
        if linear > 0 {
            for _ in 0..<40 { root = (2 * root + linear / (root * root)) / 3 }
        } else {
            root = 0
        }
        return min(127, max(0, Int(127 * (1 - root))))
    }

    /// The loop filter level for a quantizer index: about a third of the AC factor (stronger
    /// filtering for coarser quantization, RFC 6386 15.1), at most 63.
    static func filterLevel(quantizerIndex q: Int) -> Int {
        min(63, Int(VP8Tables.acQuantizer[min(max(q, 0), 127)]) * 3 / 8)
    }

    static func settings(quality: Double, effort: Int) -> Settings {
        let q = quantizerIndex(quality: quality)
        return Settings(quantizerIndex: q, effort: effort, filterLevel: filterLevel(quantizerIndex: q))
    }

    /// Encodes ARGB pixels (alpha ignored). Throws `limitExceeded` when the first partition
    /// passes the 19 bits its size has in the frame tag (RFC 6386 9.1).
    static func encode(argb: [UInt32], width: Int, height: Int, settings: Settings) throws(EncodingError) -> [UInt8] {
        let planes = VP8SourcePlanes(argb: argb, width: width, height: height)
        let mbWidth = planes.mbWidth, mbHeight = planes.mbHeight
        let count = mbWidth * mbHeight
        var info = [UInt8](repeating: 0, count: count * VP8MacroblockCoder.infoSize)
        var levels = [Int16](repeating: 0, count: count * VP8MacroblockCoder.levelsSize)
        let quant = VP8QuantMatrix(index: settings.quantizerIndex, deltas: [0, 0, 0, 0, 0])
        var coder = VP8MacroblockCoder(quant: quant, effort: settings.effort)
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
            // that (less 20,000 bits for the frame header).
            let share = (Double((1 << 19) * 8) - 20_000) * 0.95 / Double(count)
            var modeBits = 0.0
            for mbY in 0..<mbHeight {
                VP8RowWriter.startRow(w, mbY: mbY)
                (m + mbWidth * 4).update(repeating: 0, count: 4)
                for mbX in 0..<mbWidth {
                    let index = mbY * mbWidth + mbX
                    VP8RowWriter.loadEdges(w, top: top + mbX * 32, mbX: mbX, mbY: mbY, mbWidth: mbWidth,
                                         isSubblockPredicted: true)
                    planes.load(into: s, mbX: mbX, mbY: mbY)
                    modeBits += coder.code(work: w, source: s, mbX: mbX, mbY: mbY, topModes: m + mbX * 4,
                                           leftModes: m + mbWidth * 4, allowsSubblocks: modeBits < share * Double(index + 1),
                                           info: ib.baseAddress! + index * VP8MacroblockCoder.infoSize,
                                           levels: lb.baseAddress! + index * VP8MacroblockCoder.levelsSize)
                    if mbY < mbHeight - 1 { VP8RowWriter.saveTop(w, top: top + mbX * 32) }
                }
            }
        }}}}}}
        return try VP8FrameWriter(mbWidth: mbWidth, mbHeight: mbHeight, info: info, levels: levels)
            .frame(width: width, height: height, settings: settings)
    }
}
