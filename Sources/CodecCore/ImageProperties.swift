/// What a decoder knows about the whole image once its header is read.
public struct ImageProperties: Sendable, Equatable {
    /// Canvas width in pixels (for an animation, the canvas every frame is composed on).
    public var width: Int
    /// Canvas height in pixels.
    public var height: Int
    /// Bits per sample in the file (the largest, for mixed formats).
    public var bitDepth: Int
    /// Whether the file can hold transparency (an alpha channel, a transparent colour or palette entry).
    public var hasAlpha: Bool
    /// Interlaced (PNG Adam7, GIF four-pass) or progressive (JPEG).
    public var isInterlaced: Bool
    /// Number of times an animation plays; 0 means forever. 1 for still images.
    public var loopCount: Int = 1
    /// The file declares an animation that breaks its format's rules, so its static image is
    /// shown instead (APNG 1.0: acTL, then a misplaced or invalid animation chunk). Once true
    /// it stays true. When it turns true while the file arrives, the frames counted before are
    /// withdrawn: the frame count drops to 1 and frame 0 becomes the static image (SPEC-NOTES.md, APNG).
    public var showsStaticFallback = false
    /// EXIF orientation, 1–8 (TIFF 6.0 tag 274); 1 when the file says nothing.
    public var orientation: Int = 1
    /// The embedded ICC profile, decompressed.
    public var iccProfile: [UInt8]?
    /// The EXIF payload as TIFF bytes (starting with `II*\0` or `MM\0*`).
    public var exif: [UInt8]?
    /// Textual key–value pairs (PNG tEXt/zTXt/iTXt, GIF comments).
    public var text: [TextEntry] = []
    /// Colour description chunks that carry no ICC profile.
    public var color = ColorDescription()
    /// Pixels per metre, when the file gives them.
    public var physicalPixelDimensions: PhysicalPixelDimensions?
    /// Significant bits per channel (PNG sBIT), in the file's channel order.
    public var significantBits: [Int]?
    /// The suggested background colour as RGB in the file's bit depth (PNG bKGD, GIF background index).
    public var backgroundColor: [Int]?
    /// Things the decoder ignored and why, for the caller to log: with
    /// ``DecodingOptions/colorSpace`` set to ``ColorSpace/sRGB``, an ICC profile or colour
    /// chunk that could not be used (broken, hostile or unsupported), so the pixels were left
    /// in the file's colour space. Empty when nothing was ignored.
    public var warnings: [String] = []

    /// Properties of a still image with these facts; the rest keep their defaults (loop count 1,
    /// orientation 1, no metadata). A plug-in decoder fills in what its header says.
    public init(width: Int, height: Int, bitDepth: Int, hasAlpha: Bool, isInterlaced: Bool) {
        self.width = width
        self.height = height
        self.bitDepth = bitDepth
        self.hasAlpha = hasAlpha
        self.isInterlaced = isInterlaced
    }
}

/// One textual metadata entry.
public struct TextEntry: Sendable, Equatable {
    /// The key: a PNG keyword, `Comment` for a GIF comment, `XML:com.adobe.xmp` for an XMP
    /// packet (any format).
    public var keyword: String
    /// The value, as Unicode text.
    public var text: String
    /// The language tag of an international entry (PNG iTXt), empty otherwise.
    public var languageTag: String = ""

    /// An entry of `keyword` and `text`, with a language tag for international text.
    public init(keyword: String, text: String, languageTag: String = "") {
        self.keyword = keyword
        self.text = text
        self.languageTag = languageTag
    }
}

/// Colour-space hints other than an ICC profile.
public struct ColorDescription: Sendable, Equatable {
    /// Image gamma × 100000 (PNG gAMA).
    public var gamma: Int?
    /// White point and primaries × 100000: wx, wy, rx, ry, gx, gy, bx, by (PNG cHRM).
    public var chromaticities: [Int]?
    /// sRGB rendering intent 0–3 (PNG sRGB).
    public var sRGBIntent: Int?
    /// Coding-independent code points: primaries, transfer, matrix, full range (PNG cICP, ITU-T H.273).
    public var cicp: [Int]?

    /// No colour description: every field nil.
    public init() {}
}

/// Physical pixel density (PNG pHYs).
public struct PhysicalPixelDimensions: Sendable, Equatable {
    /// Pixels per unit, horizontally.
    public var pixelsPerUnitX: Int
    /// Pixels per unit, vertically.
    public var pixelsPerUnitY: Int
    /// True when the unit is the metre; false when only the aspect ratio is known.
    public var unitIsMetre: Bool

    /// A density of `pixelsPerUnitX × pixelsPerUnitY` per metre, or only an aspect ratio when
    /// `unitIsMetre` is false.
    public init(pixelsPerUnitX: Int, pixelsPerUnitY: Int, unitIsMetre: Bool) {
        self.pixelsPerUnitX = pixelsPerUnitX
        self.pixelsPerUnitY = pixelsPerUnitY
        self.unitIsMetre = unitIsMetre
    }
}

/// How a frame's area is treated once the frame has been shown (APNG dispose_op, GIF disposal).
public enum Disposal: String, Sendable, Equatable {
    /// `none` leaves the frame on the canvas; `background` clears its rectangle to transparent
    /// black; `previous` restores the rectangle to what it was before the frame was drawn (on the
    /// first frame it acts as `background`).
    case none, background, previous
}

/// How a frame's pixels combine with the canvas (APNG blend_op, WebP blending).
public enum Blend: String, Sendable, Equatable {
    /// `source` replaces the canvas pixels under the frame's rectangle with the frame's, alpha
    /// included; `over` composites the frame onto them (Porter–Duff source-over, straight alpha).
    case source, over
}

/// What is known about one frame.
public struct FrameProperties: Sendable, Equatable {
    /// The left edge of the frame's rectangle on the canvas; the rectangle is already clipped
    /// to the canvas.
    public var x: Int
    /// The top edge of the frame's rectangle on the canvas.
    public var y: Int
    /// The width of the frame's rectangle.
    public var width: Int
    /// The height of the frame's rectangle.
    public var height: Int
    /// Display time in seconds, as the file says it.
    public var unclampedDuration: Double
    /// What happens to the frame's rectangle before the next frame is drawn.
    public var disposal: Disposal
    /// How the frame's pixels combine with the canvas under them.
    public var blend: Blend
    /// Whether the frame's own pixels (its rectangle, as `ImageSource.rawFrame(at:)` gives
    /// them) can be non-opaque: GIF, a transparent index in the frame's Graphic Control
    /// Extension; APNG, a colour type with alpha or a tRNS chunk; WebP, an ALPH chunk or VP8L's
    /// alpha hint; a still image, the image's ``ImageProperties/hasAlpha``. It says nothing of
    /// the canvas around the frame or under it (SPEC-NOTES.md, "Raw frames and per-frame alpha").
    public var hasAlpha: Bool

    /// A frame at (`x`, `y`) of `width × height` on the canvas, shown for `unclampedDuration` seconds.
    public init(x: Int, y: Int, width: Int, height: Int, unclampedDuration: Double,
                disposal: Disposal, blend: Blend, hasAlpha: Bool = false) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
        self.unclampedDuration = unclampedDuration
        self.disposal = disposal
        self.blend = blend
        self.hasAlpha = hasAlpha
    }

    /// Display time in seconds with the browsers' rule: 10 ms or less becomes 100 ms.
    public var duration: Double { unclampedDuration <= 0.010 + 1e-9 ? 0.1 : unclampedDuration }
}
