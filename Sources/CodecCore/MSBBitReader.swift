/// Reads bits most-significant bit first from a contiguous byte buffer, as JPEG packs its
/// entropy-coded data (ITU T.81 F.1.2.3 and F.2.2.5: codes and appended bits fill each byte
/// from its high bit).
///
/// The reader holds up to 64 bits, the next bit in bit 63. It never owns the bytes: each call
/// that may load bytes is handed the buffer (the same one, or a longer one after more bytes
/// arrived), so the hot loop keeps its pointer in a register. Past the buffer's end it reads
/// zero bits and counts them in ``zeroBitsRead``, as libjpeg fills with zeros after a marker;
/// whether that is a truncation is the caller's decision.
package struct MSBBitReader: Sendable {
    // The fields are public (with setters) so that the inlinable readers below compile into the
    // decoders' hot loops in other modules; callers change them only through the methods.

    /// The bits held, the next one in bit 63; the bits below `count` are zero.
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

    /// Loads bytes until at least 57 bits are held (zeros past the end of `buffer`).
    @inlinable @inline(__always)
    package mutating func refill(_ buffer: UnsafeBufferPointer<UInt8>) {
        if count >= 57 { return }
        if let base = buffer.baseAddress, buffer.count - position >= 8 {
            // Eight bytes at once; keep the whole bytes that fit below the bits held.
            let word = UInt64(bigEndian: UnsafeRawPointer(base + position).loadUnaligned(as: UInt64.self))
            bits |= word &>> UInt64(truncatingIfNeeded: count)
            let taken = (63 &- count) &>> 3
            position &+= taken
            count &+= taken &<< 3
            return
        }
        while count <= 56 {
            if position < buffer.count {
                bits |= UInt64(buffer[position]) &<< UInt64(truncatingIfNeeded: 56 &- count)
                position &+= 1
            } else {
                zeroBitsRead &+= 8
            }
            count &+= 8
        }
    }

    /// The next `n` bits (1…32) without consuming them; the caller has refilled.
    @inlinable @inline(__always)
    package func peek(_ n: Int) -> UInt32 {
        UInt32(truncatingIfNeeded: bits &>> UInt64(truncatingIfNeeded: 64 &- n))
    }

    /// Consumes `n` bits (0…count).
    @inlinable @inline(__always)
    package mutating func skip(_ n: Int) {
        bits &<<= UInt64(truncatingIfNeeded: n)
        count &-= n
    }

    /// Reads `n` bits (0…32) as an unsigned value, refilling from `buffer` if needed.
    @inlinable @inline(__always)
    package mutating func read(_ n: Int, _ buffer: UnsafeBufferPointer<UInt8>) -> UInt32 {
        if n == 0 { return 0 }
        if count < n { refill(buffer) }
        let value = peek(n)
        skip(n)
        return value
    }

    /// Moves the read position by `shift` bytes, for a caller that moved its buffer's bytes.
    package mutating func rebase(by shift: Int) {
        position += shift
    }

    /// Starts reading afresh at `position`, forgetting the zero bits supplied so far.
    package mutating func reset(to position: Int) {
        self.position = position
        bits = 0
        count = 0
        zeroBitsRead = 0
    }
}

/// Removes the byte stuffing of JPEG entropy-coded data (T.81 B.1.1.5: an 0x00 follows every
/// 0xFF data byte) and stops at the first marker (0xFF followed by anything but 0x00), as
/// libjpeg reads it: fill bytes 0xFF before a marker or before a stuffed 0x00 are dropped, so
/// `FF FF 00` is one data byte 0xFF and `FF FF D0` is the marker D0.
package struct ByteUnstuffer: Sendable {
    /// A 0xFF ended the last input given; the byte after it decides what it was.
    package private(set) var pendingFF = false

    package init() {}

    /// Copies data bytes from `input` to `output` until one of them is used up or a marker is
    /// met. Returns the input bytes consumed (a marker's 0xFF prefix and code are not), the
    /// bytes produced, and the marker code met, if any.
    package mutating func unstuff(_ input: UnsafeBufferPointer<UInt8>, into output: UnsafeMutableBufferPointer<UInt8>)
        -> (consumed: Int, produced: Int, marker: UInt8?) {
        guard let source = input.baseAddress, let destination = output.baseAddress else { return (0, 0, nil) }
        var i = 0, o = 0
        let n = input.count, capacity = output.count
        while i < n && o < capacity {
            if pendingFF {
                let byte = source[i]
                if byte == 0xFF { i &+= 1; continue }
                pendingFF = false
                if byte != 0 { return (i, o, byte) }
                destination[o] = 0xFF
                o &+= 1
                i &+= 1
                continue
            }
            // The data bytes up to the next 0xFF, copied at once.
            let limit = min(n &- i, capacity &- o)
            let run = ByteSearch.firstFF(source + i, count: limit)
            (destination + o).update(from: source + i, count: run)
            i &+= run
            o &+= run
            if run == limit { break }
            pendingFF = true
            i &+= 1
        }
        return (i, o, nil)
    }
}
