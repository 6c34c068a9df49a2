import CodecCore

/// The uncompressed data chunk at the start of a VP8 key frame, RFC 6386 section 9.1 and 19.1:
/// the 3-byte frame tag, the start code and the 14-bit dimensions with their scaling bits.
package struct VP8FrameTag: Sendable, Equatable {
    /// The size of the frame tag and key-frame header.
    package static let size = 10
    package let version: Int
    package let firstPartitionSize: Int
    package let width: Int
    package let height: Int
    /// Upscaling the frame asks of the application (RFC 6386 9.1); ignored, as libwebp does.
    package let horizontalScale: Int
    package let verticalScale: Int

    /// Reads the frame tag and key-frame header, with libwebp's checks (VP8GetInfo and
    /// VP8GetHeaders): a key frame, profile 0...3, shown, the start code 9d 01 2a, a first
    /// partition shorter than `chunkSize`, non-zero dimensions.
    package init(_ bytes: UnsafeBufferPointer<UInt8>, chunkSize: Int) throws(DecodingError) {
        guard bytes.count >= Self.size else { throw .truncated("VP8 frame header is shorter than 10 bytes") }
        let tag = Int(bytes[0]) | Int(bytes[1]) << 8 | Int(bytes[2]) << 16
        guard tag & 1 == 0 else { throw .invalidData("VP8 frame in WebP is not a key frame") }
        version = (tag >> 1) & 7
        guard version <= 3 else { throw .invalidData("VP8 profile is above 3") }
        guard (tag >> 4) & 1 == 1 else { throw .invalidData("VP8 frame is not displayable") }
        firstPartitionSize = tag >> 5
        guard firstPartitionSize < chunkSize else { throw .invalidData("VP8 first partition is larger than its chunk") }
        guard bytes[3] == 0x9D, bytes[4] == 0x01, bytes[5] == 0x2A else {
            throw .invalidData("VP8 key frame start code is not 9d 01 2a")
        }
        width = (Int(bytes[6]) | Int(bytes[7]) << 8) & 0x3FFF
        horizontalScale = Int(bytes[7]) >> 6
        height = (Int(bytes[8]) | Int(bytes[9]) << 8) & 0x3FFF
        verticalScale = Int(bytes[9]) >> 6
        guard width > 0, height > 0 else { throw .invalidData("VP8 frame dimension is zero") }
    }
}

/// Segment-based adjustments, RFC 6386 9.3.
struct VP8Segmentation: Sendable {
    var isEnabled = false
    var updatesMap = false
    /// Segment values replace the frame's (true) or are added to them (false). Without
    /// `update_segment_feature_data` the values are 0 and, as in libwebp (ResetSegmentHeader),
    /// absolute: every segment then has quantizer index 0 and filter level 0.
    var isAbsolute = true
    var quantizer = [Int](repeating: 0, count: 4)
    var filterLevel = [Int](repeating: 0, count: 4)
    /// The segment-id tree's probabilities (255 when not sent).
    var treeProbabilities: [UInt32] = [255, 255, 255]
}

/// The loop filter's frame-level parameters, RFC 6386 9.4 and 15.
struct VP8FilterParameters: Sendable {
    var isSimple = false
    var level = 0
    var sharpness = 0
    var usesDeltas = false
    /// Reference-frame deltas (only the intra frame's, index 0, applies to a key frame).
    var referenceDeltas = [Int](repeating: 0, count: 4)
    /// Mode deltas (index 0, B_PRED, is the one a key frame uses).
    var modeDeltas = [Int](repeating: 0, count: 4)
}

/// The dequantisation factors of one segment, RFC 6386 9.6 and 14.1, as libwebp derives them:
/// the Y2 DC factor doubled, the Y2 AC factor times 155/100 (at least 8), the chroma DC index
/// at most 117.
struct VP8QuantMatrix: Sendable {
    var y1 = (dc: Int32(0), ac: Int32(0))
    var y2 = (dc: Int32(0), ac: Int32(0))
    var uv = (dc: Int32(0), ac: Int32(0))

