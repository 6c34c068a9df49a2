import CodecCore

/// The lossless decoder's bit reads (RFC 9649 3.1 `ReadBits`), compiled into this module.
/// ``LSBBitReader``'s own `refill`, `peek32` and `skip` are `@inlinable` in CodecCore, yet this
/// build calls them from the symbol loops (perf on the 8.6 MP lossless file: a third of the
/// decode in those three calls); these are inlined. The byte-at-a-time tail of a refill, within
/// eight bytes of the end, stays CodecCore's.
extension LSBBitReader {
    /// Loads bytes until at least 56 bits are held (zeros past the end of `buffer`).
    @inline(__always)
    mutating func fill(_ buffer: UnsafeBufferPointer<UInt8>) {
        if count >= 56 { return }
        if let base = buffer.baseAddress, buffer.count &- position >= 8 {
            let word = UInt64(littleEndian: UnsafeRawPointer(base + position).loadUnaligned(as: UInt64.self))
            bits |= word &<< UInt64(truncatingIfNeeded: count)
            let taken = (64 &- count) &>> 3
            position &+= taken
            count &+= taken &<< 3
            return
        }
        refillSlowly(buffer)
    }

    /// The next 32 bits (or fewer, zero-padded) without consuming them; the caller has filled.
    @inline(__always)
    func nextWord() -> UInt32 { UInt32(truncatingIfNeeded: bits) }

    /// The next `n` bits (0…32) without consuming them; the caller has filled.
    @inline(__always)
    func nextBits(_ n: Int) -> UInt32 {
        UInt32(truncatingIfNeeded: bits & ((1 &<< UInt64(truncatingIfNeeded: n)) &- 1))
    }

    /// Consumes `n` bits (0…count).
    @inline(__always)
    mutating func drop(_ n: Int) {
        bits &>>= UInt64(truncatingIfNeeded: n)
        count &-= n
    }
}
