import CodecCore

/// Writes a still WebP: a simple file (RIFF, VP8L) or, when metadata is carried, an extended
/// one (RIFF, VP8X, ICCP, VP8L, EXIF, XMP; RFC 9649 2.7 gives the order).
enum WebPStillWriter {
    static func file(vp8l: [UInt8], width: Int, height: Int, hasAlpha: Bool, metadata: ImageMetadata) -> [UInt8] {
        let image = WebPChunkWriter.chunk("VP8L", vp8l)
        let icc = metadata.iccProfile
        let exif = metadata.exifToWrite
        let xmp = metadata.xmp
        guard icc != nil || exif != nil || xmp != nil else {
            return WebPChunkWriter.riffHeader(chunkBytes: image.count) + image
        }
        var features: WebPChunkWriter.Features = []
        if hasAlpha { features.insert(.alpha) }
        var chunks: [[UInt8]] = []
        if let icc { features.insert(.icc); chunks.append(WebPChunkWriter.chunk("ICCP", icc)) }
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
