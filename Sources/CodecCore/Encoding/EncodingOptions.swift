/// A straight-alpha 8-bit colour.
public struct RGBA8: Sendable, Equatable, Hashable {
    /// Red, 0…255.
    public var r: UInt8
    /// Green, 0…255.
    public var g: UInt8
    /// Blue, 0…255.
    public var b: UInt8
    /// Alpha, 0 (transparent) … 255 (opaque).
    public var a: UInt8

    /// A colour of these samples, opaque unless `a` says otherwise.
    public init(r: UInt8, g: UInt8, b: UInt8, a: UInt8 = 255) {
        self.r = r
        self.g = g
        self.b = b
        self.a = a
    }

    /// Opaque white, the default ``EncodingOptions/backgroundColor``.
    public static let white = RGBA8(r: 255, g: 255, b: 255)
    /// Opaque black.
    public static let black = RGBA8(r: 0, g: 0, b: 0)
}

/// JPEG sampling factors of the luma component (cjpeg's `-sample HxV`); chroma is 1×1.
public struct SamplingFactors: Sendable, Equatable, Hashable {
    /// Horizontal sampling factor, 1…4.
    public var horizontal: Int
    /// Vertical sampling factor, 1…4.
    public var vertical: Int

    /// Factors `horizontal × vertical`, cjpeg's `-sample HxV`; checked by ``EncodingOptions/validate()``.
    public init(horizontal: Int, vertical: Int) {
        self.horizontal = horizontal
        self.vertical = vertical
    }
}

/// How often a JPEG encoder writes restart markers (cjpeg's `-restart N` and `-restart NB`).
public enum RestartInterval: Sendable, Equatable, Hashable {
    /// Every N MCU rows.
    case rows(Int)
    /// Every N MCUs.
    case blocks(Int)
}

/// What an ``ImageEncoding`` encoder is asked to do (SDWebImage's encoding options, ImageIO's
/// destination properties). Fields a format has no use for are ignored by its encoder.
public struct EncodingOptions: Sendable, Equatable {
    /// 0…1 for lossy formats (JPEG, lossy WebP); cjpeg's and cwebp's 0…100 is `quality × 100`.
    public var quality: Double = 0.9
    /// WebP: VP8L instead of VP8.
    public var lossless = false
    /// WebP animations without ``lossless``: each frame the smaller of VP8 and VP8L
    /// (`img2webp -mixed`); without it every frame is VP8.
    public var mixed = false
    /// 0…9: speed against size. 0 is fastest, 9 smallest.
    public var effort = 5
    /// JPEG: progressive scans.
    public var progressive = false
    /// PNG: Adam7; GIF: four-pass interlace.
    public var interlace = false
    /// Times an animation plays; 0 = forever. nil: the source's when transcoding
    /// (``ImageDestination/add(contentsOf:)``), forever otherwise.
    public var loopCount: Int?
    /// The colour alpha is flattened onto where the format has no alpha (JPEG). White by default,
    /// as SDWebImage does.
    public var backgroundColor: RGBA8 = .white
    /// Shrink so that the longer side is at most this many pixels before encoding.
    public var maxPixelSize: Int?
    /// The largest file wanted, in bytes: the highest quality that fits for lossy formats, the
    /// smallest file the encoder can make (best effort) for lossless ones.
    public var maxFileSize: Int?
    /// Encode only the first frame of an animation.
    public var firstFrameOnly = false
    /// Metadata to write.
    public var metadata = ImageMetadata()
    /// GIF: Floyd–Steinberg dithering when colours must be reduced.
    public var dithering = true
    /// WebP: keep the colour of fully transparent pixels (cwebp `-exact`).
    public var exact = false
    /// JPEG: luma sampling factors, horizontal and vertical (cjpeg `-sample HxV`); nil is the
    /// encoder's default (2×2, as cjpeg).
    public var chromaSubsampling: SamplingFactors?
    /// JPEG: one grey component (cjpeg `-grayscale`).
    public var grayscale = false
    /// JPEG: optimized Huffman tables (cjpeg `-optimize`).
    public var optimizeCoding = false
    /// JPEG: restart markers (cjpeg `-restart`).
    public var restartInterval: RestartInterval?
    /// WebP: quality of the alpha plane, 0…1 (cwebp `-alpha_q` ÷ 100).
    public var alphaQuality: Double = 1
    /// WebP lossy: spatial noise shaping, 0…1 (cwebp `-sns` ÷ 100). Above 0 the macroblocks are
    /// grouped by texture into up to four segments, quantized more coarsely where texture masks
    /// the error and more finely where the image is smooth. 0 (the default, one segment) gives
    /// the best PSNR for the size; cwebp's default is 0.5, which looks better and measures
    /// about 0.2 dB lower.
    public var noiseShaping: Double = 0
    /// Threads an encoder may use for one image (1: the caller's only). Default: the
    /// processors online, at most 4. The output is the same bytes for every value. JPEG: a
    /// baseline encode with the standard tables codes on a second thread.
    public var maxThreads = ProcessorCount.online(cappedAt: 4)
    /// Largest frame (``Limits/maxPixels``) and most frames (``Limits/maxFrames``) accepted.
    public var limits = Limits()

    /// The defaults: quality 0.9, effort 5, no interlacing, loop as the source (or forever), white
    /// background, no size limits, every frame, default ``Limits``.
    public init() {}

    /// Throws for a request out of range: quality, alpha quality or noise shaping outside 0…1
    /// (or not a number), effort outside 0…9, maxThreads below 1, a negative or too large loop count, a size of zero or less,
    /// an orientation outside 1…8, sampling factors outside 1…4, a negative restart interval.
    public func validate() throws(EncodingError) {
        guard quality >= 0, quality <= 1 else { throw .invalidRequest("quality must be within 0...1") }
        guard alphaQuality >= 0, alphaQuality <= 1 else { throw .invalidRequest("alpha quality must be within 0...1") }
        guard noiseShaping >= 0, noiseShaping <= 1 else { throw .invalidRequest("noise shaping must be within 0...1") }
        guard (0...9).contains(effort) else { throw .invalidRequest("effort must be within 0...9") }
        guard maxThreads >= 1 else { throw .invalidRequest("maxThreads must be at least 1") }
        if let loopCount, !(0...65535).contains(loopCount) {
            throw .invalidRequest("loop count must be within 0...65535")
        }
        if let maxPixelSize, maxPixelSize <= 0 { throw .invalidRequest("maxPixelSize must be positive") }
        if let maxFileSize, maxFileSize <= 0 { throw .invalidRequest("maxFileSize must be positive") }
        guard (1...8).contains(metadata.orientation) else { throw .invalidRequest("orientation must be within 1...8") }
        if let s = chromaSubsampling, !(1...4).contains(s.horizontal) || !(1...4).contains(s.vertical) {
            throw .invalidRequest("sampling factors must be within 1...4")
        }
        switch restartInterval {
        case .rows(let n)?, .blocks(let n)?:
            guard (0...65535).contains(n) else { throw .invalidRequest("restart interval must be within 0...65535") }
        case nil:
            break
        }
    }
}
