import CodecCore

/// The Huffman scan decoders' bit reads (T.81 F.2.2.4 RECEIVE, F.2.2.3's NEXTBIT), compiled into
/// this module. ``MSBBitReader``'s own `read`, `peek` and `skip` are `@inlinable` in CodecCore,
/// yet this build calls them (objdump of the release tool: 54 calls from JPEGCodec's scan
/// loops), a call per bit of a progressive refinement scan; these are inlined. The refill, once
/// per 57 bits or more, stays CodecCore's.
extension MSBBitReader {
    /// The next `n` bits (1…32) as an unsigned value, refilling from `buffer` first when fewer
    /// are held (zeros past its end, as ``MSBBitReader/refill(_:)`` supplies them).
    @inline(__always)
    mutating func takeBits(_ n: Int, _ buffer: UnsafeBufferPointer<UInt8>) -> Int32 {
        if count < n { refill(buffer) }
        let value = Int32(truncatingIfNeeded: bits &>> UInt64(truncatingIfNeeded: 64 &- n))
        dropBits(n)
        return value
    }

    /// The next `n` bits (1…32) without consuming them; the caller has refilled.
    @inline(__always)
    func peekBits(_ n: Int) -> Int {
        Int(truncatingIfNeeded: bits &>> UInt64(truncatingIfNeeded: 64 &- n))
    }

    /// Consumes `n` bits (0…count).
    @inline(__always)
    mutating func dropBits(_ n: Int) {
        bits &<<= UInt64(truncatingIfNeeded: n)
        count &-= n
    }
}
