import CodecCore

/// What the application segments say (T.81 B.2.4.6): JFIF (APP0), EXIF (APP1, with the
/// orientation), XMP (APP1 "http://ns.adobe.com/xap/1.0/\0", XMP part 3 1.1.3), ICC profiles split over APP2 chunks (ICC.1 Annex B.4), and the Adobe APP14
/// segment's colour transform, which decides how three or four components become RGB.
struct JPEGMetadata {
    private(set) var sawJFIF = false
    /// The Adobe segment's transform flag: 0 none (RGB or CMYK), 1 YCbCr, 2 YCCK.
    private(set) var adobeTransform: Int?
    /// Set at the first scan: libjpeg-turbo decides the colour space from the JFIF and Adobe
    /// segments `jpeg_read_header` saw, which stops at the first SOS, so such segments after
    /// it change nothing (fuzzing found a file whose whole decode read a JFIF segment between
    /// scans and its incremental one did not).
    private var colorMarkersLatched = false
    private(set) var exif: [UInt8]?
    /// The first XMP packet (standard XMP; extended XMP segments are not joined).
    private(set) var xmp: [UInt8]?
    /// ICC profile chunks by sequence number (1-based), and the count they announce.
    private var iccChunks: [Int: [UInt8]] = [:]
    private var iccChunkCount = 0
    private var bytesHeld = 0

    static let jfif: [UInt8] = Array("JFIF\0".utf8)
    static let exifHeader: [UInt8] = Array("Exif\0\0".utf8)
    static let xmpHeader: [UInt8] = Array("http://ns.adobe.com/xap/1.0/\0".utf8)
    static let iccHeader: [UInt8] = Array("ICC_PROFILE\0".utf8)
    static let adobe: [UInt8] = Array("Adobe".utf8)

    /// Reads an APPn payload; items past `limit` bytes in all are left out.
    mutating func read(_ code: UInt8, _ p: [UInt8], limit: Int) {
        switch code {
        case JPEGMarker.app0 where !colorMarkersLatched && p.starts(with: Self.jfif):
            sawJFIF = true
        case JPEGMarker.app0 + 1 where exif == nil && p.starts(with: Self.exifHeader):
            let payload = Array(p.dropFirst(Self.exifHeader.count))
            if hold(payload.count, limit: limit) { exif = payload }
        case JPEGMarker.app0 + 1 where xmp == nil && p.starts(with: Self.xmpHeader):
            let payload = Array(p.dropFirst(Self.xmpHeader.count))
            if hold(payload.count, limit: limit) { xmp = payload }
        case JPEGMarker.app0 + 2 where p.count > Self.iccHeader.count + 2 && p.starts(with: Self.iccHeader):
            let sequence = Int(p[12]), count = Int(p[13])
            guard sequence >= 1, count >= 1, iccChunks[sequence] == nil else { return }
            let chunk = Array(p.dropFirst(14))
            guard hold(chunk.count, limit: limit) else { return }
            iccChunks[sequence] = chunk
            iccChunkCount = max(iccChunkCount, count)
        case JPEGMarker.app0 + 14 where !colorMarkersLatched && p.count >= 12 && p.starts(with: Self.adobe):
            adobeTransform = Int(p[11])
        default:
            break
        }
    }

    /// Keeps the JFIF and Adobe colour markers as they are now (the first scan begins).
    mutating func latchColorMarkers() {
        colorMarkersLatched = true
    }

    private mutating func hold(_ count: Int, limit: Int) -> Bool {
        guard bytesHeld + count <= limit else { return false }
        bytesHeld += count
        return true
    }

    /// The ICC profile: the chunks in sequence order, when every announced chunk is there
    /// (libjpeg-turbo's `jpeg_read_icc_profile` gives nothing otherwise).
    var iccProfile: [UInt8]? {
        guard iccChunkCount > 0, (1...iccChunkCount).allSatisfy({ iccChunks[$0] != nil }) else { return nil }
        return (1...iccChunkCount).compactMap { iccChunks[$0] }.flatMap { $0 }
    }

    /// Fills the EXIF payload, its orientation, the ICC profile and the XMP packet (a text entry
    /// "XML:com.adobe.xmp", as PNG, GIF and WebP give it) into `properties`.
    func resolve(into properties: inout ImageProperties) {
        properties.exif = exif
        if let xmp { properties.text.append(TextEntry(keyword: "XML:com.adobe.xmp", text: String(decoding: xmp, as: UTF8.self))) }
        if let exif, let orientation = Orientation.fromEXIF(exif) { properties.orientation = orientation }
        properties.iccProfile = iccProfile
    }
}
