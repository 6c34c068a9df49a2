import CodecCore

/// What a JPEG encode is asked for, in cjpeg's terms (libjpeg's `jcparam.c` defaults: quality
/// 75, luma sampled 2×2 in colour, Huffman tables of Annex K, no restart markers).
public struct JPEGEncoderSettings: Sendable, Equatable {
    /// How often restart markers are written: cjpeg's `-restart N` (MCU rows) and `-restart NB` (MCUs).
    public enum Restart: Sendable, Equatable {
        /// A restart marker every N rows of MCUs (`-restart N`).
        case rows(Int)
        /// A restart marker every N MCUs (`-restart NB`).
        case mcus(Int)
    }

    /// cjpeg's `-quality`: 1…100; values outside are clamped as `jpeg_quality_scaling` does.
    public var quality: Int
    /// Luma sampling factors (cjpeg's `-sample HxV`, each 1…4); chroma is always 1×1. Nil:
    /// libjpeg's default, 2×2 for colour output and 1×1 for gray.
    public var lumaSampling: (horizontal: Int, vertical: Int)?
    /// One-component output from colour input (cjpeg's `-grayscale`); gray input is always gray.
    public var grayscale: Bool
    /// Two-pass Huffman tables (cjpeg's `-optimize`); implied by `progressive`.
    public var optimizeHuffman: Bool
    /// libjpeg's default progressive scan script (cjpeg's `-progressive`).
    public var progressive: Bool
    /// Restart markers (cjpeg's `-restart`); nil writes none.
    public var restart: Restart?
    /// Limit quantizers to 255 (cjpeg's `-baseline`); off, as cjpeg's `-quality` leaves it.
    public var forceBaseline: Bool

    /// Settings with cjpeg's defaults for everything not given.
    public init(quality: Int = 75, lumaSampling: (horizontal: Int, vertical: Int)? = nil, grayscale: Bool = false,
                optimizeHuffman: Bool = false, progressive: Bool = false, restart: Restart? = nil,
                forceBaseline: Bool = false) {
        self.quality = quality
        self.lumaSampling = lumaSampling
        self.grayscale = grayscale
        self.optimizeHuffman = optimizeHuffman
        self.progressive = progressive
        self.restart = restart
        self.forceBaseline = forceBaseline
    }

    /// Equal when every setting is (the sampling factors compared one by one).
    public static func == (a: Self, b: Self) -> Bool {
        a.quality == b.quality && a.lumaSampling?.horizontal == b.lumaSampling?.horizontal
            && a.lumaSampling?.vertical == b.lumaSampling?.vertical && a.grayscale == b.grayscale
            && a.optimizeHuffman == b.optimizeHuffman && a.progressive == b.progressive
            && a.restart == b.restart && a.forceBaseline == b.forceBaseline
    }

    /// libjpeg's `jpeg_quality_scaling`: a percentage applied to the Annex K tables.
    static func scaleFactor(quality: Int) -> Int {
        let q = min(max(quality, 1), 100)
        return q < 50 ? 5000 / q : 200 - q * 2
    }

    /// libjpeg's `jpeg_add_quant_table`: `table` scaled by `scale` percent, rounded, kept in
    /// 1…32767 (1…255 with `forceBaseline`), in natural order.
    static func scaledTable(_ table: [Int], scale: Int, forceBaseline: Bool) -> [UInt16] {
        table.map { base in
            var value = (base * scale + 50) / 100
            value = min(max(value, 1), forceBaseline ? 255 : 32767)
            return UInt16(value)
        }
    }

    /// The quantization tables for this quality: 0 luminance, 1 chrominance.
    func quantizationTables() -> [[UInt16]] {
        let scale = Self.scaleFactor(quality: quality)
        return [Self.scaledTable(JPEGStandardQuantization.luminance, scale: scale, forceBaseline: forceBaseline),
                Self.scaledTable(JPEGStandardQuantization.chrominance, scale: scale, forceBaseline: forceBaseline)]
    }
}

/// The encoder's request errors and limits, before any allocation.
public enum JPEGEncoderError: Error, Sendable, Equatable {
    /// Width or height is 0 or above 65500 (libjpeg's JPEG_MAX_DIMENSION).
    case invalidSize
    /// Input components other than 1 (gray), 3 (RGB) or 4 (RGBA, alpha flattened).
    case invalidComponents
    /// A sampling factor outside 1…4, or an MCU of more than 10 blocks (T.81 B.2.3).
    case invalidSampling
    /// A restart interval outside 0…65535.
    case invalidRestart
    /// More rows written than the image has, or rows of the wrong length.
    case invalidRows
    /// `finish` before every row was written.
    case missingRows
}
