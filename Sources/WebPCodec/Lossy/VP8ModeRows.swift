import CodecCore

/// The first partition's macroblock headers (RFC 6386 19.3: segment, skip flag, luma mode with
/// its sub-block modes, chroma mode), parsed a macroblock row at a time, apart from the tokens,
/// into a ring of ``slots`` rows.
///
/// The token parser takes each row's headers from here (``claim(_:bytes:isFinal:)``), parsing
/// the row itself when nobody has. In a two-thread decode with final input the writing thread
/// also parses headers up to ``lead`` rows ahead of the row it writes
/// (``parseAhead(through:bytes:)``): the first partition then leaves the token parser's
/// thread, the longer of the two stages (libwebp's `use_threads` parses both partitions on
/// one thread). Rows are parsed in order by one thread at a time, from the same reader, so the
/// headers do not depend on which thread parsed which row.
///
/// The ring is safe to read without the lock: a row's headers are in use from the moment it
/// is parsed until the token parser copies them out as it claims the row. The writer writes
/// row k while the token parser is at a row r past k (at most ``VP8RowPipeline/jobsInFlight``
/// + 1 past it), and parses at most up to k + ``lead`` < r + ``lead``; so the rows parsed and
/// not yet copied lie in r…r + ``lead`` − 1, fewer than ``slots``.
final class VP8ModeRows: @unchecked Sendable {
    static let slots = 8
    static let lead = 4

    let header: VP8FrameHeader
    let mbWidth: Int
    let mbHeight: Int
    private let lock = ConditionLock()
    // Written by the thread that set `isParsing` (published under `lock`).
    private var reader: VP8BoolDecoder
    /// Sub-block modes along the bottom of the row above (4 per macroblock), then the left's 4.
    private let contexts: UnsafeMutablePointer<UInt8>
    private let headers: UnsafeMutablePointer<VP8MacroblockHeader>
    /// 16 sub-block modes per macroblock of each slot (raster order; B_PRED macroblocks only).
    private let subblockModes: UnsafeMutablePointer<UInt8>
    // Guarded by `lock`.
    private var parsedRows = 0
    private var isParsing = false
    /// The first row whose headers ran past the first partition's end (final input).
    private var truncatedRow: Int?

    init(reader: VP8BoolDecoder, header: VP8FrameHeader, mbWidth: Int, mbHeight: Int) {
        self.reader = reader
        self.header = header
        self.mbWidth = mbWidth
        self.mbHeight = mbHeight
        contexts = .allocate(capacity: (mbWidth + 1) * 4)
        contexts.initialize(repeating: 0, count: (mbWidth + 1) * 4)
        headers = .allocate(capacity: Self.slots * mbWidth)
        headers.initialize(repeating: VP8MacroblockHeader(), count: Self.slots * mbWidth)
        subblockModes = .allocate(capacity: Self.slots * mbWidth * 16)
        subblockModes.initialize(repeating: 0, count: Self.slots * mbWidth * 16)
    }

    deinit {
        contexts.deallocate()
        headers.deallocate()
        subblockModes.deallocate()
    }

    /// Whether the reader has needed bytes past the data given (the frame header's check).
    var isPastEnd: Bool { locked { reader.isPastEnd } }
    /// The first partition's bytes read so far.
    var position: Int { locked { reader.position } }

    private func locked<T>(_ body: () -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body()
    }

    /// Makes row `row`'s headers available: parsed by another thread already, or now (waiting
    /// while another thread parses). Nil when the row runs past the bytes given while more may
    /// come (nothing is kept of it); else whether the row ran past the partition's end.
    func claim(_ row: Int, bytes: UnsafeBufferPointer<UInt8>, isFinal: Bool) -> Bool? {
        lock.lock()
        while isParsing && parsedRows <= row { lock.wait() }
        if parsedRows > row {
            defer { lock.unlock() }
            return truncatedRow.map { $0 <= row } ?? false
        }
        isParsing = true
        lock.unlock()
        var complete = true
        while complete && locked({ parsedRows <= row }) { complete = parseRow(bytes: bytes, isFinal: isFinal) }
        lock.lock()
        defer { lock.unlock() }
        isParsing = false
        lock.broadcast()
        guard complete else { return nil }
        return truncatedRow.map { $0 <= row } ?? false
    }

    /// Parses rows up to `row` (and the frame's last) unless another thread is parsing or a
    /// row has run past the partition's end. For final input only.
    func parseAhead(through row: Int, bytes: UnsafeBufferPointer<UInt8>) {
        lock.lock()
        let last = min(row, mbHeight - 1)
        guard !isParsing, truncatedRow == nil, parsedRows <= last else {
            lock.unlock()
            return
        }
        isParsing = true
        lock.unlock()
        while locked({ parsedRows <= last && truncatedRow == nil }) { _ = parseRow(bytes: bytes, isFinal: true) }
        lock.lock()
        isParsing = false
        lock.broadcast()
        lock.unlock()
    }

    /// The headers of `row`'s macroblocks into `out`, and the sub-block modes of its B_PRED
    /// macroblocks into each macroblock's first 16 `blocks` (``VP8RowJob/blocksPerMacroblock``
    /// apart). The row must have been claimed.
    func copy(row: Int, into out: UnsafeMutablePointer<VP8MacroblockHeader>, blocks: UnsafeMutablePointer<UInt8>) {
        let first = row % Self.slots * mbWidth
        for mbX in 0..<mbWidth {
            let mb = headers[first + mbX]
            out[mbX] = mb
            if mb.isSubblockPredicted {
                (blocks + mbX * VP8RowJob.blocksPerMacroblock).update(from: subblockModes + (first + mbX) * 16, count: 16)
            }
        }
    }

    /// Parses the next row into its slot (by the thread that set `isParsing`). False when it
    /// ran past the bytes given while more may come: the reader and contexts are put back.
    private func parseRow(bytes: UnsafeBufferPointer<UInt8>, isFinal: Bool) -> Bool {
        let row = locked { parsedRows }
        let first = row % Self.slots * mbWidth
        var r = reader
        let saved = isFinal ? [] : Array(UnsafeBufferPointer(start: contexts, count: (mbWidth + 1) * 4))
        let left = contexts + mbWidth * 4
        // The left context starts over on each row (RFC 6386 11.3).
        left.update(repeating: 0, count: 4)
        VP8Tables.keyFrameSubblockModeProbabilities.withUnsafeBufferPointer { p in
            guard let probabilities = p.baseAddress else { return }
            for mbX in 0..<mbWidth {
                headers[first + mbX] = VP8Decoder.readMacroblockHeader(
                    &r, bytes, header: header, top: contexts + mbX * 4, left: left,
                    probabilities: probabilities, subblockModes: subblockModes + (first + mbX) * 16)
            }
        }
        if r.isPastEnd && !isFinal {
            contexts.update(from: saved, count: saved.count)
            return false
        }
        locked {
            reader = r
            if r.isPastEnd && truncatedRow == nil { truncatedRow = row }
            parsedRows = row + 1
        }
        return true
    }
}
