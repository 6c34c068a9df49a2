import CodecCore

/// The contiguous bytes of one bitstream, from its first byte to a limit, for a decoder that
/// reads one run of bytes: the input's own segment when it holds the whole run, otherwise a
/// copy grown by the new bytes only (each byte copied once; ``InputBuffer`` is segmented).
struct WebPByteRun {
    /// The bitstream's first byte in the input.
    let start: Int
    private var staged: [UInt8] = []
    /// Bytes seen at the last attempt to start the decoder (read its headers): the next waits
    /// for twice as many, so headers fed a byte at a time are read O(log n) times, not n.
    var lastStart = 0

    init(start: Int) {
        self.start = start
    }

    /// Whether a job should wait for more bytes before decoding up to `limit`: the input is
    /// open, and nothing has arrived, or the decoder has not started and the bytes have not
    /// doubled since its last attempt.
    func shouldWait(upTo limit: Int, started: Bool, isFinal: Bool) -> Bool {
        let count = max(0, limit - start)
        return !isFinal && (count == 0 || (!started && lastStart > 0 && count < max(64, 2 * lastStart)))
    }

    /// Calls `body` with the bytes from ``start`` to `limit` (at most the input's end). With
    /// `padTo` set, a shorter run is passed followed by zeros up to that many bytes.
    mutating func withBytes(_ input: InputBuffer, to limit: Int, padTo: Int = 0,
                            _ body: (UnsafeBufferPointer<UInt8>) throws(DecodingError) -> Void) throws(DecodingError) {
        let limit = min(limit, input.count)
        let count = max(0, limit - start)
        if staged.isEmpty && count >= max(padTo, 1) && input.withContiguousRun(from: start, to: limit, { $0.count == count }) {
            try input.withContiguousRun(from: start, to: limit) { (run) throws(DecodingError) in try body(run) }
            return
        }
        if staged.count < count { staged.append(contentsOf: input.copy((start + staged.count)..<limit)) }
        if staged.count < padTo {
            try (staged + [UInt8](repeating: 0, count: padTo - staged.count)).withUnsafeBufferPointer {
                (p) throws(DecodingError) in try body(p)
            }
            return
        }
        try staged.withUnsafeBufferPointer { (p) throws(DecodingError) in try body(p) }
    }
}
