/// Metadata an encoder writes beside the pixels, where its format has a place for it.
///
/// ``ImageDestination/add(contentsOf:)`` fills it from the source's ``ImageProperties``;
/// fields the caller set stay as they are.
public struct ImageMetadata: Sendable, Equatable {
    /// EXIF orientation, 1–8 (TIFF 6.0 tag 274); 1 writes nothing by itself. A format with an
    /// EXIF block carries it there; the pixels are never turned.
    public var orientation: Int = 1
    /// An ICC profile, uncompressed (PNG iCCP, JPEG APP2, WebP ICCP).
    public var iccProfile: [UInt8]?
    /// EXIF as TIFF bytes starting with `II*\0` or `MM\0*` (PNG eXIf, JPEG APP1, WebP EXIF).
    public var exif: [UInt8]?
    /// XMP packet, UTF-8 (PNG iTXt "XML:com.adobe.xmp", JPEG APP1, WebP XMP).
    public var xmp: [UInt8]?
    /// Pixel density (PNG pHYs, JPEG JFIF density).
    public var physicalPixelDimensions: PhysicalPixelDimensions?

    /// Metadata with these fields; by default nothing is written.
    public init(orientation: Int = 1, iccProfile: [UInt8]? = nil, exif: [UInt8]? = nil,
                xmp: [UInt8]? = nil, physicalPixelDimensions: PhysicalPixelDimensions? = nil) {
        self.orientation = orientation
        self.iccProfile = iccProfile
        self.exif = exif
        self.xmp = xmp
        self.physicalPixelDimensions = physicalPixelDimensions
    }

    /// Whether nothing is to be written.
    public var isEmpty: Bool {
        orientation == 1 && iccProfile == nil && exif == nil && xmp == nil && physicalPixelDimensions == nil
    }
}

extension ImageMetadata {
    /// The metadata a decoded file carries: orientation, ICC profile, EXIF, XMP (a text entry
    /// with the keyword "XML:com.adobe.xmp") and pixel density.
    public init(_ properties: ImageProperties) {
        self.init(orientation: properties.orientation, iccProfile: properties.iccProfile, exif: properties.exif,
                  physicalPixelDimensions: properties.physicalPixelDimensions)
        if let entry = properties.text.first(where: { $0.keyword == "XML:com.adobe.xmp" }) {
            xmp = Array(entry.text.utf8)
        }
    }

    /// Takes `other`'s value for every field left unset here (orientation 1, nil).
    public mutating func fillUnset(from other: ImageMetadata) {
        if orientation == 1 { orientation = other.orientation }
        iccProfile = iccProfile ?? other.iccProfile
        exif = exif ?? other.exif
        xmp = xmp ?? other.xmp
        physicalPixelDimensions = physicalPixelDimensions ?? other.physicalPixelDimensions
    }
}

extension ImageMetadata {
    /// The EXIF block to write: ``exif`` as given, or, when there is none and the orientation
    /// is not 1, a minimal big-endian TIFF with one IFD entry, Orientation (TIFF 6.0 tag 274).
    public var exifToWrite: [UInt8]? {
        if let exif { return exif }
        guard (2...8).contains(orientation) else { return nil }
        return [0x4D, 0x4D, 0x00, 0x2A, 0, 0, 0, 8,      // "MM", 42, IFD at offset 8
                0, 1,                                    // one entry
                0x01, 0x12, 0, 3, 0, 0, 0, 1,            // tag 274, SHORT, count 1
                0, UInt8(orientation), 0, 0,             // the value, left-justified
                0, 0, 0, 0]                              // no next IFD
    }
}
