import CodecCore

/// A minimal reader of the RIFF container of WebP (RFC 9649 section 2): `RIFF`, the file size,
/// `WEBP`, then chunks of a FourCC, a little-endian 32-bit size and the payload padded to an
/// even length. Enough to find the bitstream chunk of a still image in a whole file (the VP8L
/// tests and differential checks use it); VP8X features (ALPH, ANIM, metadata) are not
/// interpreted. ``WebPDecoder`` reads the container incrementally with `WebPContainerParser`.
public enum WebPContainer {
    /// A chunk's FourCC and where its payload lies in the file.
    public struct Chunk: Sendable, Equatable {
        public let fourCC: String
        public let payload: Range<Int>
    }

    /// The chunks of the file, in order. Throws `invalidData` when the file is not RIFF/WEBP or
    /// a chunk passes the end the RIFF size gives, `truncated` when the RIFF size passes the end
    /// of the bytes given (as libwebp's ParseRIFF reports NOT_ENOUGH_DATA for a whole file:
    /// even a missing pad byte after an odd-sized last chunk counts). Bytes past the RIFF size
    /// are ignored.
    public static func chunks(_ bytes: UnsafeBufferPointer<UInt8>) throws(DecodingError) -> [Chunk] {
        guard bytes.count >= 12 else { throw .truncated("WebP file is shorter than the RIFF header") }
        guard fourCC(bytes, at: 0) == "RIFF", fourCC(bytes, at: 8) == "WEBP" else {
            throw .invalidData("not a RIFF WEBP file")
        }
        let riffSize = Int(le32(bytes, at: 4))
        // "WEBP" and at least one chunk header.
        guard riffSize >= 12 else { throw .invalidData("RIFF size is smaller than one chunk") }
        guard riffSize <= bytes.count - 8 else { throw .truncated("WebP file is shorter than its RIFF size") }
        let end = 8 + riffSize
        var chunks: [Chunk] = []
        var offset = 12
        while end - offset >= 8 {
            let size = Int(le32(bytes, at: offset + 4))
            let start = offset + 8
            guard size <= end - start else { throw .invalidData("WebP chunk passes the end of the RIFF data") }
            chunks.append(Chunk(fourCC: fourCC(bytes, at: offset), payload: start..<(start + size)))
            offset = start + size + (size & 1)
        }
        return chunks
    }

    /// The payload of the first VP8L chunk (a lossless still). Throws `unsupported` for a
    /// lossy (VP8) or animated file, `invalidData` when there is no bitstream chunk.
    public static func losslessBitstream(_ bytes: UnsafeBufferPointer<UInt8>) throws(DecodingError) -> Range<Int> {
        for chunk in try chunks(bytes) {
            switch chunk.fourCC {
            case "VP8L": return chunk.payload
            case "VP8 ": throw .unsupported("WebP lossy (VP8) is not decoded yet")
            case "ANIM", "ANMF": throw .unsupported("WebP animation is not decoded yet")
            default: continue
            }
        }
        throw .invalidData("WebP file has no VP8L chunk")
    }

    /// Decodes a lossless still WebP file to RGBA8, as `WebPDecodeRGBA` does. As in libwebp,
    /// the bit reader runs from the VP8L payload to the end of the bytes given, not to the end
    /// of the chunk: a corrupt bitstream that reads a few bits past its chunk (into the pad
    /// byte or a following chunk) decodes as libwebp decodes it, instead of being refused.
    public static func decodeLossless(_ bytes: UnsafeBufferPointer<UInt8>, limits: Limits = Limits())
        throws(DecodingError) -> (width: Int, height: Int, pixels: [UInt8]) {
        let payload = try losslessBitstream(bytes)
        return try VP8LDecoder.decode(UnsafeBufferPointer(rebasing: bytes[payload.lowerBound...]), limits: limits)
    }

    static func fourCC(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int) -> String {
        String(decoding: bytes[offset..<(offset + 4)], as: Unicode.ASCII.self)
    }

    static func le32(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int) -> UInt32 {
        UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset + 2]) << 16 | UInt32(bytes[offset + 3]) << 24
    }
}
