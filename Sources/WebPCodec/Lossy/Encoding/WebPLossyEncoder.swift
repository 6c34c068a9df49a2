import CodecCore

/// Encodes a lossy WebP image: the `VP8 ` chunk (``VP8Encoder``) and, when a pixel is not
/// opaque, the ALPH chunk (RFC 9649 2.7.1.2): the alpha plane as the green channel of a VP8L
/// image stream without its header (compression method 1).
enum WebPLossyEncoder {
    /// The VP8 chunk's payload and the ALPH chunk's, if any.
    static func encode(argb: [UInt32], width: Int, height: Int, options: EncodingOptions)
        throws(EncodingError) -> (vp8: [UInt8], alpha: [UInt8]?) {
        let settings = VP8Encoder.settings(quality: options.quality, effort: min(options.effort, 6))
        let vp8 = try VP8Encoder.encode(argb: argb, width: width, height: height, settings: settings)
        let hasAlpha = argb.contains { $0 < 0xFF00_0000 }
        return (vp8, hasAlpha ? alphaPayload(argb: argb, width: width, height: height, effort: options.effort) : nil)
    }

    /// ALPH: the header byte (no pre-processing, no filtering, compression 1), then the VP8L
    /// image stream of the alpha values in green (RFC 9649 2.7.1.2: the stream lacks the VP8L
    /// header's 5 bytes).
    static func alphaPayload(argb: [UInt32], width: Int, height: Int, effort: Int) -> [UInt8] {
        var green = argb.map { 0xFF00_0000 | ($0 >> 24) << 8 }
        let stream = VP8LEncoder.encode(argb: &green, width: width, height: height, effort: effort, exact: true)
        return [1] + stream.dropFirst(5)
    }
}
