import CodecCore

extension WebPContainer {
    /// The `VP8 ` chunk of a lossy still: its payload range. Throws `unsupported` for an
    /// animated file or a lossy image with an ALPH chunk (alpha is not decoded yet),
    /// `invalidData` when there is no VP8 chunk.
    public static func lossyBitstream(_ bytes: UnsafeBufferPointer<UInt8>) throws(DecodingError) -> Range<Int> {
        var found: Range<Int>?
        for chunk in try chunks(bytes) {
            switch chunk.fourCC {
            case "VP8 ": if found == nil { found = chunk.payload }
            case "VP8L": if found == nil { throw .invalidData("WebP file is lossless, not lossy") }
            case "ALPH": throw .unsupported("WebP lossy alpha (ALPH) is not decoded yet")
            case "ANIM", "ANMF": throw .unsupported("WebP animation is not decoded yet")
            default: continue
            }
        }
        guard let payload = found else { throw .invalidData("WebP file has no VP8 chunk") }
        return payload
    }

    /// Decodes a lossy still WebP file (RIFF/WEBP with a `VP8 ` chunk, RFC 9649 2.5) to RGBA8,
    /// as `WebPDecodeRGBA` does. As in libwebp, the VP8 partitions may run from the chunk's
    /// payload to the end of the bytes given (the last partition takes the rest of the data).
    public static func decodeLossy(_ bytes: UnsafeBufferPointer<UInt8>, limits: Limits = Limits())
        throws(DecodingError) -> (width: Int, height: Int, pixels: [UInt8]) {
        let payload = try lossyBitstream(bytes)
        return try VP8Decoder.decode(UnsafeBufferPointer(rebasing: bytes[payload.lowerBound...]),
                                     chunkSize: payload.count, limits: limits)
    }
}
