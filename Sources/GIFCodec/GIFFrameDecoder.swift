import CodecCore

/// Decodes one image's LZW data (GIF89a §22, Appendix F) straight onto the animation canvas,
/// or into a thumbnail's resampler, resumable at any input byte.
///
/// The container hands over the payload ranges of the data sub-blocks known so far on every
/// call; their bytes are gathered into a staging buffer so that the LZW decoder runs over many
/// sub-blocks at once. Codes become colour indices in an output window; each complete row goes
/// through the colour table onto the image's rectangle of the canvas (in the Appendix E order
/// when interlaced), leaving the canvas as it is under pixels of the transparent index — GIF's
/// only blend. Columns and rows outside the logical screen are decoded and dropped; once no
/// visible row is left, decoding stops. Pixels not decoded yet leave the canvas as it is.
///
/// Broken data is an error for this frame, as in Wuffs (Chromium's GIF decoder) and giflib: a
/// minimum code size above 8, a code beyond the table, an end code before the last visible
/// pixel, or data sub-blocks that end before it. The decoder keeps the error and throws it
/// again on every call. Pixels past the last one are ignored, as Chromium's
/// `QUIRK_IGNORE_TOO_MUCH_PIXEL_DATA` does.
package final class GIFFrameDecoder: FrameJob {
    /// The declared image size; rows wrap at `width`.
    let width: Int
    let height: Int
    /// The size of the image's part of the logical screen, where its rows are drawn.
    private let visibleWidth: Int
    private let visibleHeight: Int
    let interlaced: Bool
    private let colors: [UInt32]
    /// The transparent index, whose pixels leave the canvas as it is.
    private let transparentIndex: UInt8?
    /// Where rows go during a ``decode(_:input:into:)`` call: the canvas, or else the resampler.
    private var region: CanvasRegion?
    /// A thumbnail's sink: the image's rows shrunk where it lies on the logical screen.
    private(set) var sink: RowSink?
    private var lzw: LZWDecoder?
    /// The LZW output window: colour indices already written out (kept for the decoder to copy
    /// strings from), then the rest of the current row. `indices[0]` is output position `base`.
    private var indices: [UInt8]
    private var base = 0
    /// The end of the decoded output, and the start of the row not yet written out, in `indices`.
    private var fill = 0
    private var consumed = 0
    /// Output the window holds before it is compacted (at least two rows).
    private let windowSize: Int
    /// Pixels in the declared image: output past them is ignored.
    private let pixelCount: Int
    /// ``DecodingOptions/maxThreads``: with 2 or more, a large image whose data has all arrived
    /// is decoded in two pieces at once and drawn in bands (``decodesInPieces(_:_:minimumCodeSize:)``).
    private let maxThreads: Int
    /// Images smaller than this are decoded in one piece: handing work to another thread costs
    /// more than it saves.
    static let minimumPiecesPixels = 1 << 18

    /// The next data sub-block to stage, and the input position reached in it.
    private var segmentIndex = 0
    private var position = -1
    /// Compressed bytes gathered from several data sub-blocks, so that the LZW decoder runs
    /// over many at once; `staged[stagedStart..<stagedEnd]` are not decoded yet.
    private var staged: [UInt8] = []
    private var stagedStart = 0
    private var stagedEnd = 0
    /// The current Appendix E pass (always 0 when not interlaced) and the rows done in it.
    private(set) var pass = 0
    private(set) var rowInPass = 0
    private var visibleRowsLeft: Int
    /// Decoding has stopped for good.
    private(set) var finished = false
    /// The error that stopped decoding, thrown again on every later call.
    private var failure: DecodingError?

    /// A decoder for `frame` (its visible part may be empty), drawing onto the canvas region
    /// each call hands over, or into `thumbnail`, whose input is the logical screen.
    init(frame: GIFFrameData, input: InputBuffer, thumbnail: StreamingResampler? = nil, maxThreads: Int = 1) {
        self.maxThreads = maxThreads
        width = frame.declared.width
        height = frame.declared.height
        interlaced = frame.interlaced
        visibleWidth = frame.properties.width
        visibleHeight = frame.properties.height
        visibleRowsLeft = visibleHeight
        colors = GIFColorTable(frame.colorTable, transparentIndex: frame.transparentIndex, input: input).entries
        transparentIndex = frame.transparentIndex.flatMap { $0 < 256 ? UInt8($0) : nil }
        let (visible, origin) = ((frame.properties.width, frame.properties.height), (frame.properties.x, frame.properties.y))
        sink = thumbnail.map { RowSink(thumbnail: $0, width: visible.0, height: visible.1, origin: origin) }
        pixelCount = width * height
        windowSize = max(2 * width, min(1 << 16, pixelCount))
        indices = []
        if visibleWidth == 0 || visibleHeight == 0 { finished = true }
    }

    /// Bytes held in buffers that grow with the image: the index window and a thumbnail's sink.
    package var heldBytes: Int { indices.count + (sink?.heldBytes ?? 0) }

    package var isFinished: Bool { finished }

    package var rowSink: RowSink? { sink }

    /// Rows from the top of the raster that are final.
    var finalRowCount: Int {
        if finished { return visibleHeight }
        return interlaced ? 0 : min(rowInPass, visibleHeight)
    }

    /// Decodes as far as the data of `frame` that has arrived allows, drawing onto `region`
    /// (the image's rectangle of the canvas) or, when it is nil, into the resampler.
    func decode(_ frame: GIFFrameData, input: InputBuffer, into region: CanvasRegion?) throws(DecodingError) {
        if let failure { throw failure }
        self.region = region
        defer {
            self.region = nil
            if finished { sink?.finish() }
        }
        do {
            try resume(frame, input)
        } catch {
            failure = error
            release()
            throw error
        }
    }

    private func resume(_ frame: GIFFrameData, _ input: InputBuffer) throws(DecodingError) {
        guard !finished, let size = frame.minimumCodeSize else { return }
        if lzw == nil {
            // §22: 2–8; 0 and 1 decode as in giflib and Wuffs; above 8 both refuse the image.
            guard LZWDecoder.accepts(minimumCodeSize: size) else { throw .invalidData("LZW minimum code size exceeds 8") }
            if decodesInPieces(frame, input, minimumCodeSize: size) {
                finished = true
                release()
                return
            }
            lzw = LZWDecoder(minimumCodeSize: size)
            indices = [UInt8](repeating: 0, count: windowSize + LZWDecoder.outputSlack)
        }
        while !finished {
            let gathered = stage(frame.segments, input)
            let before = fill
            let used = run()
            stagedStart += used
            let rows = writeRows()
            if finished { break }
            switch lzw?.outcome {
            case .endCode?: throw .invalidData("LZW end code before the last pixel")
            case .invalidCode?: throw .invalidData("LZW code is beyond the code table")
            default: break
            }
            if used == 0 && rows == 0 && fill == before && gathered == 0 {
                if frame.complete && segmentIndex >= frame.segments.count {
                    throw .invalidData("image data ends before the last pixel")
                }
                return
            }
        }
        release()
    }

    /// Decodes the whole image at once when `maxThreads` allows, the image is large and its data
    /// has all arrived: the LZW stream in two pieces on two threads (``LZWSplitDecoding``), then
    /// the rows drawn onto the canvas in bands by both, or into the thumbnail one after another.
    /// False (nothing done) when the pool has no thread free (two pieces on one thread cost
    /// more than one: the data gathered, two index buffers, a split search), the stream cannot
    /// be split or a piece fails: the caller decodes in one piece.
    private func decodesInPieces(_ frame: GIFFrameData, _ input: InputBuffer, minimumCodeSize: Int) -> Bool {
        guard maxThreads > 1, pixelCount >= Self.minimumPiecesPixels, frame.complete,
              frame.segments.allSatisfy({ $0.upperBound <= input.count }),
              WorkerPool.shared.hasFreeThread else { return false }
        var data: [UInt8] = []
        data.reserveCapacity(frame.segments.reduce(0) { $0 + $1.count })
        for segment in frame.segments {
            var position = segment.lowerBound
            while position < segment.upperBound {
                let run = input.withContiguousRun(from: position, to: segment.upperBound) { data += $0; return $0.count }
                guard run > 0 else { return false }
                position += run
            }
        }
        guard let pieces = LZWSplitDecoding.decode(data, minimumCodeSize: minimumCodeSize, pixelCount: pixelCount)
        else { return false }
        if let region {
            drawInBands(region, pieces)
        } else {
            indices = pieces.joined()
            fill = pixelCount
            _ = writeRows()
        }
        return true
    }

    /// Draws every row of the decoded image onto `region`, in bands of rows on up to
    /// `maxThreads` threads; each row is drawn by one thread only.
    private func drawInBands(_ region: CanvasRegion, _ pieces: LZWPieces) {
        let bands = min(maxThreads, 8) * 2, rowsPerBand = (height + bands - 1) / bands
        WorkerPool.shared.concurrentForEach(count: bands, maxThreads: maxThreads) { band in
            var joint: [UInt8] = []
            for streamRow in band * rowsPerBand..<min((band + 1) * rowsPerBand, height) {
                let y = interlaced ? GIFInterlace.row(atStreamIndex: streamRow, height: height) : streamRow
                guard y < visibleHeight else { continue }
                let start = streamRow * width
                if start < pieces.split && start + width > pieces.split { joint = [UInt8](repeating: 0, count: width) }
                pieces.withIndices(from: start, count: width, row: &joint) { draw($0, into: UnsafeMutableRawPointer(region.row(y))) }
            }
        }
    }

    /// Copies data sub-block payloads that have arrived into the staging buffer, after the
    /// bytes not decoded yet. Returns the bytes added.
    private func stage(_ segments: [Range<Int>], _ input: InputBuffer) -> Int {
        if staged.isEmpty { staged = [UInt8](repeating: 0, count: pixelCount < 4096 ? 1024 : 16384) }
        if stagedStart > 0 {
            let count = stagedEnd - stagedStart
            staged.withUnsafeMutableBufferPointer { p in p.baseAddress!.update(from: p.baseAddress! + stagedStart, count: count) }
            stagedStart = 0
            stagedEnd = count
        }
        var added = 0
        while stagedEnd < staged.count && segmentIndex < segments.count {
            let segment = segments[segmentIndex]
            if position < segment.lowerBound { position = segment.lowerBound }
            let end = min(min(segment.upperBound, input.count), position + staged.count - stagedEnd)
            let n = input.withContiguousRun(from: position, to: end) { src in
                staged.withUnsafeMutableBufferPointer { dst in
                    if let from = src.baseAddress { (dst.baseAddress! + stagedEnd).update(from: from, count: src.count) }
                }
                return src.count
            }
            if n > 0 {
                position += n
                stagedEnd += n
                added += n
            }
            guard position >= segment.upperBound else { break }
            segmentIndex += 1
        }
        return added
    }

    /// Frees the decoding state once nothing more will be decoded.
    private func release() {
        lzw = nil
        indices = []
        staged = []
        stagedStart = 0
        stagedEnd = 0
        fill = 0
        consumed = 0
    }

    /// Runs the LZW decoder over the staged bytes into the window, compacting the window first
    /// when it is full. Returns the staged bytes used.
    private func run() -> Int {
        guard var decoder = lzw else { return 0 }
        lzw = nil
        defer { lzw = decoder }
        if fill >= windowSize { compact() }
        let limit = min(windowSize, pixelCount - base)
        let base = base, range = stagedStart..<stagedEnd
        return staged.withUnsafeBufferPointer { all in
            indices.withUnsafeMutableBufferPointer { out in
                decoder.decode(UnsafeBufferPointer(rebasing: all[range]), into: out.baseAddress!, base: base, fill: &fill, limit: limit)
            }
        }
    }

    /// Drops the older half of the window, keeping the row not yet written out.
    private func compact() {
        let keep = min(consumed, fill - windowSize / 2)
        let count = fill - keep
        indices.withUnsafeMutableBufferPointer { p in
            p.baseAddress!.update(from: p.baseAddress! + keep, count: count)
        }
        base += keep
        fill -= keep
        consumed -= keep
    }

    /// Writes out the complete rows in the window. Returns the rows written.
    private func writeRows() -> Int {
        var rows = 0
        while !finished && fill - consumed >= width {
            writeRow(from: consumed)
            consumed += width
            rows += 1
        }
        return rows
    }

    /// The image's row `y` in stream order (Appendix E when interlaced).
    private var currentRow: Int {
        interlaced ? GIFInterlace.startRow[pass] + rowInPass * GIFInterlace.rowStep[pass] : rowInPass
    }

    /// Maps the row of indices at `start` into the current row, if it is visible, and moves on.
    private func writeRow(from start: Int) {
        let y = currentRow
        if y < visibleHeight {
            indices.withUnsafeBufferPointer { idx in
                let src = idx.baseAddress! + start
                if let region {
                    draw(src, into: UnsafeMutableRawPointer(region.row(y)))
                } else {
                    shrink(src, row: y)
                }
            }
            visibleRowsLeft -= 1
            if visibleRowsLeft == 0 { finished = true; return }
        }
        advanceRow()
    }

    /// Draws a row of indices over a canvas row: every pixel of an image without a transparent
    /// index, else every pixel whose index is not the transparent one.
    private func draw(_ src: UnsafePointer<UInt8>, into out: UnsafeMutableRawPointer) {
        colors.withUnsafeBufferPointer { table in
            if let transparent = transparentIndex {
                for x in 0..<visibleWidth where src[x] != transparent {
                    out.storeBytes(of: table[Int(src[x])], toByteOffset: x &* 4, as: UInt32.self)
                }
            } else {
                for x in 0..<visibleWidth {
                    out.storeBytes(of: table[Int(src[x])], toByteOffset: x &* 4, as: UInt32.self)
                }
            }
        }
    }

    /// Adds a row of indices, as colours, to the thumbnail at the image's place on the screen.
    private func shrink(_ src: UnsafePointer<UInt8>, row y: Int) {
        let visibleWidth = self.visibleWidth
        colors.withUnsafeBufferPointer { table in
            sink?.write(rows: y..<y + 1) { out in
                let raw = UnsafeMutableRawPointer(out)
                for x in 0..<visibleWidth { raw.storeBytes(of: table[Int(src[x])], toByteOffset: x &* 4, as: UInt32.self) }
            }
        }
        if !interlaced { sink?.markFinal(rows: y + 1) }
    }

    private func advanceRow() {
        rowInPass += 1
        guard interlaced else {
            if rowInPass == height { finished = true }
            return
        }
        while pass < 4 && rowInPass >= GIFInterlace.rowCount(pass: pass, height: height) {
            pass += 1
            rowInPass = 0
        }
        if pass == 4 { finished = true }
    }

    /// Whether row `y` of the raster holds decoded pixels (complete or not).
    func isRowWritten(_ y: Int) -> Bool {
        if finished { return true }
        guard interlaced else { return y < rowInPass }
        let p = GIFInterlace.pass(ofRow: y)
        return p < pass || (p == pass && (y - GIFInterlace.startRow[p]) / GIFInterlace.rowStep[p] < rowInPass)
    }

    /// Fills the rows of this unfinished interlaced image that are not decoded yet, in a copy of
    /// the canvas whose image rectangle is `rect`, from the decoded rows above them.
    func expandPreview(_ canvas: inout [UInt8], canvasWidth: Int, rect: FrameRect) {
        guard interlaced && !finished else { return }
        GIFInterlace.expandPreview(&canvas, bytesPerRow: canvasWidth * 4, rect: rect, written: isRowWritten)
    }
}