    init() {}

    /// The factors of quantizer index `q` with the five deltas (y1 dc, y2 dc, y2 ac, uv dc,
    /// uv ac); shared by the decoder and the encoder.
    init(index q: Int, deltas delta: [Int]) {
        let dc = VP8Tables.dcQuantizer, ac = VP8Tables.acQuantizer
        func clip(_ v: Int, _ top: Int) -> Int { v < 0 ? 0 : v > top ? top : v }
        y1 = (dc[clip(q + delta[0], 127)], ac[clip(q, 127)])
        // x * 155 / 100 equals (x * 101581) >> 16 for every table value.
        y2 = (dc[clip(q + delta[1], 127)] * 2, max(8, (ac[clip(q + delta[2], 127)] * 101581) >> 16))
        uv = (dc[clip(q + delta[3], 117)], ac[clip(q + delta[4], 127)])
    }
}

/// Everything in the first partition before the per-macroblock data (RFC 6386 9.2 to 9.11,
/// 19.2), read with the bool decoder left positioned at the first macroblock header.
struct VP8FrameHeader: Sendable {
    var colorSpace = 0
    var clampingType = 0
    var segmentation = VP8Segmentation()
    var filter = VP8FilterParameters()
    /// Number of DCT token partitions (1, 2, 4 or 8) and their byte ranges in the stream.
    var partitions: [Range<Int>] = []
    var quant = [VP8QuantMatrix](repeating: VP8QuantMatrix(), count: 4)
    /// The coefficient probabilities, `[4][8][3][11]` flattened (RFC 6386 13.4, 13.5).
    var coefficientProbabilities = VP8Tables.defaultCoefficientProbabilities
    /// `mb_no_coeff_skip` and `prob_skip_false` (RFC 6386 9.11).
    var usesSkipProbability = false
    var skipProbability: UInt32 = 0

    /// Reads the frame header from the first partition with `reader`; `partitionsStart` is the
    /// offset of the partition sizes (just past the first partition) and `dataEnd` the end of
    /// the data (libwebp lets the last partition run to the end of the input it was given).
    init(_ reader: inout VP8BoolDecoder, _ bytes: UnsafeBufferPointer<UInt8>,
         partitionsStart: Int, dataEnd: Int) throws(DecodingError) {
        colorSpace = reader.readLiteral(1, bytes)
        clampingType = reader.readLiteral(1, bytes)
        readSegmentation(&reader, bytes)
        // The first partition has arrived whole (the caller checks its size against the data),
        // so a header that runs past its end is malformed, not cut short.
        if reader.isPastEnd { throw .invalidData("VP8 first partition ends inside the segment header") }
        readFilter(&reader, bytes)
        if reader.isPastEnd { throw .invalidData("VP8 first partition ends inside the filter header") }
        try readPartitions(&reader, bytes, start: partitionsStart, end: dataEnd)
        readQuantizers(&reader, bytes)
        // refresh_entropy_probs (RFC 9.7): meaningless for a single key frame.
        _ = reader.readFlag(bytes)
        readCoefficientProbabilities(&reader, bytes)
    }

    /// RFC 6386 9.3 and 19.2 `update_segmentation`.
    mutating func readSegmentation(_ r: inout VP8BoolDecoder, _ bytes: UnsafeBufferPointer<UInt8>) {
        segmentation.isEnabled = r.readFlag(bytes)
        guard segmentation.isEnabled else { return }
        segmentation.updatesMap = r.readFlag(bytes)
        if r.readFlag(bytes) {  // update_segment_feature_data
            segmentation.isAbsolute = r.readFlag(bytes)
            for s in 0..<4 { segmentation.quantizer[s] = r.readFlag(bytes) ? r.readSignedLiteral(7, bytes) : 0 }
            for s in 0..<4 { segmentation.filterLevel[s] = r.readFlag(bytes) ? r.readSignedLiteral(6, bytes) : 0 }
        }
        if segmentation.updatesMap {
            for i in 0..<3 { segmentation.treeProbabilities[i] = r.readFlag(bytes) ? UInt32(r.readLiteral(8, bytes)) : 255 }
        }
    }

