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
            applyTransforms(rows: finalRowCount..<image.row)
            finalRowCount = image.row
        }
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
    /// are final), at most ``rowsPerBatch`` at a time, and hands them to the output.
    mutating func applyTransforms(rows: Range<Int>) {
        var y = rows.lowerBound
        while y < rows.upperBound {
            let end = min(rows.upperBound, y + Self.rowsPerBatch)
            let result = applyTransformsToBatch(y..<end)
            emit(rows: y..<end, scratchOffset: result)
            y = end
        }
    }

    /// One batch: its coded rows are copied into the first scratch area (below a spare row) and
    /// transformed there (colour indexing with bundling expands them into the second area);
    /// returns where in ``scratch`` the final rows start. A predictor predicts the batch's first
    /// row from the spare row above it, which holds its own output of the previous batch's last
    /// row (`predictorRow`).
    private mutating func applyTransformsToBatch(_ rows: Range<Int>) -> Int {
        let width = header.width, codedWidth = self.codedWidth
        let areaSize = (Self.rowsPerBatch + 1) * width
        let transforms = self.transforms
        var predictorRow = self.predictorRow
        var resultOffset = codedWidth
        let first = rows.lowerBound * codedWidth - coded.origin
        coded.pixels.withUnsafeBufferPointer { codedBuffer in
        scratch.withUnsafeMutableBufferPointer { scratchBuffer in
            guard let codedBase = codedBuffer.baseAddress, let scratchBase = scratchBuffer.baseAddress else { return }
            var current = scratchBase + codedWidth          // the batch's first row, area 1
            var currentWidth = codedWidth
            current.update(from: codedBase + first, count: rows.count * codedWidth)
            for transform in transforms.reversed() {
                if transform.inputWidth != transform.width {
                    let target = scratchBase + areaSize + width
                    transform.applyInverse(rows: rows, input: current, output: target)
                    current = target
                    currentWidth = width
                    resultOffset = areaSize + width
                    continue
                }
                if transform.kind == .predictor {
                    if rows.lowerBound > 0 && predictorRow.count == currentWidth {
                        predictorRow.withUnsafeBufferPointer { saved in
                            if let base = saved.baseAddress { (current - currentWidth).update(from: base, count: currentWidth) }
                        }
                    }
                    transform.applyInverse(rows: rows, input: current, output: current)
                    predictorRow = Array(UnsafeBufferPointer(start: current + (rows.count - 1) * currentWidth, count: currentWidth))
                } else {
                    transform.applyInverse(rows: rows, input: current, output: current)
                }
            }
        }
        }
        self.predictorRow = predictorRow
        return resultOffset
    }
}
