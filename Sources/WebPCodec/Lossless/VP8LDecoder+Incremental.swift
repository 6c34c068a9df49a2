import CodecCore

extension VP8LDecoder {
    /// Rows decoded per batch: a checkpoint before each, and the inverse transforms after it.
    static let rowsPerBatch = 16

    /// Decodes the main image as far as `bytes` (all the bitstream's bytes so far) allows, a
    /// batch of rows at a time, and applies the inverse transforms to each finished batch;
    /// stops once `untilRow` rows are final (an ALPH stream, decoded as its rows are needed).
    ///
    /// Before each batch the image decoder (position, colour cache) and the bit reader are
    /// copied; if the batch runs out of bytes, or merely loads zeros past the end, while the
    /// input is not final, they are restored and the call returns: the next call, with more
    /// bytes, decodes the batch again. With final input, running out throws `truncated`; the
    /// rows before ``finalRowCount`` stay valid. While the input is open, a batch that stalled is
    /// retried only once about half a batch's worth of new bytes arrived (so feeding a byte at a
    /// time costs O(n) batch attempts in all, not one per byte).
    package mutating func decode(_ bytes: UnsafeBufferPointer<UInt8>, isFinal: Bool,
                                 untilRow: Int = .max) throws(DecodingError) {
        if !isFinal && stalledAt > 0 && bytes.count < stalledAt + max(64, lastBatchBytes / 2) { return }
        let pipeline = pipelines(untilRow: untilRow)
            ? VP8LRowPipeline.start(&output, batchPixels: Self.rowsPerBatch * codedWidth) : nil
        defer { if let pipeline { output = pipeline.finish() } }
        while finalRowCount < min(height, untilRow) {
            let target = min(height, image.row + Self.rowsPerBatch)
            let savedImage = image, savedReader = reader
            do throws(DecodingError) {
                try decodeRows(until: target, bytes)
                if !isFinal && reader.zeroBitsRead > 0 { throw .truncated("VP8L bitstream ends inside a batch") }
            } catch {
                image = savedImage
                reader = savedReader
                if isFinal || error.kind != .truncated { throw error }
                stalledAt = bytes.count
                return
            }
            stalledAt = 0
            lastBatchBytes = reader.position - savedReader.position
            applyTransforms(rows: finalRowCount..<image.row, on: pipeline)
            finalRowCount = image.row
        }
    }

    /// Images with fewer pixels are transformed on the caller's thread.
    static let minimumPipelinedPixels = 1 << 18

    /// Whether this call transforms its batches on a pool thread: `maxThreads` allows it, the
    /// output is RGBA8 or a thumbnail (an ALPH stream is decoded a few rows at a time as the
    /// lossy image needs them), the image is large and at least three batches are left.
    private func pipelines(untilRow: Int) -> Bool {
        maxThreads > 1 && !outputsGreen && untilRow >= height && width * height >= Self.minimumPipelinedPixels
            && height - image.row >= VP8LRowPipeline.batchesInFlight * Self.rowsPerBatch
    }

    /// Decodes the main image's pixels until every row before `row` is complete.
    mutating func decodeRows(until row: Int, _ bytes: UnsafeBufferPointer<UInt8>) throws(DecodingError) {
        try decodePixels(until: min(row, height) * codedWidth, bytes)
    }

    /// Decodes the main image's pixels until every pixel before `end` (scan order in the coded
    /// image, `codedWidth` wide) is decoded, the window sliding first if it must; `end` is at
    /// most the coded image's size.
    mutating func decodePixels(until end: Int, _ bytes: UnsafeBufferPointer<UInt8>) throws(DecodingError) {
        let end = min(end, codedWidth * height)
        while image.position < end {
            let stop = coded.makeRoom(from: image.position, upTo: end)
            let origin = coded.origin
            try coded.withUnsafeMutablePixels { (base) throws(DecodingError) in
                try image.decode(into: base, origin: origin, untilPixel: stop, &reader, bytes)
            }
        }
    }

    /// Applies the inverse transforms, last read first, to the decoded `rows` (the rows above
    /// are final), at most ``rowsPerBatch`` at a time (an LZ77 copy may complete rows past the
    /// batch asked for), and hands them to the output: here, or on `pipeline`'s thread.
    mutating func applyTransforms(rows: Range<Int>, on pipeline: VP8LRowPipeline? = nil) {
        var y = rows.lowerBound
        while y < rows.upperBound {
            let end = min(rows.upperBound, y + Self.rowsPerBatch)
            let first = y * codedWidth - coded.origin, count = (end - y) * codedWidth
            coded.pixels.withUnsafeBufferPointer { codedBuffer in
                guard let base = codedBuffer.baseAddress else { return }
                if let pipeline {
                    pipeline.transform(y..<end, coded: base + first, count: count)
                } else {
                    output.transform(y..<end, coded: base + first)
                }
            }
            y = end
        }
    }
}
