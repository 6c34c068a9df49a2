import CodecCore

/// The last half of a VP8L decode (RFC 9649 4): the inverse transforms on a batch of coded rows,
/// last read first, and the output they go to (the RGBA8 image, a thumbnail's resampler, or an
/// ALPH stream's green bytes). It runs on the caller's thread or, for a large image with
/// ``DecodingOptions/maxThreads`` of 2 or more, on a pool thread while the caller decodes the
/// next batches' pixels (``VP8LRowPipeline``); either way batches come in order, so the bytes
/// are the same.
struct VP8LRowOutput: Sendable {
    /// In reading order; inverted last to first.
    let transforms: [VP8LTransform]
    let width: Int
    let codedWidth: Int
    /// An ALPH stream's output: its green channel only (RFC 9649 2.7.1.2), not RGBA8.
    let outputsGreen: Bool
    /// Two batches of rows (plus the row above each) for the inverse transforms: the first
    /// `codedWidth` wide and, with pixel bundling, the second `width` wide.
    var scratch: [UInt32] = []
    /// The predictor's own output of the last row of the previous batch, which the next batch
    /// predicts from (the scratch rows are reused, and the later inverse transforms change
    /// that row after the predictor).
    var predictorRow: [UInt32] = []
    /// Where the rows go: the RGBA8 image (straight alpha; rows not yet final are transparent
    /// black) or a thumbnail. Unused for an ALPH stream.
    var sink = RowSink(width: 0, height: 0)
    /// An ALPH stream's green channel (a byte a pixel) of the final rows not yet taken.
    var green: [UInt8] = []

    /// An output with nothing to write to, held in a decoder while its own is on a pipeline thread.
    static let empty = VP8LRowOutput(transforms: [], width: 0, codedWidth: 0, outputsGreen: false)

    /// Scratch words for batches of `rowsPerBatch` rows `width` wide.
    static func scratchCount(width: Int, rowsPerBatch: Int) -> Int { 2 * (rowsPerBatch + 1) * width }

    /// Applies the inverse transforms to a batch: `rows` of the coded image, `codedWidth` wide,
    /// from `coded` (the rows above are final), and hands the result to the output.
    mutating func transform(_ rows: Range<Int>, coded: UnsafePointer<UInt32>) {
        let result = transformBatch(rows, coded: coded)
        emit(rows: rows, scratchOffset: result)
    }

    /// The batch's coded rows are copied into the first scratch area (below a spare row) and
    /// transformed there (colour indexing with bundling expands them into the second area);
    /// returns where in ``scratch`` the final rows start. A predictor predicts the batch's first
    /// row from the spare row above it, which holds its own output of the previous batch's last
    /// row (`predictorRow`).
    private mutating func transformBatch(_ rows: Range<Int>, coded: UnsafePointer<UInt32>) -> Int {
        let width = self.width, codedWidth = self.codedWidth
        let areaSize = scratch.count / 2
        let transforms = self.transforms
        var predictorRow = self.predictorRow
        var resultOffset = codedWidth
        scratch.withUnsafeMutableBufferPointer { scratchBuffer in
            guard let scratchBase = scratchBuffer.baseAddress else { return }
            var current = scratchBase + codedWidth          // the batch's first row, area 1
            var currentWidth = codedWidth
            current.update(from: coded, count: rows.count * codedWidth)
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
        self.predictorRow = predictorRow
        return resultOffset
    }

    /// Hands a batch's final rows (every inverse transform applied, `width` wide, in ``scratch``
    /// from `scratchOffset`) to the output: their green bytes appended to ``green`` with
    /// ``outputsGreen``, else RGBA8 rows to the sink, which then has them final.
    private mutating func emit(rows: Range<Int>, scratchOffset: Int) {
        let count = rows.count * width
        if outputsGreen {
            let first = green.count
            green.append(contentsOf: repeatElement(0, count: count))
            scratch.withUnsafeBufferPointer { scratchBuffer in
            green.withUnsafeMutableBufferPointer { greenBuffer in
                guard let source = scratchBuffer.baseAddress.map({ $0 + scratchOffset }),
                      let out = greenBuffer.baseAddress.map({ $0 + first }) else { return }
                for i in 0..<count { out[i] = UInt8(truncatingIfNeeded: source[i] &>> 8) }
            }
            }
            return
        }
        scratch.withUnsafeBufferPointer { scratchBuffer in
            guard let source = scratchBuffer.baseAddress.map({ $0 + scratchOffset }) else { return }
            sink.write(rows: rows) { out in Self.storeRGBA(source, count: count, to: UnsafeMutableRawPointer(out)) }
        }
        sink.markFinal(rows: rows.upperBound)
    }

    /// Writes `count` ARGB pixels (a UInt32 each) as R, G, B, A bytes: the red and blue bytes swap.
    @inline(__always)
    static func storeRGBA(_ source: UnsafePointer<UInt32>, count: Int, to words: UnsafeMutableRawPointer) {
        for i in 0..<count {
            let p = source[i]
            let rgba = (p & 0xFF00_FF00) | (p &>> 16 & 0xFF) | (p & 0xFF) &<< 16
            words.storeBytes(of: rgba.littleEndian, toByteOffset: 4 &* i, as: UInt32.self)
        }
    }

    /// Bytes held in buffers that grow with the image: the sink, the green rows, the scratch.
    var heldBytes: Int { sink.heldBytes + green.count + scratch.count * MemoryLayout<UInt32>.stride }
}
