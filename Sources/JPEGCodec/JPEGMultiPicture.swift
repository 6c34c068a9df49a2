/// The Multi-Picture Format index (CIPA DC-007-2009 §5.2): an APP2 segment `MPF\0` in the first
/// image, holding a TIFF-structured MP Index IFD whose MP Entry tag (0xB002) lists every image
/// of the file (16 bytes each: attribute, size, offset, two dependent-image entries). Offsets
/// count from the TIFF header (the byte after `MPF\0`); the first image's is 0.
///
/// As Pillow's MPO reader, the file is an MPO when NumberOfImages (0xB001) is above 1, and its
/// images are the frames, in index order.
struct JPEGMultiPicture: Equatable {
    /// Absolute file offsets of the images after the first (each an SOI).
    var offsets: [Int]

    /// Most images an index may list (a 64 KiB segment holds at most 4 094 entries).
    static let maxImages = 4094

    /// The index in APP2 payload `p`, whose first byte is at file offset `payloadStart`; nil when
    /// the segment is not an MP index, lists one image, or is malformed (then ignored, as
    /// libjpeg ignores APP2).
    init?(_ p: [UInt8], payloadStart: Int) {
        guard p.count >= 12, p[0] == 0x4D, p[1] == 0x50, p[2] == 0x46, p[3] == 0 else { return nil }
        let tiff = 4
        let bigEndian: Bool
        switch (p[tiff], p[tiff + 1]) {
        case (0x4D, 0x4D): bigEndian = true
        case (0x49, 0x49): bigEndian = false
        default: return nil
        }
        func u16(_ at: Int) -> Int? {
            guard at >= 0, at + 2 <= p.count else { return nil }
            return bigEndian ? Int(p[at]) << 8 | Int(p[at + 1]) : Int(p[at + 1]) << 8 | Int(p[at])
        }
        func u32(_ at: Int) -> Int? {
            guard let a = u16(at), let b = u16(at + 2) else { return nil }
            return bigEndian ? a << 16 | b : b << 16 | a
        }
        guard let ifd = u32(tiff + 4), let count = u16(tiff + ifd) else { return nil }
        var images = 0, entries: (count: Int, offset: Int)?
        for i in 0..<count {
            let entry = tiff + ifd + 2 + 12 * i
            guard let tag = u16(entry), let n = u32(entry + 4), let value = u32(entry + 8) else { return nil }
            if tag == 0xB001 { images = value }
            if tag == 0xB002 { entries = (n, value) }
        }
        guard images > 1, images <= Self.maxImages, let entries, entries.count >= 16 * images else { return nil }
        var offsets: [Int] = []
        for i in 1..<images {
            guard let offset = u32(tiff + entries.offset + 16 * i + 8), offset > 0 else { return nil }
            offsets.append(payloadStart + tiff + offset)
        }
        self.offsets = offsets
    }

    /// Whether APP1 payload `p` is XMP declaring an Ultra HDR gain map (`hdrgm:Version="`,
    /// Adobe's gain map XMP namespace): such a file's second MP image is the gain map, not a
    /// picture, and Pillow reads the file as one JPEG image; so do we.
    static func declaresGainMap(_ p: [UInt8]) -> Bool {
        let needle = Array(" hdrgm:Version=\"".utf8)
        guard p.count >= needle.count else { return false }
        for start in 0...(p.count - needle.count) where p[start] == needle[0] {
            if Array(p[start..<(start + needle.count)]) == needle { return true }
        }
        return false
    }
}
