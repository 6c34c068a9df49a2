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
        guard hasAlpha else { return (vp8, nil) }
        return (vp8, alphaPayload(argb: argb, width: width, height: height, effort: options.effort,
                                  quality: options.alphaQuality))
    }

    /// The number of alpha levels kept at `quality` (0…1), as cwebp's `-alpha_q` counts them:
    /// `2 + q/5` up to q = 70, then `16 + 8 (q − 70)`; 256 (exact) at 100.
    static func alphaLevels(quality: Double) -> Int {
        let q = Int((min(max(quality, 0), 1) * 100).rounded())
        return min(256, q <= 70 ? 2 + q / 5 : 16 + (q - 70) * 8)
    }

    /// ALPH: the header byte (pre-processing 1 when the levels were reduced, no filtering,
    /// compression 1), then the VP8L image stream of the alpha values in green (RFC 9649
    /// 2.7.1.2: the stream lacks the VP8L header's 5 bytes). Below 256 levels each alpha value
    /// becomes the nearest of `levels` values spread evenly over the image's range of alpha.
    static func alphaPayload(argb: [UInt32], width: Int, height: Int, effort: Int, quality: Double) -> [UInt8] {
        let levels = alphaLevels(quality: quality)
        var green = argb.map { 0xFF00_0000 | ($0 >> 24) << 8 }
        if levels < 256 {
            let low = Int(argb.min { $0 >> 24 < $1 >> 24 }.map { $0 >> 24 } ?? 0)
            let high = Int(argb.max { $0 >> 24 < $1 >> 24 }.map { $0 >> 24 } ?? 255)
            let steps = max(1, levels - 1)
            let span = max(1, high - low)
            for i in green.indices {
                let a = Int((green[i] >> 8) & 0xFF)
                let k = ((a - low) * steps + span / 2) / span
                green[i] = 0xFF00_0000 | UInt32(low + (k * span + steps / 2) / steps) << 8
            }
        }
        let stream = VP8LEncoder.encode(argb: &green, width: width, height: height, effort: effort, exact: true)
        return [levels < 256 ? 0x11 : 0x01] + stream.dropFirst(5)
    }
}
