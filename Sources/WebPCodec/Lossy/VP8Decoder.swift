import CodecCore

/// Decodes a VP8 key frame (WebP lossy, RFC 6386 as RFC 9649 wraps it) to RGBA8, bit-exact
/// with libwebp's `WebPDecodeRGBA`, or shrinks it to a thumbnail as its rows come out.
///
/// The state: the frame header, the first partition's macroblock headers (``VP8ModeRows``, a
/// reference: with two threads the writing thread parses them ahead), the token partitions'
/// readers, the non-zero flags along the macroblock row above, the job one macroblock row is parsed into (``VP8RowJob``: modes and
/// dequantised coefficients), and the writer (``VP8RowWriter``) that reconstructs each row into
/// a band of the planes, loop-filters it (which changes pixels of this row and the three lines
/// above it) and converts the output rows that no later row can change, so the planes are
/// never held whole (as libwebp's row cache, `kFilterExtraRows`). With two threads or more the
/// writer runs on a pool thread, a row behind (``VP8RowPipeline``, libwebp's `use_threads`
/// with its `mt_method` 2).
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
    /// The first partition's macroblock headers, parsed row by row.
    let modeRows: VP8ModeRows
    var tokenReaders: [VP8BoolDecoder]
    /// The loop filter's parameters per segment × B_PRED.
    let filterStrengths: [VP8FilterInfo]
    let layout: VP8BandLayout
    /// Non-zero flags along the bottom of the row above, 9 per macroblock (4 Y, 2 U, 2 V, Y2),
    /// and along the left of the current macroblock (the last 9 entries).
    var nonZero: [UInt8]
    /// The macroblock row being parsed: modes, coefficients, loop filter parameters.
    var job: VP8RowJob
    /// Reconstruction, the loop filter and the output, here between rows while one thread decodes.
    var writer: VP8RowWriter
    /// Macroblock rows decoded (and, once ``decode(_:isFinal:maxThreads:)`` returns, written) so far.
    package internal(set) var mbRow = 0
    /// Input size when a row last ran out of bytes, and the compressed size of the last whole
    /// row: a new attempt waits for about half a row of new bytes (VP8Decoder+Incremental.swift).
    var stalledAt = 0
    var lastRowBytes = 0

    package var width: Int { tag.width }
    package var height: Int { tag.height }
    var filterType: Int { layout.filterType }
    /// Where the rows go: the RGBA8 image (``Output/image``, allocated uninitialised: after
    /// each ``decode(_:isFinal:maxThreads:)`` the rows from ``finalRowCount`` on are cleared to
    /// transparent black), or the thumbnail (``Output/thumbnail(width:height:)``).
    package var sink: RowSink { writer.sink }
    /// The alpha plane (from ALPH), set before rows come out and decoded a band at a time as
    /// they do; nil is opaque.
    package var alpha: WebPAlphaRows? {
        get { writer.alpha }
        set { writer.alpha = newValue }
    }
    /// Output rows that are final: no later macroblock row's filter or upsampling changes them.
    /// They have gone to the output.
    package var finalRowCount: Int { writer.finalRowCount }

    /// Luma lines of the previous macroblock row kept in the band: at least the 3 the loop
    /// filter changes and the 7 whose output rows wait for the next row's chroma; 8 keeps
    /// luma and chroma aligned (4 chroma lines).
    static let bandExtraLines = 8
    static let bandLines = bandExtraLines + 16

    /// Reads the frame tag and header from `bytes`, a VP8 chunk's payload followed by whatever
    /// comes after it in the file (`chunkSize` is the chunk's own size), checks the size against
    /// `limits` and allocates the band and the output.
    package init(_ bytes: UnsafeBufferPointer<UInt8>, chunkSize: Int, limits: Limits,
                output: Output = .image) throws(DecodingError) {
        tag = try VP8FrameTag(bytes, chunkSize: chunkSize)
        mbWidth = (tag.width + 15) >> 4
        mbHeight = (tag.height + 15) >> 4
        let sink = try output.sink(width: tag.width, height: tag.height, limits: limits)
        let partition0 = VP8FrameTag.size
        guard tag.firstPartitionSize <= bytes.count - partition0 else {
            throw .truncated("VP8 first partition passes the end of the data")
        }
        let partition0End = partition0 + tag.firstPartitionSize
        var modeReader = VP8BoolDecoder(bytes, start: partition0, end: partition0End)
        header = try VP8FrameHeader(&modeReader, bytes, partitionsStart: partition0End, dataEnd: bytes.count)
        modeRows = VP8ModeRows(reader: modeReader, header: header, mbWidth: mbWidth, mbHeight: mbHeight)
        tokenReaders = header.partitions.map { VP8BoolDecoder(bytes, start: $0.lowerBound, end: $0.upperBound) }
        layout = VP8BandLayout(width: tag.width, height: tag.height, mbWidth: mbWidth, mbHeight: mbHeight,
                               filterType: header.filter.level == 0 ? 0 : header.filter.isSimple ? 1 : 2)
        filterStrengths = VP8FilterInfo.strengths(header)
        nonZero = [UInt8](repeating: 0, count: (mbWidth + 1) * 9)
        job = VP8RowJob(layout)
        writer = VP8RowWriter(layout: layout, sink: sink)
    }

    /// Decodes the next macroblock row into ``job``, for the writer. Throws `truncated` when a
    /// partition ran out of data (libwebp's "premature end of partition 0 / of file").
    mutating func decodeRow(_ bytes: UnsafeBufferPointer<UInt8>, isFinal: Bool) throws(DecodingError) {
        let mbY = mbRow
        var tokens = tokenReaders[mbY & (tokenReaders.count - 1)]
        let truncated = decodeMacroblocks(mbY, &tokens, bytes, isFinal: isFinal)
        tokenReaders[mbY & (tokenReaders.count - 1)] = tokens
        if truncated { throw .truncated("VP8 partition ends before the last macroblock") }
        job.mbRow = mbY
        mbRow = mbY + 1
    }

    /// The RGBA8 image (``Output/image``, straight alpha), `width × height`; rows from
    /// ``finalRowCount`` on are transparent black.
    package func rgba() -> [UInt8] { sink.pixels }
}
