import CodecCore

/// What a macroblock row changes besides the band of planes: restored when the row runs out of
/// input while more may come. (The band needs no copy: a row writes only its own macroblocks
/// until it is complete, and it is loop-filtered, which changes the lines above, and the band
/// moves down, only then.)
struct VP8RowCheckpoint {
    let modeReader: VP8BoolDecoder
    let tokenReaders: [VP8BoolDecoder]
    let topModes: [UInt8]
    let nonZero: [UInt8]
    let topSamples: [UInt8]
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
            if !isFinal && (decoder.modeReader.isPastEnd || decoder.tokenReaders.contains { $0.isPastEnd }) { return nil }
            return decoder
        } catch where error.kind == .truncated && !isFinal {
            return nil
        }
    }

    /// Decodes macroblock rows as far as `bytes` allows (RFC 6386 19.3, row by row).
    ///
    /// Before each row the readers and the per-column contexts are copied; if the row runs
    /// past the bytes given while the input is not final, they are restored and the call
    /// returns, and the next call decodes the row again. With final input, running out throws
    /// `truncated`; the rows before ``finalRowCount`` stay valid. While the input is open, a
    /// row that stalled is retried once about half a row's worth of new bytes arrived.
    package mutating func decode(_ bytes: UnsafeBufferPointer<UInt8>, isFinal: Bool) throws(DecodingError) {
        defer { sink.clearUnwrittenRows() }
        if isFinal, let last = tokenReaders.indices.last, tokenReaders[last].end == .max {
            // The last partition takes the rest of the data, whose end is now known.
            tokenReaders[last].end = bytes.count
        }
        if !isFinal && stalledAt > 0 && bytes.count < stalledAt + max(64, lastRowBytes / 2) { return }
        while mbRow < mbHeight {
            let saved = VP8RowCheckpoint(modeReader: modeReader, tokenReaders: tokenReaders, topModes: topModes,
                                         nonZero: nonZero, topSamples: topSamples)
            let consumed = tokenReaders.reduce(modeReader.position) { $0 + $1.position }
            do throws(DecodingError) {
                try decodeRow(bytes)
            } catch {
                if isFinal || error.kind != .truncated { throw error }
                modeReader = saved.modeReader
                tokenReaders = saved.tokenReaders
                topModes = saved.topModes
                nonZero = saved.nonZero
                topSamples = saved.topSamples
                stalledAt = bytes.count
                return
            }
            stalledAt = 0
            lastRowBytes = tokenReaders.reduce(modeReader.position) { $0 + $1.position } - consumed
        }
    }
}
