import CodecCore

/// The coded image of a still file or an animation frame: which bitstream it is and where its
/// chunk's payload lies in the file.
package struct WebPBitstream: Sendable, Equatable {
    package enum Kind: Sendable, Equatable {
        /// VP8L, RFC 9649 section 3 (lossless).
        case lossless
        /// VP8, RFC 6386 (lossy), with or without an ALPH chunk.
        case lossy
    }

    package var kind: Kind
    /// The chunk's payload, as its size says (possibly past the bytes arrived so far).
    package var payload: Range<Int>
    /// Where the bitstream's bytes end for an animation frame: the payload and its pad byte, as
    /// libwebp's demuxer hands a frame to WebPDecode. A still image's reader runs to the end of
    /// the input instead (this is then the payload's end, which says when the chunk has arrived).
    package var dataEnd: Int
    /// Size given by the bitstream's own header.
    package var width: Int
    package var height: Int
    /// VP8L's `alpha_is_used` hint, or an ALPH chunk before a VP8 one (libwebp's
    /// `WebPBitstreamFeatures.has_alpha`; the demuxer's `WebPIterator.has_alpha`).
    package var hasAlpha: Bool
    /// The payload of the ALPH chunk before a VP8 image (RFC 9649 2.7.1.2): for a still, the
    /// last one before it (libwebp's `ParseOptionalChunks` keeps the last); for a frame, its one.
    package var alphaChunk: Range<Int>? = nil
}

/// One frame as the container describes it: the ANMF header (RFC 9649 section 2.7.1.1) or,
/// for a still image, the whole canvas.
package struct WebPFrameInfo: Sendable, Equatable {
    package var properties: FrameProperties
    package var bitstream: WebPBitstream
    /// Milliseconds, as the file says (ANMF "Frame Duration").
    package var durationMilliseconds: Int
}

/// The VP8X chunk (RFC 9649 section 2.7): feature flags and the canvas size.
package struct WebPExtendedHeader: Sendable, Equatable {
    package var flags: UInt8
    package var canvasWidth: Int
    package var canvasHeight: Int

    package var hasICC: Bool { flags & 0x20 != 0 }
    package var hasAlpha: Bool { flags & 0x10 != 0 }
    package var hasEXIF: Bool { flags & 0x08 != 0 }
    package var hasXMP: Bool { flags & 0x04 != 0 }
    package var isAnimated: Bool { flags & 0x02 != 0 }
    /// Bits libwebp's demuxer accepts (`ALL_VALID_FLAGS`); others make an animation invalid.
    static let validFlags: UInt8 = 0x3E
}

/// The ANIM chunk (RFC 9649 section 2.7.1.1): background colour and loop count.
package struct WebPAnimationHeader: Sendable, Equatable {
    /// As stored: blue, green, red, alpha bytes in that order, read as a little-endian UInt32
    /// (libwebp's `WebPAnimInfo.bgcolor`).
    package var backgroundColor: UInt32
    /// 0 means forever.
    package var loopCount: Int
}

enum WebPHeaderReader {
    /// The size and alpha hint of a bitstream from the first bytes of its payload: VP8L's 5-byte
    /// header (RFC 9649 section 3.2), or VP8's frame tag, start code and sizes (RFC 6386
    /// section 9.1, 10 bytes). Nil when the bytes are short.
    static func read(_ kind: WebPBitstream.Kind, payload: Range<Int>, alphaChunk: Range<Int>?,
                     _ input: InputBuffer) throws(DecodingError) -> WebPBitstream? {
        switch kind {
        case .lossless:
            guard let bytes = bytes(5, at: payload.lowerBound, input) else { return nil }
            guard bytes[0] == 0x2F else { throw .invalidData("VP8L signature is not 0x2f") }
            let bits = UInt32(bytes[1]) | UInt32(bytes[2]) << 8 | UInt32(bytes[3]) << 16 | UInt32(bytes[4]) << 24
            guard bits >> 29 == 0 else { throw .invalidData("VP8L version is not 0") }
            return WebPBitstream(kind: .lossless, payload: payload, dataEnd: payload.upperBound, width: Int(bits & 0x3FFF) + 1,
                                 height: Int(bits >> 14 & 0x3FFF) + 1, hasAlpha: bits >> 28 & 1 == 1)
        case .lossy:
            guard let bytes = bytes(10, at: payload.lowerBound, input) else { return nil }
            // RFC 6386 9.1 frame tag, checked as libwebp's VP8GetInfo: a key frame, profile 0-3,
            // shown, and a first partition shorter than the chunk.
            let tag = Int(bytes[0]) | Int(bytes[1]) << 8 | Int(bytes[2]) << 16
            guard tag & 1 == 0 else { throw .invalidData("VP8 frame in WebP is not a key frame") }
            guard (tag >> 1) & 7 <= 3 else { throw .invalidData("VP8 profile is above 3") }
            guard (tag >> 4) & 1 == 1 else { throw .invalidData("VP8 frame is not displayable") }
            guard tag >> 5 < payload.count else { throw .invalidData("VP8 first partition is larger than its chunk") }
            guard bytes[3] == 0x9D, bytes[4] == 0x01, bytes[5] == 0x2A else {
                throw .invalidData("VP8 start code is not 9d 01 2a")
            }
            let width = Int(bytes[6]) | Int(bytes[7] & 0x3F) << 8
            let height = Int(bytes[8]) | Int(bytes[9] & 0x3F) << 8
            guard width > 0, height > 0 else { throw .invalidData("VP8 frame size is zero") }
            return WebPBitstream(kind: .lossy, payload: payload, dataEnd: payload.upperBound, width: width, height: height, hasAlpha: alphaChunk != nil, alphaChunk: alphaChunk)
        }
    }

    private static func bytes(_ count: Int, at position: Int, _ input: InputBuffer) -> [UInt8]? {
        input.has(count, at: position) ? input.copy(position..<(position + count)) : nil
    }
}
