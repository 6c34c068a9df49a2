/// Reads bits least-significant bit first from a contiguous byte buffer, as WebP lossless packs
/// its bitstream (RFC 9649 section 3.1: `ReadBits(n)` takes the next `n` bits of the stream,
/// filling each byte from its low bit, and the first bit read is the value's least significant).
///
/// The reader holds up to 64 bits, the next bit in bit 0. It never owns the bytes: each call
/// that may load bytes is handed the buffer (the same one, or a longer one after more bytes
/// arrived), so the hot loop keeps its pointer in a register. Past the buffer's end it reads
/// zero bits and counts them in ``zeroBitsRead``; ``isOverrun`` says whether any of them was
/// consumed, and whether that is a truncation is the caller's decision.
package struct LSBBitReader: Sendable, Equatable {
    // The fields are public (with setters) so that the inlinable readers below compile into the
    // decoders' hot loops in other modules; callers change them only through the methods.

    /// The bits held, the next one in bit 0. The bits at and above `count` are zero or the next
    /// bytes' own bits (an eight-byte load keeps only whole bytes), so a later load may OR over them.
    package var bits: UInt64 = 0
    /// How many of `bits` are valid.
    package var count = 0
    /// The next byte of the buffer to load.
    package var position: Int
    /// Bits supplied past the buffer's end (each a zero).
    package var zeroBitsRead = 0

    @inlinable
    package init(position: Int = 0) {
        self.position = position
    }

    /// Whether bits past the buffer's end have been consumed (not merely loaded ahead of need).
    @inlinable
    package var isOverrun: Bool { zeroBitsRead > count }

    /// Bytes of the buffer consumed so far: the whole bytes loaded minus the whole bytes still
    /// held (a partly consumed byte counts as consumed).
    @inlinable
    package var bytesConsumed: Int {
        let held = count - zeroBitsRead
        return position - (held > 0 ? held >> 3 : 0)
    }

    /// Loads bytes until at least 56 bits are held (zeros past the end of `buffer`).
    @inlinable @inline(__always)
    package mutating func refill(_ buffer: UnsafeBufferPointer<UInt8>) {
        if count >= 56 { return }
        if let base = buffer.baseAddress, buffer.count &- position >= 8 {
            // Eight bytes at once; keep the whole bytes that fit above the bits held.
            let word = UInt64(littleEndian: UnsafeRawPointer(base + position).loadUnaligned(as: UInt64.self))
            bits |= word &<< UInt64(truncatingIfNeeded: count)
            let taken = (64 &- count) &>> 3
            position &+= taken
            count &+= taken &<< 3
            return
        }
        refillSlowly(buffer)
    }

    /// The byte-at-a-time tail of ``refill(_:)``, within 8 bytes of the end.
    @inlinable
    package mutating func refillSlowly(_ buffer: UnsafeBufferPointer<UInt8>) {
        while count <= 56 {
            if position < buffer.count {
                bits |= UInt64(buffer[position]) &<< UInt64(truncatingIfNeeded: count)
                position &+= 1
            } else {
                zeroBitsRead &+= 8
            }
            count &+= 8
        }
    }

    /// The next `n` bits (0…32) without consuming them; the caller has refilled.
    @inlinable @inline(__always)
    package func peek(_ n: Int) -> UInt32 {
        UInt32(truncatingIfNeeded: bits & ((1 &<< UInt64(truncatingIfNeeded: n)) &- 1))
    }

    /// The next 32 bits (or fewer, zero-padded) without consuming them; the caller has refilled.
    @inlinable @inline(__always)
    package func peek32() -> UInt32 {
        UInt32(truncatingIfNeeded: bits)
    }

    /// Consumes `n` bits (0…count).
    @inlinable @inline(__always)
    package mutating func skip(_ n: Int) {
        bits &>>= UInt64(truncatingIfNeeded: n)
        count &-= n
    }

    /// Reads `n` bits (0…32) as an unsigned value, the first bit read in bit 0, refilling from
    /// `buffer` if needed.
    @inlinable @inline(__always)
    package mutating func read(_ n: Int, _ buffer: UnsafeBufferPointer<UInt8>) -> UInt32 {
        if count < n { refill(buffer) }
        let value = peek(n)
        skip(n)
        return value
    }
}
