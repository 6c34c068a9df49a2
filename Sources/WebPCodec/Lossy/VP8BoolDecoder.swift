/// The boolean entropy decoder of VP8, RFC 6386 section 7.
///
/// The arithmetic is the RFC's (`split = 1 + (((range - 1) * probability) >> 8)`), held the
/// way a fast decoder holds it: `range` is kept minus one (127...254), and `value` is a 64-bit
/// register refilled 7 bytes at a time, its top 8 live bits compared at bit offset `bits`
/// instead of being shifted after every decision. Normalising `range` only lowers `bits`;
/// when `bits` falls below zero the register takes the next bytes.
///
/// End of data is handled as libwebp handles it: with fewer than 8 bytes left the reader
/// takes one byte at a time; the first time it needs a byte past the end it shifts in a zero
/// byte and sets ``isPastEnd``; after that it reads the register as it is (the caller reports
/// the stream as truncated once the current unit is done). The reader never traps.
///
/// Input may arrive in pieces, and the register must hold the same bits whichever way its
/// bytes came. A 7-byte load keeps only the register's low byte (`value << 56`), a 1-byte load
/// keeps it all; the two differ when a corrupt stream has left bits above the live window.
/// So 7-byte loads happen only at the reader's own 7-byte groups (`start + 7k`, where a
/// whole-data reader makes them), single bytes fill a group that was begun with fewer bytes
/// given, and a group that a whole-data reader would load at once but whose bytes are not all
/// here yet is begun byte by byte only when the register has nothing above its low byte;
/// otherwise the reader stops as at the end of the data (``isPastEnd``), so that the row
/// waits for more input. With final input the last partition's reader ends at the data's end,
/// so fewer than 8 bytes left are read one by one, as libwebp reads them.
///
/// The bytes are not stored: every call takes the buffer the reader was made on.
struct VP8BoolDecoder: Sendable {
    /// Undecoded bits; the live window is `value >> bits`, below `(range + 1) << bits`.
    var value: UInt64 = 0
    /// Bits of `value` below the live 8-bit window; negative means a refill is due.
    var bits: Int = -8
    /// The RFC's range minus one.
    var range: UInt32 = 254
    /// The next byte to load, and the end of this reader's bytes (`Int.max`: the end of the
    /// data, whatever it is, until the decoder learns it from final input).
    var position: Int
    var end: Int
    /// Where the next 7-byte group begins (`start + 7k`).
    var groupStart: Int
    /// Set when the reader needed bytes past `end` (zeros were shifted in), or bytes not given yet.
    var isPastEnd = false

    /// A reader over `bytes[start..<end]` (RFC 6386 7.3 `init_bool_decoder`), primed.
    init(_ bytes: UnsafeBufferPointer<UInt8>, start: Int, end: Int) {
        position = start
        groupStart = start
        self.end = end
        load(bytes)
    }

    /// Refills `value`: the next 7-byte group when at least 8 bytes remain, else one byte, else
    /// (once) a zero byte. The reader's end may lie past the bytes given so far (incremental
    /// input): what is not there yet counts as past the end.
    ///
    /// Out of line, once per 56 bits or so, and returning the new reader rather than mutating
    /// it: the decisions inlined in the hot loops keep `value`, `bits` and `range` in registers.
    @inline(never)
    func loaded(_ bytes: UnsafeBufferPointer<UInt8>) -> VP8BoolDecoder {
        var r = self
        if position == groupStart, min(end, bytes.count) &- position >= 8, let base = bytes.baseAddress {
            let word = UnsafeRawPointer(base + position).loadUnaligned(as: UInt64.self)
            r.value = (value &<< 56) | (UInt64(bigEndian: word) &>> 8)
            r.bits = bits &+ 56
            r.position = position &+ 7
            r.groupStart = r.position
        } else {
            r.loadByte(bytes)
        }
        return r
    }

    @inline(__always)
    mutating func load(_ bytes: UnsafeBufferPointer<UInt8>) { self = loaded(bytes) }