    /// RFC 6386 9.4 and 19.2 `filter_type` … `mb_lf_adjustments`.
    mutating func readFilter(_ r: inout VP8BoolDecoder, _ bytes: UnsafeBufferPointer<UInt8>) {
        filter.isSimple = r.readFlag(bytes)
        filter.level = r.readLiteral(6, bytes)
        filter.sharpness = r.readLiteral(3, bytes)
        filter.usesDeltas = r.readFlag(bytes)
        if filter.usesDeltas && r.readFlag(bytes) {  // mode_ref_lf_delta_update
            for i in 0..<4 where r.readFlag(bytes) { filter.referenceDeltas[i] = r.readSignedLiteral(6, bytes) }
            for i in 0..<4 where r.readFlag(bytes) { filter.modeDeltas[i] = r.readSignedLiteral(6, bytes) }
        }
    }

    /// RFC 6386 9.5: the partition count, then 3-byte sizes of all partitions but the last,
    /// which takes the rest of the data (`Int.max` here: its readers stop at the end of the bytes
    /// they are given). The last partition must start before the end of the data, as libwebp
    /// requires (libwebp clamps the other sizes to the data, which changes nothing then: a
    /// size past the data leaves the last partition empty).
    mutating func readPartitions(_ r: inout VP8BoolDecoder, _ bytes: UnsafeBufferPointer<UInt8>,
                                 start: Int, end: Int) throws(DecodingError) {
        let last = (1 << r.readLiteral(2, bytes)) - 1
        guard end - start >= 3 * last else { throw .truncated("VP8 partition sizes pass the end of the data") }
        var partStart = start + 3 * last
        var sizes = start
        partitions = []
        for _ in 0..<last {
            let size = Int(bytes[sizes]) | Int(bytes[sizes + 1]) << 8 | Int(bytes[sizes + 2]) << 16
            partitions.append(partStart..<(partStart + size))
            partStart += size
            sizes += 3
        }
        guard partStart < end else { throw .truncated("VP8 last partition is empty") }
        partitions.append(partStart..<Int.max)
    }

    /// RFC 6386 9.6 and 14.1: the base index, five deltas, and per segment the six factors.
    mutating func readQuantizers(_ r: inout VP8BoolDecoder, _ bytes: UnsafeBufferPointer<UInt8>) {
        let base = r.readLiteral(7, bytes)
        var delta = [Int](repeating: 0, count: 5)  // y1 dc, y2 dc, y2 ac, uv dc, uv ac
        for i in 0..<5 where r.readFlag(bytes) { delta[i] = r.readSignedLiteral(4, bytes) }
        for s in 0..<4 {
            var q = base
            if segmentation.isEnabled {
                q = segmentation.quantizer[s] + (segmentation.isAbsolute ? 0 : base)
            } else if s > 0 {
                quant[s] = quant[0]
                continue
            }
            quant[s] = VP8QuantMatrix(index: q, deltas: delta)
        }
    }

    /// RFC 6386 13.4: each probability may be replaced by an 8-bit literal; then 9.11.
    mutating func readCoefficientProbabilities(_ r: inout VP8BoolDecoder, _ bytes: UnsafeBufferPointer<UInt8>) {
        let update = VP8Tables.coefficientUpdateProbabilities
        for i in 0..<update.count where r.readBit(UInt32(update[i]), bytes) {
            coefficientProbabilities[i] = UInt8(r.readLiteral(8, bytes))
        }
        usesSkipProbability = r.readFlag(bytes)
        if usesSkipProbability { skipProbability = UInt32(r.readLiteral(8, bytes)) }
    }
}
