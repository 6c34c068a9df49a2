import CodecCore

/// The five-byte header of a VP8L (WebP lossless) bitstream (RFC 9649 section 3.2): the
/// signature byte 0x2f, the image width and height minus one in 14 bits each, the alpha hint
/// and a 3-bit version that must be 0, all read least significant bit first.
package struct VP8LHeader: Sendable, Equatable {
    /// RFC 9649 3.2: the signature byte.
    package static let signature: UInt8 = 0x2f
    /// The header's size in bytes.
    package static let size = 5

    package let width: Int
    package let height: Int
    /// `alpha_is_used`: a hint only; the decoded alpha values are output whatever it says.
    package let alphaIsUsed: Bool

    package init(width: Int, height: Int, alphaIsUsed: Bool) {
        self.width = width
        self.height = height
        self.alphaIsUsed = alphaIsUsed
    }

    /// Reads the header from the first five bytes of `bytes` (the VP8L chunk's payload).
    /// Throws `truncated` when fewer than five bytes are given.
    package init(_ bytes: UnsafeBufferPointer<UInt8>) throws(DecodingError) {
        guard bytes.count >= Self.size else { throw .truncated("VP8L header is shorter than 5 bytes") }
        guard bytes[0] == Self.signature else { throw .invalidData("VP8L signature is not 0x2f") }
        var reader = LSBBitReader(position: 1)
        let width = Int(reader.read(14, bytes)) + 1
        let height = Int(reader.read(14, bytes)) + 1
        let alpha = reader.read(1, bytes) == 1
        guard reader.read(3, bytes) == 0 else { throw .invalidData("VP8L version is not 0") }
        self.init(width: width, height: height, alphaIsUsed: alpha)
    }
}
