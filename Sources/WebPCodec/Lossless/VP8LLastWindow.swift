import CodecCore

/// libwebp's lossless bit reader (`VP8LBitReader`, src/utils/bit_reader_utils.c, read for
/// behaviour only) once it has loaded every byte: a 64-bit window holding the last 8 bytes of
/// the data and a bit position in it. Reading on from there is not an RFC 9649 behaviour but
/// libwebp's, which ALPH's 8-bit path accepts when the symbol completes the image.
///
/// The window is never shifted again. A read at position `p` sees the window shifted right by
/// `p mod 64` (`VP8LPrefetchBits`): up to bit 64, the bits left and then zeros; at 64 and past
/// it, the window again from its start. The stream has ended (`VP8LIsEndOfStream`) once the
/// position is past 64; a refill or a `VP8LReadBits` that sees this sets the position back to 0
/// (`VP8LSetEndOfStream`), and `VP8LReadBits` returns 0 after that.
struct VP8LLastWindow {
    /// The last 8 bytes of the data, little-endian (data shorter than 8 bytes is zero-padded).
    let window: UInt64
    /// `bit_pos`: bits of the window consumed, possibly more than 64.
    var bitPosition: Int
    /// `eos`: set once a refill or a bit read found the position past 64.
    var hasEnded = false

    /// The window at the end of `buffer` (at least 8 bytes), `consumedBits` into the data; nil
    /// when that position is before the window.
    init?(_ buffer: UnsafeBufferPointer<UInt8>, consumedBits: Int) {
        guard let base = buffer.baseAddress, buffer.count >= 8 else { return nil }
        let start = buffer.count - 8
        window = UInt64(littleEndian: UnsafeRawPointer(base + start).loadUnaligned(as: UInt64.self))
        bitPosition = consumedBits - 8 * start
        guard bitPosition >= 0 else { return nil }
    }

    /// `VP8LIsEndOfStream`, all bytes being loaded.
    var isEndOfStream: Bool { hasEnded || bitPosition > 64 }

    /// `VP8LPrefetchBits` at `position`.
    func prefetch(at position: Int) -> UInt32 {
        UInt32(truncatingIfNeeded: window >> UInt64(position & 63))
    }

    /// `ShiftBytes` with no byte left to load: the end-of-stream check.
    private mutating func checkEnd() {
        if isEndOfStream {
            hasEnded = true
            bitPosition = 0
        }
    }

    /// `VP8LFillBitWindow`: a refill (here only its end-of-stream check) from 32 bits on.
    mutating func fill() {
        if bitPosition >= 32 { checkEnd() }
    }

    /// `VP8LReadBits(n)` (n ≤ 24): 0 once the stream has ended.
    mutating func readBits(_ n: Int) -> Int {
        if hasEnded {
            bitPosition = 0
            return 0
        }
        let value = Int(prefetch(at: bitPosition) & (UInt32(1) << UInt32(n) &- 1))
        bitPosition += n
        checkEnd()
        return value
    }

    /// `ReadSymbol` with a two-level table (``VP8LPrefixCode/readSymbol(_:_:)``'s layout): the
    /// root is indexed at the position, a second level 8 bits further on, each read prefetched
    /// on its own.
    mutating func readSymbol(_ table: UnsafePointer<UInt32>) -> Int {
        var reader = LSBBitReader()
        reader.bits = UInt64(prefetch(at: bitPosition) & 0xFF) | UInt64(prefetch(at: bitPosition + 8)) << 8
        reader.count = 64
        let symbol = VP8LPrefixCode.readSymbol(table, &reader)
        bitPosition += 64 - reader.count
        return symbol
    }

    /// RFC 9649 3.7.1.2's prefix value (``VP8LBackwardReference/prefixValue(_:_:)``) with its
    /// extra bits read by ``readBits(_:)`` (`GetCopyDistance`).
    mutating func prefixValue(_ symbol: Int) -> Int {
        if symbol < 4 { return symbol + 1 }
        let extraBits = (symbol - 2) >> 1
        return ((2 + (symbol & 1)) << extraBits) + readBits(extraBits) + 1
    }
}
