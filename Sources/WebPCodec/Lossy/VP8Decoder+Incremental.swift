import CodecCore

/// What parsing a macroblock row's tokens changes besides its job: restored when the row runs
/// out of input while more may come. (The job needs no copy: it goes to the writer only when
/// the row is complete, and the next attempt parses the row into it again. The headers of a
/// row, ``VP8ModeRows``, are kept only when they are complete, and then stay.)
struct VP8RowCheckpoint {
    let tokenReaders: [VP8BoolDecoder]
    let nonZero: [UInt8]
}

extension VP8Decoder {
    /// Reads the frame header from `bytes` (all of the VP8 payload so far, and what follows it
    /// in the file) if the first partition, the partition sizes and the first byte of every
    /// token partition are there: nil when they are not yet, while more may come.
    package static func start(_ bytes: UnsafeBufferPointer<UInt8>, chunkSize: Int, isFinal: Bool, limits: Limits,
                             output: Output = .image) throws(DecodingError) -> VP8Decoder? {
        do {
            let decoder = try VP8Decoder(bytes, chunkSize: chunkSize, limits: limits, output: output)
            // A reader is primed when it is made: one primed past the bytes given would keep the
            // zero it shifted in, so wait until every partition's first bytes are there.
            if !isFinal && (decoder.modeRows.isPastEnd || decoder.tokenReaders.contains { $0.isPastEnd }) { return nil }
            return decoder
        } catch where error.kind == .truncated && !isFinal {
            return nil
        }
    }

    /// Decodes macroblock rows as far as `bytes` allows (RFC 6386 19.3, row by row), on up to
    /// two of `maxThreads` threads (``VP8RowPipeline``; the pixels, the final rows and the
    /// errors are the same for every thread count).
    ///
    /// Before each row the readers and the per-column contexts are copied; if the row runs
    /// past the bytes given while the input is not final, they are restored and the call
    /// returns, and the next call decodes the row again. With final input, running out throws
    /// `truncated`; the rows before ``finalRowCount`` stay valid. While the input is open, a
    /// row that stalled is retried once about half a row's worth of new bytes arrived.
    package mutating func decode(_ bytes: UnsafeBufferPointer<UInt8>, isFinal: Bool,
                                 maxThreads: Int = 1) throws(DecodingError) {
        defer { writer.sink.clearUnwrittenRows() }
        if let failure = writer.failure { throw failure }
        if isFinal, let last = tokenReaders.indices.last, tokenReaders[last].end == .max {
            // The last partition takes the rest of the data, whose end is now known.
            tokenReaders[last].end = bytes.count
        }
        if !isFinal && stalledAt > 0 && bytes.count < stalledAt + max(64, lastRowBytes / 2) { return }
        var pipeline: VP8RowPipeline?
        var spares: [VP8RowJob] = []
        var rowsDecoded = 0
        var failure: DecodingError?
        while mbRow < mbHeight && writer.failure == nil {
            do throws(DecodingError) {
                try decodeRowOrRestore(bytes, isFinal: isFinal)
            } catch {
                failure = error
                break
            }
            if stalledAt > 0 { break }
            rowsDecoded += 1
            // Offered again after each row while the pool says no: its thread may be on its
            // way back from the last pipeline (a frame or image just finished).
            if pipeline == nil && rowsDecoded >= (isFinal ? 1 : 2) && maxThreads > 1 && pipelines {
                if spares.isEmpty { spares = VP8RowPipeline.spareJobs(layout) }
                pipeline = VP8RowPipeline(writer: writer, jobs: spares, headersAhead: isFinal ? modeRows : nil, bytes: bytes)
                if pipeline != nil { (writer, spares) = (writer.placeholder(), []) }
            }
            if let pipeline { pipeline.handOver(&job) } else { writer.write(&job) }
        }
        if let pipeline { writer = pipeline.finish() }
        if let failure = writer.failure ?? failure { throw failure }
    }

    /// Whether a call that decodes several rows hands them to a second thread: for images of
    /// ``minimumPipelinedPixels`` or more with at least 4 macroblock rows left.
    private var pipelines: Bool {
        layout.width * layout.height >= Self.minimumPipelinedPixels && mbHeight - mbRow >= 4
    }

    /// Smaller images decode on one thread (a hand-off per row would cost more than it gains).
    static let minimumPipelinedPixels = 1 << 13

    /// Decodes the next row; when it runs out of bytes while the input is open, restores the
    /// readers and contexts it changed and sets ``stalledAt``.
    private mutating func decodeRowOrRestore(_ bytes: UnsafeBufferPointer<UInt8>, isFinal: Bool) throws(DecodingError) {
        let saved = VP8RowCheckpoint(tokenReaders: tokenReaders, nonZero: nonZero)
        let consumed = tokenReaders.reduce(modeRows.position) { $0 + $1.position }
        do throws(DecodingError) {
            try decodeRow(bytes, isFinal: isFinal)
        } catch {
            if isFinal || error.kind != .truncated { throw error }
            tokenReaders = saved.tokenReaders
            nonZero = saved.nonZero
            stalledAt = bytes.count
            return
        }
        stalledAt = 0
        lastRowBytes = tokenReaders.reduce(modeRows.position) { $0 + $1.position } - consumed
    }
}
