import CodecCore
@testable import WebPCodec


/// A whole WebP file's still image, found by the container parser ``WebPDecoder`` uses and
/// decoded by its bitstream decoder alone, without the incremental jobs and the animation
/// compositor around it: the tests' differential checks of the VP8L and VP8 decoders.
enum WebPContainer {
    /// The still image's bitstream (RFC 9649 2.5 and 2.7). Throws what the parser throws,
    /// `invalidData` for an animation, `truncated` when the data ends before the RIFF size
    /// says (as libwebp's `ParseRIFF` refuses a whole file then, even for a missing pad byte).
    static func stillBitstream(_ bytes: UnsafeBufferPointer<UInt8>, limits: Limits = Limits())
        throws(DecodingError) -> WebPBitstream {
        var parser = WebPContainerParser(limits: limits)
        try parser.parse(InputBuffer(bytes, isFinal: true))
        guard !parser.isAnimated else { throw .invalidData("WebP file is an animation") }
        guard let still = parser.frames.first?.bitstream else { throw .truncated("WebP file ends before its image") }
        guard parser.riffEnd <= bytes.count else { throw .truncated("WebP file is shorter than its RIFF size") }
        return still
    }

    /// The payload of a lossless still's VP8L chunk.
    static func losslessBitstream(_ bytes: UnsafeBufferPointer<UInt8>) throws(DecodingError) -> Range<Int> {
        let still = try stillBitstream(bytes)
        guard still.kind == .lossless else { throw .invalidData("WebP file is lossy, not lossless") }
        return still.payload
    }

    /// The payload of a lossy still's VP8 chunk.
    static func lossyBitstream(_ bytes: UnsafeBufferPointer<UInt8>) throws(DecodingError) -> Range<Int> {
        let still = try stillBitstream(bytes)
        guard still.kind == .lossy else { throw .invalidData("WebP file is lossless, not lossy") }
        return still.payload
    }

    /// Decodes a lossless still to RGBA8 with ``VP8LDecoder``, as `WebPDecodeRGBA` does: the
    /// bit reader runs from the VP8L payload to the end of the bytes given, not to the end of
    /// the chunk (a corrupt bitstream that reads a few bits past its chunk decodes as libwebp
    /// decodes it).
    static func decodeLossless(_ bytes: UnsafeBufferPointer<UInt8>, limits: Limits = Limits())
        throws(DecodingError) -> (width: Int, height: Int, pixels: [UInt8]) {
        let payload = try losslessBitstream(bytes)
        return try VP8LDecoder.decode(UnsafeBufferPointer(rebasing: bytes[payload.lowerBound...]), limits: limits)
    }

    /// Decodes a lossy still to RGBA8 with ``VP8Decoder`` and its ALPH chunk, if any, with
    /// ``WebPAlphaRows``, as `WebPDecodeRGBA` does: the last partition runs to the end of the bytes.
    static func decodeLossy(_ bytes: UnsafeBufferPointer<UInt8>, limits: Limits = Limits())
        throws(DecodingError) -> (width: Int, height: Int, pixels: [UInt8]) {
        let still = try stillBitstream(bytes)
        guard still.kind == .lossy else { throw .invalidData("WebP file is lossless, not lossy") }
        let stream = UnsafeBufferPointer(rebasing: bytes[still.payload.lowerBound...])
        var decoder = try VP8Decoder(stream, chunkSize: still.payload.count, limits: limits)
        if let alphaChunk = still.alphaChunk {
            decoder.alpha = try WebPAlphaRows(chunk: alphaChunk, of: InputBuffer(bytes, isFinal: true),
                                              width: decoder.width, height: decoder.height, limits: limits)
        }
        try decoder.decode(stream, isFinal: true)
        return (decoder.width, decoder.height, decoder.rgba())
    }
}

extension VP8LDecoder {
    /// Decodes a whole VP8L bitstream (a VP8L chunk's payload, and whatever follows it in the
    /// file: libwebp's reader runs to the end of the data) to RGBA8, as libwebp's
    /// `WebPDecodeRGBA` does. A bitstream shorter than 8 bytes reads as if zero-padded to 8.
    static func decode(_ bytes: UnsafeBufferPointer<UInt8>, limits: Limits = Limits())
        throws(DecodingError) -> (width: Int, height: Int, pixels: [UInt8]) {
        guard var decoder = try start(bytes, isFinal: true, limits: limits) else {
            throw .truncated("VP8L bitstream ends before the image data")
        }
        if bytes.count < 8 {
            try padded(bytes).withUnsafeBufferPointer { (p) throws(DecodingError) in try decoder.decode(p, isFinal: true) }
        } else {
            try decoder.decode(bytes, isFinal: true)
        }
        return (decoder.width, decoder.height, decoder.rgba())
    }
}

extension VP8Decoder {
    /// Decodes a whole VP8 bitstream (`bytes` from the start of the VP8 chunk's payload to the
    /// end of the file, `chunkSize` the chunk's size) to RGBA8, as `WebPDecodeRGBA` does.
    static func decode(_ bytes: UnsafeBufferPointer<UInt8>, chunkSize: Int, limits: Limits = Limits())
        throws(DecodingError) -> (width: Int, height: Int, pixels: [UInt8]) {
        var decoder = try VP8Decoder(bytes, chunkSize: chunkSize, limits: limits)
        try decoder.decode(bytes, isFinal: true)
        return (decoder.width, decoder.height, decoder.rgba())
    }
}
