import CodecCore

/// Decodes one compressed image stream (the IDAT image, or one APNG frame's fdAT data) into
/// RGBA rows, resumable at any input byte (PNG 3rd edition §10 decompression, §7.3 and §9
/// filtering, §8 interlacing).
///
/// The stream's bytes lie in segments of the input buffer (chunk payloads); the container
/// parser hands the segments known so far on every call. Rows are inflated into a window,
/// reconstructed as each completes, converted and written to the destination.
package final class PNGFrameDecoder: FrameJob {
    let width: Int
    let height: Int
    private let header: PNGHeader
    private let converter: PNGRowConverter
    private let inflater: Inflater
    /// Where the rows go: the frame-sized raster, or a thumbnail's resampler (the frame's
    /// top-left pixel where it lies on the canvas).
    private(set) var sink: RowSink

    private var segmentIndex = 0
    private var position = -1
    private var window: [UInt8]
    private var windowStart = 0
    private var windowEnd = 0

    /// The current Adam7 pass (always 0 when not interlaced).
    private(set) var pass = 0
    private var passWidth = 0
    private var passHeight = 0
    private var rowInPass = 0
    private var rowLength = 0
    private var rowFill = 0
    /// Filter-type byte plus the scanline, current and previous.
    private var current: [UInt8]
    private var previous: [UInt8]
    /// Every row of every pass is done.
    private(set) var finished = false
    /// A zlib error met after some output: thrown only if more output is needed.
    private var streamError: DecodingError?
    /// The error that stopped this stream; every later call throws it again.
    private var failure: DecodingError?

    /// A decoder writing into a new `width × height` raster (the caller has checked its size
    /// against the limits), or into `thumbnail` at `origin` when one is given: rows, and the
    /// pixels of Adam7 passes, are shrunk as they come out.
    init(header: PNGHeader, width: Int, height: Int, converter: PNGRowConverter,
         thumbnail: StreamingResampler? = nil, origin: (x: Int, y: Int) = (0, 0),
         ignoresChecksum: Bool) throws(DecodingError) {
        self.header = header
        self.width = width
        self.height = height
        self.converter = converter
        sink = thumbnail.map { RowSink(thumbnail: $0, width: width, height: height, origin: origin) }
            ?? RowSink(width: width, height: height, bytesPerPixel: converter.outputBytesPerPixel)
        inflater = try Inflater(ignoresChecksum: ignoresChecksum)
        let fullRow = header.rowBytes(pixels: width) + 1
        current = [UInt8](repeating: 0, count: fullRow + PNGFilter.rowPadding)
        previous = [UInt8](repeating: 0, count: fullRow + PNGFilter.rowPadding)
        window = [UInt8](repeating: 0, count: max(32768, min(fullRow, 1 << 20)))
        pass = -1
        startNextPass()
    }

    /// Bytes held in buffers that grow with the image: the sink and the window.
    package var heldBytes: Int { sink.heldBytes + window.count }

    package var isFinished: Bool { finished }

    package var rowSink: RowSink? { sink }

    /// Adam7 passes fully written so far (7 when done; meaningless for non-interlaced).
    var passesDone: Int { finished ? 7 : max(0, pass) }

    /// Decodes as far as the segments allow. `dataComplete` says no more segments will come,
    /// so running out of data is then an error.
    func decode(segments: [Range<Int>], dataComplete: Bool, input: InputBuffer) throws(DecodingError) {
        if let failure { throw failure }
        do {
            try resume(segments: segments, dataComplete: dataComplete, input: input)
        } catch {
            failure = error
            throw error
        }
    }

    private func resume(segments: [Range<Int>], dataComplete: Bool, input: InputBuffer) throws(DecodingError) {
        while !finished {
            if windowStart == windowEnd {
                guard try refill(segments: segments, input: input) else {
                    if dataComplete || inflater.finished { throw .invalidData("image data ends before the last row") }
                    return
                }
                continue
            }
            let n = min(rowLength - rowFill, windowEnd - windowStart)
            current.withUnsafeMutableBufferPointer { row in
                window.withUnsafeBufferPointer { w in
                    (row.baseAddress! + rowFill).update(from: w.baseAddress! + windowStart, count: n)
                }
            }
            rowFill += n
            windowStart += n
            if rowFill == rowLength { try finishRow() }
        }
    }

    /// Inflates more of the stream into the window. Returns false when no input is left.
    private func refill(segments: [Range<Int>], input: InputBuffer) throws(DecodingError) -> Bool {
        while segmentIndex < segments.count {
            let segment = segments[segmentIndex]
            if position < segment.lowerBound { position = segment.lowerBound }
            let end = min(segment.upperBound, input.count)
            if position < end {
                if let streamError { throw streamError }
                let (consumed, produced, error) = input.withContiguousRun(from: position, to: end) { src in
                    window.withUnsafeMutableBufferPointer { dst in inflater.inflate(src, into: dst) }
                }
                position += consumed
                windowStart = 0
                windowEnd = produced
                streamError = error
                if produced > 0 { return true }
                if let error { throw error }
                if inflater.finished { return false }
                if consumed == 0 { throw .invalidData("zlib stream makes no progress") }
                continue
            }
            if segmentIndex + 1 < segments.count { segmentIndex += 1; continue }
            return false
        }
        return false
    }

    private func startNextPass() {
        repeat {
            pass += 1
            guard pass < (header.interlaced ? 7 : 1) else { finished = true; return }
            (passWidth, passHeight) = header.interlaced ? Adam7.passSize(pass, width: width, height: height) : (width, height)
        } while passWidth == 0 || passHeight == 0
        rowInPass = 0
        rowLength = header.rowBytes(pixels: passWidth) + 1
        rowFill = 0
        for i in previous.indices { previous[i] = 0 }
    }

    /// Reconstructs the completed row, writes it out, and moves to the next.
    private func finishRow() throws(DecodingError) {
        let count = rowLength - 1
        try current.withUnsafeMutableBufferPointer { (cur) throws(DecodingError) in
            try previous.withUnsafeBufferPointer { (prev) throws(DecodingError) in
                try PNGFilter.unfilter(type: cur[0], row: cur.baseAddress! + 1, previous: prev.baseAddress! + 1,
                                       count: count, stride: header.filterStride)
            }
        }
        emitRow()
        swap(&current, &previous)
        rowFill = 0
        rowInPass += 1
        if rowInPass == passHeight {
            if header.interlaced { startNextPass() } else { finished = true }
        }
        if finished { sink.finish() }
    }

    /// Converts the row (an Adam7 pass's row: pixels `step` apart) into the sink; rows of a
    /// non-interlaced image are final as they come (an interlaced one's when the last pass is).
    private func emitRow() {
        let y = header.interlaced ? Adam7.yStart[pass] + rowInPass * Adam7.yStep[pass] : rowInPass
        let x0 = header.interlaced ? Adam7.xStart[pass] : 0, step = header.interlaced ? Adam7.xStep[pass] : 1
        let count = passWidth
        sink.write(row: y, x: x0, count: count, step: step) { dst, step in
            current.withUnsafeBufferPointer { row in
                converter.convert(row.baseAddress! + 1, count: count, into: dst, step: step)
            }
        }
        if !header.interlaced { sink.markFinal(rows: y + 1) }
    }
}
