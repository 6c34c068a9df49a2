/// Where an encoder writes the file, piece by piece, in order.
///
/// Encoders hand over each piece as soon as it is made (a chunk, a block of compressed data),
/// so a sink that writes to a file or a socket never holds the whole file.
public protocol ByteSink {
    /// Takes the next piece of the file; throws ``EncodingError/Kind/outputFailed`` to stop.
    mutating func write(_ bytes: UnsafeRawBufferPointer) throws(EncodingError)
}

extension ByteSink {
    /// Writes the bytes of an array.
    public mutating func write(_ bytes: [UInt8]) throws(EncodingError) {
        let result = bytes.withUnsafeBytes { raw in
            Result { () throws(EncodingError) in try write(raw) }
        }
        try result.get()
    }
}

/// A sink that gathers the file in memory.
public struct ByteArraySink: ByteSink, Sendable {
    /// The bytes written so far.
    public private(set) var bytes: [UInt8] = []

    /// An empty sink.
    public init() {}

    /// Appends `bytes` to ``bytes``; never throws.
    public mutating func write(_ bytes: UnsafeRawBufferPointer) throws(EncodingError) {
        self.bytes.append(contentsOf: bytes)
    }
}

/// Counts the bytes written through it; the rest goes to the wrapped sink.
public struct CountingSink<Base: ByteSink>: ByteSink {
    /// The sink the bytes go on to.
    public var base: Base
    /// Bytes written through this sink so far.
    public private(set) var count = 0

    /// A sink that counts what it passes on to `base`, starting from 0.
    public init(_ base: Base) { self.base = base }

    /// Passes `bytes` on to ``base`` and counts them once it has taken them.
    public mutating func write(_ bytes: UnsafeRawBufferPointer) throws(EncodingError) {
        try base.write(bytes)
        count += bytes.count
    }
}
