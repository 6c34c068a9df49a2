/// An image file format: an open set of names, so plug-in coders can add their own.
///
/// Besides the four formats this library decodes, the formats that ``identify(_:registry:)``
/// recognises and an ``ImageSource`` refuses by name (as `unsupported`, not as an unknown type)
/// have names here too, with their MIME type, Uniform Type Identifier and file extensions.
public struct ImageFormat: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The format's identifier, lower case: `png`, `jpeg`, `jpeg2000`…
    public let rawValue: String

    /// The format named `rawValue`: a built-in one, or a plug-in's own name.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// PNG, including APNG (an APNG is a PNG whose `count` is above 1, as in ImageIO).
    public static let png = ImageFormat(rawValue: "png")
    /// GIF87a and GIF89a, stills and animations.
    public static let gif = ImageFormat(rawValue: "gif")
    /// JPEG (JFIF, EXIF and Adobe files; MPO files as several frames).
    public static let jpeg = ImageFormat(rawValue: "jpeg")
    /// WebP, lossy and lossless, stills and animations.
    public static let webp = ImageFormat(rawValue: "webp")
    /// TIFF 6.0 and BigTIFF. Recognised, not decoded.
    public static let tiff = ImageFormat(rawValue: "tiff")
    /// Windows bitmap (BMP/DIB). Recognised, not decoded.
    public static let bmp = ImageFormat(rawValue: "bmp")
    /// Windows icon. Recognised, not decoded.
    public static let ico = ImageFormat(rawValue: "ico")
    /// Windows cursor. Recognised, not decoded.
    public static let cur = ImageFormat(rawValue: "cur")
    /// HEIF with HEVC-coded images (HEIC). Recognised, not decoded.
    public static let heic = ImageFormat(rawValue: "heic")
    /// HEIF with another or an unnamed codec. Recognised, not decoded.
    public static let heif = ImageFormat(rawValue: "heif")
    /// AV1 Image File Format. Recognised, not decoded.
    public static let avif = ImageFormat(rawValue: "avif")
    /// JPEG 2000 (JP2 file or raw codestream). Recognised, not decoded.
    public static let jpeg2000 = ImageFormat(rawValue: "jpeg2000")
    /// JPEG XL (codestream or container). Recognised, not decoded.
    public static let jpegXL = ImageFormat(rawValue: "jpegxl")
    /// Adobe Photoshop document (PSD and PSB). Recognised, not decoded.
    public static let psd = ImageFormat(rawValue: "psd")
    /// PDF. Recognised, not decoded.
    public static let pdf = ImageFormat(rawValue: "pdf")
    /// SVG (uncompressed XML). Recognised, not decoded.
    public static let svg = ImageFormat(rawValue: "svg")

    /// The ``rawValue``.
    public var description: String { rawValue }

    /// The IANA media type, e.g. `image/png`; nil for a format this library does not know.
    public var mimeType: String? { ImageFormat.catalogue[rawValue]?.mimeType }

    /// The Uniform Type Identifier (Apple's `UTType`), e.g. `public.png`; nil for a format this
    /// library does not know.
    public var uniformTypeIdentifier: String? { ImageFormat.catalogue[rawValue]?.uniformTypeIdentifier }

    /// File name extensions, lower case without the dot, the usual one first; empty for a
    /// format this library does not know.
    public var fileExtensions: [String] { ImageFormat.catalogue[rawValue]?.fileExtensions ?? [] }

    /// The human name used in messages, e.g. `JPEG 2000`.
    public var name: String { ImageFormat.catalogue[rawValue]?.name ?? rawValue }

    private struct Entry {
        let name: String
        let mimeType: String
        let uniformTypeIdentifier: String
        let fileExtensions: [String]
    }

    /// The media types are IANA's where one is registered (`image/vnd.microsoft.icon`,
    /// `image/vnd.adobe.photoshop`), else the one browsers and servers send (`image/bmp`,
    /// `image/x-icon` for cursors); the identifiers are those of Apple's UniformTypeIdentifiers.
    private static let catalogue: [String: Entry] = [
        "png": Entry(name: "PNG", mimeType: "image/png", uniformTypeIdentifier: "public.png", fileExtensions: ["png", "apng"]),
        "gif": Entry(name: "GIF", mimeType: "image/gif", uniformTypeIdentifier: "com.compuserve.gif", fileExtensions: ["gif"]),
        "jpeg": Entry(name: "JPEG", mimeType: "image/jpeg", uniformTypeIdentifier: "public.jpeg",
                      fileExtensions: ["jpg", "jpeg", "jpe", "jfif", "mpo"]),
        "webp": Entry(name: "WebP", mimeType: "image/webp", uniformTypeIdentifier: "org.webmproject.webp", fileExtensions: ["webp"]),
        "tiff": Entry(name: "TIFF", mimeType: "image/tiff", uniformTypeIdentifier: "public.tiff", fileExtensions: ["tiff", "tif"]),
        "bmp": Entry(name: "BMP", mimeType: "image/bmp", uniformTypeIdentifier: "com.microsoft.bmp", fileExtensions: ["bmp", "dib"]),
        "ico": Entry(name: "ICO", mimeType: "image/vnd.microsoft.icon", uniformTypeIdentifier: "com.microsoft.ico", fileExtensions: ["ico"]),
        "cur": Entry(name: "CUR", mimeType: "image/x-icon", uniformTypeIdentifier: "com.microsoft.cur", fileExtensions: ["cur"]),
        "heic": Entry(name: "HEIC", mimeType: "image/heic", uniformTypeIdentifier: "public.heic", fileExtensions: ["heic"]),
        "heif": Entry(name: "HEIF", mimeType: "image/heif", uniformTypeIdentifier: "public.heif", fileExtensions: ["heif", "hif"]),
        "avif": Entry(name: "AVIF", mimeType: "image/avif", uniformTypeIdentifier: "public.avif", fileExtensions: ["avif"]),
        "jpeg2000": Entry(name: "JPEG 2000", mimeType: "image/jp2", uniformTypeIdentifier: "public.jpeg-2000",
                          fileExtensions: ["jp2", "j2k", "j2c", "jpf", "jpx"]),
        "jpegxl": Entry(name: "JPEG XL", mimeType: "image/jxl", uniformTypeIdentifier: "public.jpeg-xl", fileExtensions: ["jxl"]),
        "psd": Entry(name: "PSD", mimeType: "image/vnd.adobe.photoshop", uniformTypeIdentifier: "com.adobe.photoshop-image",
                     fileExtensions: ["psd", "psb"]),
        "pdf": Entry(name: "PDF", mimeType: "application/pdf", uniformTypeIdentifier: "com.adobe.pdf", fileExtensions: ["pdf"]),
        "svg": Entry(name: "SVG", mimeType: "image/svg+xml", uniformTypeIdentifier: "public.svg-image", fileExtensions: ["svg"]),
    ]
}
