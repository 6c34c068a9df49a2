/// The bytes of one image as they arrive: append-only, addressed by absolute position.
///
/// Decoders remember positions into this buffer and resume from them, so every byte is
/// parsed once however the input is split. Reads return `nil` when the bytes are not there
/// yet; whether that is a suspension or a truncation depends on ``isFinal``.
public struct InputBuffer: Sendable {
    public private(set) var bytes: [UInt8] = []
    /// No more bytes will come.
    public private(set) var isFinal = false

    public init() {}

    public init(_ bytes: some Collection<UInt8>, isFinal: Bool) {
        self.bytes = Array(bytes)
        self.isFinal = isFinal
    }

    public var count: Int { bytes.count }

    /// Adds bytes; the first append of an array shares its storage instead of copying it.
    public mutating func append(_ more: some Collection<UInt8>) {
        if bytes.isEmpty {
            bytes = Array(more)
        } else {
            bytes.append(contentsOf: more)
        }
    }

    public mutating func markFinal() { isFinal = true }

    /// The byte at `position`, or nil if it has not arrived.
    @inlinable
    public func u8(at position: Int) -> UInt8? {
        position >= 0 && position < bytes.count ? bytes[position] : nil
    }

    /// A big-endian 32-bit value at `position`, or nil if short.
    public func u32BE(at position: Int) -> UInt32? {
        guard position >= 0, position + 4 <= bytes.count else { return nil }
        return UInt32(bytes[position]) << 24 | UInt32(bytes[position + 1]) << 16
            | UInt32(bytes[position + 2]) << 8 | UInt32(bytes[position + 3])
    }

    /// A little-endian 16-bit value at `position`, or nil if short.
    public func u16LE(at position: Int) -> UInt16? {
        guard position >= 0, position + 2 <= bytes.count else { return nil }
        return UInt16(bytes[position]) | UInt16(bytes[position + 1]) << 8
    }

    /// Whether `count` bytes from `position` have arrived.
    public func has(_ count: Int, at position: Int) -> Bool {
        position >= 0 && count >= 0 && count <= bytes.count - position
    }

    /// A copy of `range`, which the caller has checked with ``has(_:at:)``.
    public func copy(_ range: Range<Int>) -> [UInt8] { Array(bytes[range]) }

    /// Calls `body` with the bytes in `range` (clamped to what has arrived).
    public func withBytes<R, E: Error>(_ range: Range<Int>,
                                       _ body: (UnsafeBufferPointer<UInt8>) throws(E) -> R) throws(E) -> R {
        let lower = min(max(range.lowerBound, 0), bytes.count)
        let upper = min(max(range.upperBound, lower), bytes.count)
        return try bytes.withUnsafeBufferPointer { (all) throws(E) -> R in
            try body(UnsafeBufferPointer(rebasing: all[lower..<upper]))
        }
    }
}
