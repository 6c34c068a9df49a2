import CodecCore

/// Decodes a VP8 key frame (WebP lossy, RFC 6386 as RFC 9649 wraps it) to RGBA8, bit-exact
/// with libwebp's `WebPDecodeRGBA`, or shrinks it to a thumbnail as its rows come out.
///
/// The state is a value: the frame header, the first partition's reader (modes), the token
/// partitions' readers, the per-column contexts of the macroblock row above (sub-block modes,
/// non-zero flags, the unfiltered bottom samples), the work area one macroblock is
/// reconstructed in, a band of the Y, U and V planes, and the output. ``decodeRow(_:)``
/// decodes one macroblock row: modes, tokens, reconstruction, then the loop filter of that row
/// (which changes pixels of this row and the three lines above it); the output rows that no
/// later row can change are then converted (``emitFinalRows()``) and the band moves down, so
/// the planes are never held whole (as libwebp's row cache, `kFilterExtraRows`).
/// Incremental decoding (VP8Decoder+Incremental.swift) checkpoints the readers and per-column
/// contexts before each row and restores them when the row runs out of input.
package struct VP8Decoder: Sendable {
    /// Where the rows go: an RGBA8 image, or a thumbnail shrunk as they come.
    package enum Output: Sendable {
        case image
        case thumbnail(width: Int, height: Int)

        /// The sink for a `width × height` image, checked against `limits`: an RGBA8 image
        /// (`uninitialized`: the decoder writes every row, clearing the rest for a partial
        /// image), or a thumbnail taking at most `rowsAtOnce` rows a call, for which the
        /// full-size image is never held but its pixel count is bounded all the same.
        func sink(width: Int, height: Int, limits: Limits, uninitialized: Bool = true,
                  rowsAtOnce: Int = 1) throws(DecodingError) -> RowSink {
            switch self {
            case .image:
                _ = try limits.checkedRasterBytes(width: width, height: height, bytesPerPixel: 4)
                return RowSink(width: width, height: height, uninitialized: uninitialized)
            case .thumbnail(let outputWidth, let outputHeight):
                let resampler = try RowSink.resampler(from: width, height, to: outputWidth, outputHeight, limits: limits)
                return RowSink(thumbnail: resampler, width: width, height: height, rowsAtOnce: rowsAtOnce)
            }
        }
    }

    package let tag: VP8FrameTag
    var header: VP8FrameHeader
    let mbWidth: Int
    let mbHeight: Int
    var modeReader: VP8BoolDecoder
    var tokenReaders: [VP8BoolDecoder]
    /// The loop filter's parameters per segment × B_PRED, and per macroblock of the row.
    let filterStrengths: [VP8FilterInfo]
    let filterType: Int  // 0 none, 1 simple, 2 normal
    var rowFilters: [VP8FilterInfo]
    /// Sub-block modes along the bottom of the row above (4 per macroblock) and, for the
    /// current macroblock, along its left (`context[0..<4]`).
    var topModes: [UInt8]
    /// Non-zero flags along the bottom of the row above, 9 per macroblock (4 Y, 2 U, 2 V, Y2),
    /// and along the left of the current macroblock (the last 9 entries).
    var nonZero: [UInt8]
    /// The unfiltered bottom row of each macroblock of the row above: 16 Y, 8 U, 8 V.
    var topSamples: [UInt8]
    /// libwebp's `yuv_b`: the macroblock being reconstructed with its top and left edges.
    var work: [UInt8]
    /// Dequantised coefficients of the current macroblock: 16 Y, 4 U, 4 V blocks of 16, then
    /// the Y2 block.
    var coefficients: [Int16]
    /// Sub-block modes of the current macroblock (raster order), then its 24 blocks' transform kinds.
    var subblockModes: [UInt8]
    /// The band of the planes: Y (`16 mbWidth` wide, ``bandExtraLines`` lines of the previous
    /// macroblock row then the 16 of the current one), then U, then V (`8 mbWidth` wide, half
    /// as many lines each). Between rows only the extra lines matter: the previous row's
    /// lines that the next row's loop filter changes or that upsampling still needs.
    var planes: [UInt8]
    /// Where the rows go: the RGBA8 image (``Output/image``), allocated uninitialised (a whole
    /// decode writes every row once; after each ``decode(_:isFinal:)`` the rows from
    /// ``finalRowCount`` on are cleared to transparent black), or the thumbnail
    /// (``Output/thumbnail(width:height:)``).
    package internal(set) var sink: RowSink
    /// The alpha plane (from ALPH), set before rows come out and decoded a band at a time as
    /// they do; nil is opaque.
    package var alpha: WebPAlphaRows?
    /// Macroblock rows decoded (and loop-filtered) so far.
    package internal(set) var mbRow = 0
    /// Output rows that are final: no later macroblock row's filter or upsampling changes them.
    /// They have gone to the output.
    package internal(set) var finalRowCount = 0
    /// Input size when a row last ran out of bytes, and the compressed size of the last whole
    /// row: a new attempt waits for about half a row of new bytes (VP8Decoder+Incremental.swift).
    var stalledAt = 0
    var lastRowBytes = 0

    package var width: Int { tag.width }
    package var height: Int { tag.height }
    var yStride: Int { mbWidth * 16 }
    var uvStride: Int { mbWidth * 8 }
    /// Luma lines of the previous macroblock row kept in the band: at least the 3 the loop
    /// filter changes and the 7 whose output rows wait for the next row's chroma; 8 keeps
    /// luma and chroma aligned (4 chroma lines).
    static let bandExtraLines = 8
    static let bandLines = bandExtraLines + 16
    var uOffset: Int { yStride * Self.bandLines }
    var vOffset: Int { uOffset + uvStride * Self.bandLines / 2 }

    /// Offsets in ``work``: libwebp's layout with BPS = 32 (a row above each plane, four
    /// columns left of it).
    static let yWork = 32 + 8
    static let uWork = yWork + 16 * 32 + 32
    static let vWork = uWork + 16
    static let workSize = 32 * 17 + 32 * 9

    /// Reads the frame tag and header from `bytes`, a VP8 chunk's payload followed by whatever
    /// comes after it in the file (`chunkSize` is the chunk's own size), checks the size against
    /// `limits` and allocates the band and the output.
    package init(_ bytes: UnsafeBufferPointer<UInt8>, chunkSize: Int, limits: Limits,
                output: Output = .image) throws(DecodingError) {
        tag = try VP8FrameTag(bytes, chunkSize: chunkSize)
        mbWidth = (tag.width + 15) >> 4
        mbHeight = (tag.height + 15) >> 4
        sink = try output.sink(width: tag.width, height: tag.height, limits: limits)
        let partition0 = VP8FrameTag.size
        guard tag.firstPartitionSize <= bytes.count - partition0 else {
            throw .truncated("VP8 first partition passes the end of the data")
        }
        let partition0End = partition0 + tag.firstPartitionSize
        modeReader = VP8BoolDecoder(bytes, start: partition0, end: partition0End)
        header = try VP8FrameHeader(&modeReader, bytes, partitionsStart: partition0End, dataEnd: bytes.count)
        tokenReaders = header.partitions.map { VP8BoolDecoder(bytes, start: $0.lowerBound, end: $0.upperBound) }
        filterType = header.filter.level == 0 ? 0 : header.filter.isSimple ? 1 : 2
        filterStrengths = VP8FilterInfo.strengths(header)
        rowFilters = [VP8FilterInfo](repeating: VP8FilterInfo(), count: mbWidth)
        topModes = [UInt8](repeating: 0, count: (mbWidth + 1) * 4)
        nonZero = [UInt8](repeating: 0, count: (mbWidth + 1) * 9)
        topSamples = [UInt8](repeating: 0, count: mbWidth * 32)
        work = [UInt8](repeating: 0, count: Self.workSize)
        coefficients = [Int16](repeating: 0, count: 384 + 16)
        subblockModes = [UInt8](repeating: 0, count: 16 + 24)
        planes = [UInt8](repeating: 0, count: mbWidth * 24 * Self.bandLines)
    }

    /// Decodes the next macroblock row. Throws `truncated` when a partition ran out of data
    /// (libwebp's "premature end of partition 0 / of file").
    package mutating func decodeRow(_ bytes: UnsafeBufferPointer<UInt8>) throws(DecodingError) {
        let mbY = mbRow
        guard mbY < mbHeight else { return }
        var tokens = tokenReaders[mbY & (tokenReaders.count - 1)]
        var modes = modeReader
        let truncated = decodeMacroblocks(mbY, &modes, &tokens, bytes)
        modeReader = modes
        tokenReaders[mbY & (tokenReaders.count - 1)] = tokens
        if truncated { throw .truncated("VP8 partition ends before the last macroblock") }
        if filterType > 0 { filterRow() }
        mbRow = mbY + 1
        try emitFinalRows()
    }

    /// Output rows final once `rows` macroblock rows are decoded: the next row's filter changes
    /// the last 3 luma and chroma lines (when the filter is on), and an output row needs the
    /// chroma line below it (fancy upsampling).
    func finalRows(afterMacroblockRows rows: Int) -> Int {
        if rows >= mbHeight { return height }
        let filtered = filterType > 0 ? 3 : 0
        let luma = 16 * rows - filtered
        // Row r reads chroma lines up to (r + 1) / 2, which must be below 8 rows - filtered.
        let chroma = 2 * (8 * rows - filtered) - 1
        return max(0, min(luma, chroma, height))
    }

    /// The RGBA8 image (``Output/image``, straight alpha), `width × height`; rows from
    /// ``finalRowCount`` on are transparent black.
    package func rgba() -> [UInt8] { sink.pixels }

    /// Loop-filters the macroblock row in the band (RFC 6386 15), left to right.
    mutating func filterRow() {
        let mbY = mbRow
        let ys = yStride, uvs = uvStride, uo = uOffset, vo = vOffset
        let yRow = Self.bandExtraLines * ys, uvRow = Self.bandExtraLines / 2 * uvs
        let simple = filterType == 1
        let filters = rowFilters
        planes.withUnsafeMutableBufferPointer { p in
            guard let base = p.baseAddress else { return }
            for mbX in 0..<filters.count {
                let y = base + yRow + mbX * 16
                let u = base + uo + uvRow + mbX * 8, v = base + vo + uvRow + mbX * 8
                if VP8LoopFilterSIMD.isPreferred {
                    VP8LoopFilterSIMD.filterMacroblock(filters[mbX], isSimple: simple, mbX: mbX, mbY: mbY,
                                                       y: y, yStride: ys, u: u, v: v, uvStride: uvs)
                } else {
                    VP8LoopFilter.filterMacroblock(filters[mbX], isSimple: simple, mbX: mbX, mbY: mbY,
                                                   y: y, yStride: ys, u: u, v: v, uvStride: uvs)
                }
            }
        }
    }
}
