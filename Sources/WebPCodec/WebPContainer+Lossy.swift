import CodecCore

extension WebPContainer {
    /// Where a lossy still's VP8 bitstream is, found as libwebp's `ParseHeadersInternal` finds
    /// it (RFC 9649 2.5 and 2.7): after the RIFF header, either the `VP8 ` chunk right away
    /// (simple format), or a `VP8X` chunk, then any chunks up to the first `VP8 `/`VP8L` chunk,
    /// each within the RIFF size (extended format). Nothing after the bitstream chunk is read.
    public struct LossyBitstream: Sendable, Equatable {
        /// The `VP8 ` chunk's payload.
        public let payload: Range<Int>
        /// The VP8X canvas size, which must equal the frame's (nil in the simple format).
        public let canvas: (width: Int, height: Int)?

        public static func == (a: LossyBitstream, b: LossyBitstream) -> Bool {
            a.payload == b.payload && a.canvas?.width == b.canvas?.width && a.canvas?.height == b.canvas?.height
        }
    }

    /// Finds the `VP8 ` chunk of a lossy still. Throws `unsupported` for an animated file or a
    /// lossy image with an ALPH chunk (alpha is not decoded yet), `invalidData` for a lossless
    /// file, a missing or misplaced VP8 chunk or inconsistent sizes, `truncated` when the data
    /// ends before the chunk's payload does.
    public static func lossyChunk(_ bytes: UnsafeBufferPointer<UInt8>) throws(DecodingError) -> LossyBitstream {
        guard bytes.count >= 12 else { throw .truncated("WebP file is shorter than the RIFF header") }
        guard fourCC(bytes, at: 0) == "RIFF", fourCC(bytes, at: 8) == "WEBP" else {
            throw .invalidData("not a RIFF WEBP file")
        }
        let riffSize = Int(le32(bytes, at: 4))
        guard riffSize >= 12 else { throw .invalidData("RIFF size is smaller than one chunk") }
        guard riffSize <= bytes.count - 8 else { throw .truncated("WebP file is shorter than its RIFF size") }
        var offset = 12
        var canvas: (width: Int, height: Int)?
        var hasAlpha = false
        if bytes.count - offset >= 8 && fourCC(bytes, at: offset) == "VP8X" {
            // RFC 9649 2.7: a 10-byte payload: flags, reserved, canvas size minus one (24 bits each).
            guard le32(bytes, at: offset + 4) == 10 else { throw .invalidData("VP8X chunk size is not 10") }
            guard bytes.count - offset >= 18 else { throw .truncated("VP8X chunk passes the end of the data") }
            if bytes[offset + 8] & 0x02 != 0 { throw .unsupported("WebP animation is not decoded yet") }
            let width = 1 + (Int(bytes[offset + 12]) | Int(bytes[offset + 13]) << 8 | Int(bytes[offset + 14]) << 16)
            let height = 1 + (Int(bytes[offset + 15]) | Int(bytes[offset + 16]) << 8 | Int(bytes[offset + 17]) << 16)
            canvas = (width, height)
            offset += 18
            // Chunks before the bitstream (ICCP, ALPH, unknown ones), each within the RIFF size.
            var total = 4 + 18
            while true {
                guard bytes.count - offset >= 8 else { throw .truncated("WebP chunk header passes the end of the data") }
                let size = Int(le32(bytes, at: offset + 4))
                let onDisk = (8 + size + 1) & ~1
                total += onDisk
                guard total <= riffSize else { throw .invalidData("WebP chunk passes the end of the RIFF data") }
                let name = fourCC(bytes, at: offset)
                if name == "VP8 " || name == "VP8L" { break }
                guard bytes.count - offset >= onDisk else { throw .truncated("WebP chunk passes the end of the data") }
                if name == "ALPH" { hasAlpha = true }
                offset += onDisk
            }
        }
        guard bytes.count - offset >= 8 else { throw .truncated("WebP chunk header passes the end of the data") }
        switch fourCC(bytes, at: offset) {
        case "VP8 ": break
        case "VP8L": throw .invalidData("WebP file is lossless, not lossy")
        default: throw .invalidData("WebP file has no VP8 chunk where the bitstream belongs")
        }
        let size = Int(le32(bytes, at: offset + 4))
        guard size <= riffSize - 12 else { throw .invalidData("VP8 chunk is larger than the RIFF data") }
        guard size <= bytes.count - offset - 8 else { throw .truncated("VP8 chunk passes the end of the data") }
        if hasAlpha { throw .unsupported("WebP lossy alpha (ALPH) is not decoded yet") }
        return LossyBitstream(payload: (offset + 8)..<(offset + 8 + size), canvas: canvas)
    }

    /// The `VP8 ` chunk's payload of a lossy still (see ``lossyChunk(_:)``).
    public static func lossyBitstream(_ bytes: UnsafeBufferPointer<UInt8>) throws(DecodingError) -> Range<Int> {
        try lossyChunk(bytes).payload
    }

    /// Decodes a lossy still WebP file (RIFF/WEBP with a `VP8 ` chunk, RFC 9649 2.5) to RGBA8,
    /// as `WebPDecodeRGBA` does. As in libwebp, the VP8 partitions may run from the chunk's
    /// payload to the end of the bytes given (the last partition takes the rest of the data),
    /// and a VP8X canvas must have the frame's size.
    public static func decodeLossy(_ bytes: UnsafeBufferPointer<UInt8>, limits: Limits = Limits())
        throws(DecodingError) -> (width: Int, height: Int, pixels: [UInt8]) {
        let chunk = try lossyChunk(bytes)
        let stream = UnsafeBufferPointer(rebasing: bytes[chunk.payload.lowerBound...])
        if let canvas = chunk.canvas {
            let tag = try VP8FrameTag(stream, chunkSize: chunk.payload.count)
            guard tag.width == canvas.width, tag.height == canvas.height else {
                throw .invalidData("VP8X canvas size differs from the VP8 frame size")
            }
        }
        return try VP8Decoder.decode(stream, chunkSize: chunk.payload.count, limits: limits)
    }
}
