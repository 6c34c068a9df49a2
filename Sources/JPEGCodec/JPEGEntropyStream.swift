import CodecCore

/// The entropy-coded data of one scan, unstuffed into a staging buffer as it arrives, read
/// bit by bit, one restart interval (T.81 B.1.1.5, E.1.4) at a time.
///
/// Decoding an MCU never waits in the middle: the scan decoder asks ``canDecode(margin:)``
/// first, which holds while at least `margin` staged bytes (more than any MCU can use) remain,
/// or the interval's data has ended (a marker, or the final end of the input). Past that end
/// the reader supplies zero bits, and an MCU that used them makes ``ranOut`` true, as libjpeg's
/// "insufficient data" does: the rest of the interval is left at zero. Arithmetic decoding
/// reads whole bytes through ``withBytes(_:)`` instead, zeros past the end being ordinary there.
struct JPEGEntropyStream {
    /// Staged data bytes; the reader's position indexes it.
    private var staged: [UInt8] = []
    private var stagedEnd = 0
    var reader = MSBBitReader()
    private var unstuffer = ByteUnstuffer()
    /// The next input byte to unstuff, and where the scan's data ends (when known).
    private var inputPosition: Int
    /// The marker that ended the staged data (its code byte's position and code), if any.
    private(set) var marker: (position: Int, code: UInt8)?
    /// An MCU of this interval used bits past its data: the rest of the interval is empty.
    private(set) var ranOut = false
    /// The RSTn expected next (0–7).
    private var nextRestart = 0

    static let capacity = 1 << 16
    /// The staging buffer's size: at least twice the largest margin the scan decoder asks for,
    /// so that staging always makes that margin available (it keeps at most half unread).
    private let stagingCapacity: Int

    init(start: Int, capacity: Int = JPEGEntropyStream.capacity) {
        inputPosition = start
        stagingCapacity = capacity
    }

    /// Forgets everything staged and reads on from `position`, the first byte of restart
    /// interval `k`'s data: the marker expected after it is RST(k mod 8).
    mutating func seek(toInterval k: Int, at position: Int) {
        inputPosition = position
        marker = nil
        unstuffer = ByteUnstuffer()
        reader = MSBBitReader()
        stagedEnd = 0
        ranOut = false
        nextRestart = k & 7
    }

    /// Whether the scan's data has been staged to its end marker (or the end of final input).
    func isDataEnded(inputFinal: Bool, inputCount: Int) -> Bool {
        marker != nil || (inputFinal && inputPosition >= inputCount)
    }

    /// Unstuffs what has arrived into the staging buffer, after the bytes not read yet.
    mutating func stage(_ input: InputBuffer) {
        if staged.isEmpty { staged = [UInt8](repeating: 0, count: stagingCapacity) }
        let keep = reader.position
        if keep > stagingCapacity / 2 {
            let count = stagedEnd - keep
            staged.withUnsafeMutableBufferPointer { p in p.baseAddress!.update(from: p.baseAddress! + keep, count: count) }
            stagedEnd = count
            reader.rebase(by: -keep)
        }
        while marker == nil && stagedEnd < stagingCapacity && inputPosition < input.count {
            let (consumed, produced, code) = input.withContiguousRun(from: inputPosition, to: input.count) { run in
                staged.withUnsafeMutableBufferPointer { out in
                    unstuffer.unstuff(run, into: UnsafeMutableBufferPointer(rebasing: out[stagedEnd...]))
                }
            }
            inputPosition += consumed
            stagedEnd += produced
            if let code { marker = (inputPosition, code) }
        }
    }

    /// Whether an MCU can be decoded now without waiting for bytes.
    func canDecode(margin: Int, inputFinal: Bool, inputCount: Int) -> Bool {
        marker != nil || stagedEnd - reader.position >= margin || (inputFinal && inputPosition >= inputCount)
    }

    /// Calls `body` with the reader and the staged bytes; notes whether it read past them.
    mutating func withReader<R>(_ body: (inout MSBBitReader, UnsafeBufferPointer<UInt8>) -> R) -> R {
        let end = stagedEnd
        let result = staged.withUnsafeBufferPointer { all in
            body(&reader, UnsafeBufferPointer(rebasing: all[0..<end]))
        }
        if reader.count < reader.zeroBitsRead { ranOut = true }
        return result
    }

    /// Calls `body` with the read position and the staged bytes, for a decoder that reads whole
    /// bytes (arithmetic coding, which handles the end of the data itself: past it, zeros).
    mutating func withBytes<R>(_ body: (inout Int, UnsafeBufferPointer<UInt8>) -> R) -> R {
        let end = stagedEnd
        return staged.withUnsafeBufferPointer { all in
            body(&reader.position, UnsafeBufferPointer(rebasing: all[0..<end]))
        }
    }

    /// E.1.4 / libjpeg's restart processing at the end of an interval: drops the bits and bytes
    /// left, finds the marker, and takes it if it is the RSTn expected; otherwise resynchronises
    /// as libjpeg's `jpeg_resync_to_restart` does. Returns false when the marker has not
    /// arrived yet (call again after more input; nothing is lost).
    mutating func restart(_ input: InputBuffer) -> Bool {
        while true {
            while marker == nil {
                // Discard the rest of the interval's data up to the marker (which may lie
                // further than the staging buffer holds).
                reader.reset(to: stagedEnd)
                stage(input)
                if inputPosition >= input.count { break }
            }
            guard let (position, code) = marker else {
                // At the end of final input libjpeg's source manager supplies an EOI marker,
                // which is left unread as below: every later interval is empty. The bytes
                // staged while looking for a marker are what libjpeg skipped doing the same.
                guard input.isFinal else { return false }
                nextRestart = (nextRestart + 1) & 7
                reader.reset(to: stagedEnd)
                return true
            }
            let desired = nextRestart
            let action: Int
            if code < 0xC0 {
                action = 2
            } else if !JPEGMarker.isRestart(code) {
                action = 3
            } else {
                let n = Int(code - JPEGMarker.rst0)
                if n == (desired + 1) & 7 || n == (desired + 2) & 7 { action = 3 }
                else if n == (desired + 7) & 7 || n == (desired + 6) & 7 { action = 2 }
                else { action = 1 }
            }
            switch action {
            case 1:
                // The marker is taken: the next interval starts after it.
                skipMarker(at: position)
                ranOut = false
            case 2:
                skipMarker(at: position)
                continue
            default:
                // Left unread: the next interval has no data; its first MCU reads zero bits,
                // which leaves the rest of it empty (libjpeg keeps its out-of-data flag as it was).
                break
            }
            nextRestart = (nextRestart + 1) & 7
            reader.reset(to: stagedEnd)
            return true
        }
    }

    /// Moves past the marker whose code byte is at `position` and starts a new interval's data.
    private mutating func skipMarker(at position: Int) {
        inputPosition = position + 1
        marker = nil
        unstuffer = ByteUnstuffer()
        reader.reset(to: 0)
        stagedEnd = 0
    }
}
