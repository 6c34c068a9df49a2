import CodecCore

/// Writes a still WebP: a simple file (RIFF, VP8L or VP8) or, when metadata or a lossy image's
/// alpha is carried, an extended one (RIFF, VP8X, ICCP, ALPH, VP8L or VP8, EXIF, XMP; RFC 9649
/// 2.7 gives the order).
enum WebPStillWriter {
    static func file(vp8l: [UInt8], width: Int, height: Int, hasAlpha: Bool, metadata: ImageMetadata) -> [UInt8] {
        file(image: WebPChunkWriter.chunk("VP8L", vp8l), alpha: nil, width: width, height: height,
             hasAlpha: hasAlpha, metadata: metadata)
    }

    /// `image` is the VP8L or VP8 chunk, `alpha` the ALPH chunk of a VP8 image.
    static func file(image: [UInt8], alpha: [UInt8]?, width: Int, height: Int, hasAlpha: Bool,
                     metadata: ImageMetadata) -> [UInt8] {
        let icc = metadata.iccProfile
        let exif = metadata.exifToWrite
        let xmp = metadata.xmp
        guard icc != nil || exif != nil || xmp != nil || alpha != nil else {
            return WebPChunkWriter.riffHeader(chunkBytes: image.count) + image
        }
        var features: WebPChunkWriter.Features = []
        if hasAlpha { features.insert(.alpha) }
        var chunks: [[UInt8]] = []
        if let icc { features.insert(.icc); chunks.append(WebPChunkWriter.chunk("ICCP", icc)) }
        if let alpha { chunks.append(alpha) }
        chunks.append(image)
        if let exif { features.insert(.exif); chunks.append(WebPChunkWriter.chunk("EXIF", exif)) }
        if let xmp { features.insert(.xmp); chunks.append(WebPChunkWriter.chunk("XMP ", xmp)) }
        chunks.insert(WebPChunkWriter.vp8x(features, width: width, height: height), at: 0)
        let total = chunks.reduce(0) { $0 + $1.count }
        var out = WebPChunkWriter.riffHeader(chunkBytes: total)
        out.reserveCapacity(total + 12)
        for c in chunks { out += c }
        return out
    }
}
