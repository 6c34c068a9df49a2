/// How decoded pixels are laid out.
public enum PixelFormat: Sendable, Equatable {
    /// 8 bits per sample, R G B A in memory.
    case rgba8
    /// 8 bits per sample, B G R A in memory (what CoreGraphics calls little-endian ARGB32).
    case bgra8
    /// 16 bits per sample in native byte order, R G B A. Produced only for sources with
    /// more than 8 bits per sample when ``DecodingOptions/prefersSixteenBitOutput`` is set.
    case rgba16

    /// Bytes of one pixel.
    public var bytesPerPixel: Int { self == .rgba16 ? 8 : 4 }
}

/// Options that shape decoding, shared by every codec.
public struct DecodingOptions: Sendable, Equatable {
    /// The resource limits decoding stays within; the defaults suit untrusted input.
    public var limits = Limits()
    /// Byte order of 8-bit output (``PixelFormat/rgba8`` or ``PixelFormat/bgra8``).
    public var byteOrder: PixelFormat = .rgba8
    /// Multiply colour by alpha in the output.
    public var premultipliedAlpha = false
    /// Give ``PixelFormat/rgba16`` for still images whose samples have more than 8 bits.
    public var prefersSixteenBitOutput = false
    /// Decode pixels as bytes arrive instead of when an image is requested
    /// (ImageIO's `kCGImageSourceShouldCacheImmediately`).
    public var decodesImmediately = false
    /// Accept CRC-32 and Adler-32 mismatches. Off by default; fuzz targets set it so that
    /// mutated inputs reach the deeper code.
    public var ignoresChecksums = false
    /// The colour space of the pixels: ``ColorSpace/original`` (the file's values) or
    /// ``ColorSpace/sRGB`` (converted through the ICC profile, PNG `cICP` or `cHRM`/`gAMA`;
    /// SPEC-NOTES.md, "Colour management"). Images, thumbnails and player frames alike.
    public var colorSpace: ColorSpace = .original
    /// The most threads one image's decode may use, the caller's included: 1 decodes on the
    /// caller's thread alone. The default is the processors online, at most 8. The other threads
    /// come from one pool shared by every decode and encode of the process (at most one fewer than
    /// the processors), so decodes running at once share them instead of oversubscribing the
    /// machine. Pixels are identical for every value; values below 1 count as 1.
    public var maxThreads = ProcessorCount.online(cappedAt: 8)
    /// The CRCs of the image data chunks (PNG IDAT) were checked by another decoder of the same
    /// bytes: `ImageSource`'s parser, which sees every byte before its renderer does and stops
    /// the source at a mismatch. The renderer's decoder does not compute them again.
    package var imageDataCRCsChecked = false

    /// The defaults: RGBA8, straight alpha, 8-bit output, the file's colour space, pixels decoded on
    /// request, default ``Limits``.
    public init() {}
}