    /// libwebp's `VP8LoadFinalBytes`, and the byte-by-byte start or rest of a 7-byte group.
    mutating func loadByte(_ bytes: UnsafeBufferPointer<UInt8>) {
        if position < min(end, bytes.count) {
            if position == groupStart {
                // Fewer than 8 bytes given: the last group of the data, or a group to come
                // whole, whose 7-byte load would drop what lies above the low byte.
                if end &- position >= 8 && value > 0xFF {
                    stop()
                    return
                }
                groupStart &+= 7
            }
            value = (value &<< 8) | UInt64(bytes[position])
            bits &+= 8
            position &+= 1
        } else if !isPastEnd {
            stop()
        } else {
            bits = 0
        }
    }

    /// The end of the data as libwebp meets it: a zero byte, and ``isPastEnd``.
    mutating func stop() {
        value = value &<< 8
        bits &+= 8
        isPastEnd = true
    }

    /// One boolean whose probability of being 0 is `probability / 256` (RFC 6386 7.3 `read_bool`).
    @inline(__always)
    mutating func readBit(_ probability: UInt32, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        if bits < 0 { load(bytes) }
        let split = (range &* probability) &>> 8
        let window = UInt32(truncatingIfNeeded: value &>> UInt64(truncatingIfNeeded: bits))
        let bit = window > split
        var r: UInt32
        if bit {
            r = range &- split
            value &-= UInt64(split &+ 1) &<< UInt64(truncatingIfNeeded: bits)
        } else {
            r = split &+ 1
        }
        // Normalise: double the range until it is at least 128 (RFC 7.3). `r` is in 1...255,
        // so its leading zeros are 24...31 and `^ 24` subtracts 24; on x86-64 (`bsr`, whose
        // index `leadingZeroBitCount` turns with `^ 31`) the two xors fold into one, one
        // instruction less on the decision's critical path than `&- 24` (6 % on a q90 photo).
        let shift = r.leadingZeroBitCount ^ 24
        r = r &<< UInt32(truncatingIfNeeded: shift)
        bits &-= shift
        range = r &- 1
        return bit
    }

    /// `v` or `-v`, the sign read as a boolean of probability 1/2 (the coefficient sign of
    /// RFC 6386 13.2), without a branch (the sign is a coin toss), as libwebp's `VP8GetSigned`:
    /// with probability 128 the new range, doubled, is `range - 1` or `range` made odd, so
    /// `bits` drops by one and `range` is not shifted.
    @inline(__always)
    mutating func readSigned(_ v: Int32, _ bytes: UnsafeBufferPointer<UInt8>) -> Int32 {
        if bits < 0 { load(bytes) }
        let split = range &>> 1
        let shiftBits = UInt64(truncatingIfNeeded: bits)
        let window = UInt32(truncatingIfNeeded: value &>> shiftBits)
        // All ones when the bit is 1 (window > split).
        let mask = UInt32(bitPattern: Int32(bitPattern: split &- window) &>> 31)
        bits &-= 1
        range = (range &+ mask) | 1
        value &-= UInt64((split &+ 1) & mask) &<< shiftBits
        let m = Int32(bitPattern: mask)
        return (v ^ m) &- m
    }

    /// An `n`-bit unsigned literal, most significant bit first, each bit of probability 1/2
    /// (RFC 6386 7.3 / 9.2 `L(n)`).
    mutating func readLiteral(_ n: Int, _ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var v = 0
        for _ in 0..<n { v = (v &<< 1) | (readBit(128, bytes) ? 1 : 0) }
        return v
    }

    /// An `n`-bit magnitude followed by a sign bit (RFC 6386 9.3, 9.6: the deltas).
    mutating func readSignedLiteral(_ n: Int, _ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        let v = readLiteral(n, bytes)
        return readBit(128, bytes) ? -v : v
    }

    /// One flag bit (`L(1)`).
    mutating func readFlag(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool { readBit(128, bytes) }
}
