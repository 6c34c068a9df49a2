/// Finding a byte value in a buffer eight bytes at a time, for the scans over JPEG entropy-coded
/// data that look for the 0xFF of a stuffed byte or a marker (T.81 B.1.1.5, F.1.2.3).
package enum ByteSearch {
    /// The index of the first 0xFF in `base[0..<count]`, or `count` when there is none.
    ///
    /// Eight bytes are tested at once: in `x = ~word` a byte 0xFF becomes zero, and
    /// `(x − 0x0101…01) & ~x & 0x8080…80` sets the high bit of every zero byte of `x` and
    /// possibly of bytes above one (a borrow), never below the first: so the lowest set bit,
    /// on a little-endian load, marks the first 0xFF. ``firstFFScalar(_:count:)`` is the
    /// byte-at-a-time twin a test holds equal.
    @inlinable
    package static func firstFF(_ base: UnsafePointer<UInt8>, count: Int) -> Int {
        var i = 0
        #if _endian(little)
        let raw = UnsafeRawPointer(base)
        while i &+ 8 <= count {
            let x = ~raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)
            let found = (x &- 0x0101_0101_0101_0101) & ~x & 0x8080_8080_8080_8080
            if found != 0 { return i &+ found.trailingZeroBitCount &>> 3 }
            i &+= 8
        }
        #endif
        while i < count && base[i] != 0xFF { i &+= 1 }
        return i
    }

    /// ``firstFF(_:count:)`` one byte at a time.
    @inlinable
    package static func firstFFScalar(_ base: UnsafePointer<UInt8>, count: Int) -> Int {
        var i = 0
        while i < count && base[i] != 0xFF { i &+= 1 }
        return i
    }
}
