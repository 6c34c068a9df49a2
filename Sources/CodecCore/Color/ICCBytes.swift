/// Bounded big-endian reads over a profile's bytes (ICC.1:2022 clause 4: every number is
/// big-endian). Each read returns nil past the end instead of trapping, so a truncated or
/// lying profile becomes a warning, never a crash.
struct ICCBytes {
    let bytes: [UInt8]

    var count: Int { bytes.count }

    func u8(_ offset: Int) -> UInt8? {
        offset >= 0 && offset < bytes.count ? bytes[offset] : nil
    }

    func u16(_ offset: Int) -> UInt16? {
        guard offset >= 0, offset <= bytes.count - 2 else { return nil }
        return UInt16(bytes[offset]) << 8 | UInt16(bytes[offset + 1])
    }

    func u32(_ offset: Int) -> UInt32? {
        guard offset >= 0, offset <= bytes.count - 4 else { return nil }
        return UInt32(bytes[offset]) << 24 | UInt32(bytes[offset + 1]) << 16
            | UInt32(bytes[offset + 2]) << 8 | UInt32(bytes[offset + 3])
    }

    /// `s15Fixed16Number` (clause 4.6).
    func s15Fixed16(_ offset: Int) -> Double? {
        guard let v = u32(offset) else { return nil }
        return Double(Int32(bitPattern: v)) / 65536
    }

    /// `u8Fixed8Number` (clause 4.9).
    func u8Fixed8(_ offset: Int) -> Double? {
        guard let v = u16(offset) else { return nil }
        return Double(v) / 256
    }

    /// A sub-range, or nil when it leaves the bytes.
    func slice(_ offset: Int, _ length: Int) -> ArraySlice<UInt8>? {
        guard offset >= 0, length >= 0, offset <= bytes.count, length <= bytes.count - offset else { return nil }
        return bytes[offset..<offset + length]
    }
}

/// A four-character signature (clause 4.2), as the spec writes them: `'A2B0'`, `'rXYZ'`.
struct ICCSignature: Hashable, Sendable {
    let rawValue: UInt32

    init(_ rawValue: UInt32) { self.rawValue = rawValue }

    init(_ text: StaticString) {
        var v: UInt32 = 0
        text.withUTF8Buffer { for b in $0.prefix(4) { v = v << 8 | UInt32(b) } }
        rawValue = v
    }
}
