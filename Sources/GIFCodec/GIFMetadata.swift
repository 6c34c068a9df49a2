import CodecCore

/// What the extensions say about the whole file: the loop count of the NETSCAPE2.0 or
/// ANIMEXTS1.0 application extension, Comment Extensions (GIF89a §24), and the XMP and ICC
/// profile application extensions (§26). Payloads are kept within ``Limits/maxMetadataBytes``
/// for all of them together and ``Limits/maxMetadataItems`` items (an empty comment is an item);
/// an item that would pass a limit is left out. Each is converted once, when its extension ends.
struct GIFMetadata {
    /// The Application Identifier and Authentication Code (§26) of the extensions read here.
    enum Application: Equatable {
        /// "NETSCAPE2.0" and "ANIMEXTS1.0": sub-block 1 holds the loop count.
        case looping
        /// "XMP DataXMP" (XMP Specification Part 3, §1.1.2): the packet is stored raw, sub-block
        /// size bytes included, followed by a 257-byte "magic trailer".
        case xmp
        /// "ICCRGBG1012" (ICC.1 Annex B.6): the profile is the concatenated sub-blocks.
        case iccProfile
        case other

        init(identifier: UnsafeBufferPointer<UInt8>) {
            switch String(decoding: identifier, as: UTF8.self) {
            case "NETSCAPE2.0", "ANIMEXTS1.0": self = .looping
            case "XMP DataXMP": self = .xmp
            case "ICCRGBG1012": self = .iccProfile
            default: self = .other
            }
        }
    }

    /// The loop count from the looping extensions before the first image (the last of them);
    /// nil when there is none. Later ones are ignored, as Pillow does, so the value is known
    /// before the first frame and never changes.
    var loopCount: Int?
    /// The comments, each made a string once, when its extension ends.
    var comments: [TextEntry] = []
    var xmp: TextEntry?
    var iccProfile: [UInt8]?
    /// Bytes of ``Limits/maxMetadataBytes`` and items of ``Limits/maxMetadataItems`` still free.
    private(set) var budget: Int
    private(set) var itemsLeft: Int

    init(limits: Limits) {
        budget = limits.maxMetadataBytes
        itemsLeft = limits.maxMetadataItems
    }

    /// Takes one item and `bytes` from the budget, or returns false when they do not fit.
    mutating func reserve(_ bytes: Int) -> Bool {
        guard itemsLeft > 0, bytes <= budget else { return false }
        itemsLeft -= 1
        budget -= bytes
        return true
    }

    /// The magic trailer that ends an XMP packet in GIF: 0x01, then 0xFF down to 0x00.
    static let xmpTrailer: [UInt8] = [1] + (0...255).reversed().map { UInt8($0) }

    /// The XMP packet without its magic trailer.
    static func xmpPacket(_ raw: [UInt8]) -> [UInt8] {
        guard raw.count >= xmpTrailer.count, Array(raw.suffix(xmpTrailer.count)) == xmpTrailer else { return raw }
        return Array(raw.dropLast(xmpTrailer.count))
    }

    /// Fills the metadata fields of `properties`.
    func resolve(into properties: inout ImageProperties) {
        if let loopCount { properties.loopCount = loopCount }
        if let iccProfile, !iccProfile.isEmpty { properties.iccProfile = iccProfile }
        properties.text = comments
        if let xmp { properties.text.append(xmp) }
    }
}
