import CZlib
import CodecCore

/// Writes chunks (PNG 3rd edition §5.3): a 4-byte big-endian length, the type, the data, and
/// the CRC-32 of type and data (zlib's `crc32`, as the decoder checks it).
enum PNGChunkWriter {
    /// The largest chunk data length (§5.3: 2^31 − 1).
    static let maxLength = Int(Int32.max)

    /// Writes a chunk whose data is `prefix` (at most 8 bytes, such as an fdAT sequence
    /// number) followed by `data`.
    static func write(_ type: PNGChunkType, prefix: UInt32? = nil, _ data: UnsafeRawBufferPointer,
                      to sink: inout some ByteSink) throws(EncodingError) {
        let prefixLength = prefix == nil ? 0 : 4
        guard data.count <= maxLength - prefixLength else { throw .limitExceeded("a chunk is longer than 2^31-1 bytes") }
        var head = [UInt8](repeating: 0, count: 8 + prefixLength)
        storeBigEndian(UInt32(data.count + prefixLength), into: &head, at: 0)
        storeBigEndian(type.rawValue, into: &head, at: 4)
        if let prefix { storeBigEndian(prefix, into: &head, at: 8) }
        var crc = head.withUnsafeBufferPointer { crc32(0, $0.baseAddress! + 4, UInt32($0.count - 4)) }
        if let bytes = data.bindMemory(to: UInt8.self).baseAddress, !data.isEmpty {
            crc = crc32(crc, bytes, UInt32(data.count))
        }
        var tail = [UInt8](repeating: 0, count: 4)
        storeBigEndian(UInt32(truncatingIfNeeded: crc), into: &tail, at: 0)
        try sink.write(head)
        if !data.isEmpty { try sink.write(data) }
        try sink.write(tail)
    }

    static func write(_ type: PNGChunkType, _ data: [UInt8], to sink: inout some ByteSink) throws(EncodingError) {
        let result = data.withUnsafeBytes { raw in
            Result { () throws(EncodingError) in try write(type, raw, to: &sink) }
        }
        try result.get()
    }

    @inline(__always)
    static func storeBigEndian(_ v: UInt32, into bytes: inout [UInt8], at offset: Int) {
        bytes[offset] = UInt8(truncatingIfNeeded: v >> 24)
        bytes[offset + 1] = UInt8(truncatingIfNeeded: v >> 16)
        bytes[offset + 2] = UInt8(truncatingIfNeeded: v >> 8)
        bytes[offset + 3] = UInt8(truncatingIfNeeded: v)
    }

    /// `v` as 4 big-endian bytes appended to `bytes`.
    static func appendBigEndian(_ v: UInt32, to bytes: inout [UInt8]) {
        bytes.append(contentsOf: [UInt8(truncatingIfNeeded: v >> 24), UInt8(truncatingIfNeeded: v >> 16),
                                  UInt8(truncatingIfNeeded: v >> 8), UInt8(truncatingIfNeeded: v)])
    }
}
