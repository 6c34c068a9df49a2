/// A cursor over a byte array that never traps: every read returns nil on short input.
///
/// Used for parsing metadata payloads (EXIF, text) that are already whole in memory.
package struct ByteReader {
    package let bytes: [UInt8]
    package var position: Int
    /// Set when a read ran past the end.
    package private(set) var overran = false

    package init(_ bytes: [UInt8], position: Int = 0) {
        self.bytes = bytes
        self.position = position
    }

    package mutating func readU8() -> UInt8? {
        guard position < bytes.count, position >= 0 else { overran = true; return nil }
        defer { position += 1 }
        return bytes[position]
    }

    package mutating func readU16(bigEndian: Bool) -> UInt16? {
        guard let a = readU8(), let b = readU8() else { return nil }
        return bigEndian ? UInt16(a) << 8 | UInt16(b) : UInt16(b) << 8 | UInt16(a)
    }

    package mutating func readU32(bigEndian: Bool) -> UInt32? {
        guard let a = readU16(bigEndian: bigEndian), let b = readU16(bigEndian: bigEndian) else { return nil }
        return bigEndian ? UInt32(a) << 16 | UInt32(b) : UInt32(b) << 16 | UInt32(a)
    }

    /// Bytes up to (not including) the next NUL, which is consumed; nil if there is no NUL.
    package mutating func readNulTerminated() -> ArraySlice<UInt8>? {
        guard position >= 0, position <= bytes.count,
              let end = bytes[position...].firstIndex(of: 0) else { overran = true; return nil }
        defer { position = end + 1 }
        return bytes[position..<end]
    }

    /// The rest of the bytes.
    package mutating func readRest() -> ArraySlice<UInt8> {
        let start = min(max(position, 0), bytes.count)
        position = bytes.count
        return bytes[start...]
    }
}
