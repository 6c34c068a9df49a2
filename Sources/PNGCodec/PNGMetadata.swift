import CodecCore

/// Ancillary chunks that describe the image (PNG 3rd edition §11.3), kept as read and turned
/// into ``ImageProperties`` on request. Compressed payloads (iCCP, zTXt, compressed iTXt) are
/// inflated only then, within ``Limits/maxMetadataBytes`` for all of them together; an item
/// that is corrupt or over the budget is left out rather than failing the image.
struct PNGMetadata {
    /// A text chunk whose text may still be compressed.
    struct PendingText {
        var keyword: String
        var languageTag: String
        var payload: ArraySlice<UInt8>
        var compressed: Bool
        /// iTXt text is UTF-8; tEXt and zTXt text is Latin-1.
        var utf8: Bool
    }

    var color = ColorDescription()
    var physical: PhysicalPixelDimensions?
    var significantBits: [Int]?
    var background: [Int]?
    var exif: [UInt8]?
    var compressedICC: ArraySlice<UInt8>?
    var texts: [PendingText] = []

    /// Reads one ancillary chunk's payload. Returns false for a type it does not know.
    /// Malformed payloads are ignored, as §13.1 allows for ancillary chunks.
    mutating func read(_ type: PNGChunkType, _ p: ArraySlice<UInt8>, header: PNGHeader, beforeIDAT: Bool) -> Bool {
        var r = ByteReader(Array(p))
        switch type {
        case .gAMA:
            if beforeIDAT, color.gamma == nil, p.count == 4, let g = r.readU32(bigEndian: true) { color.gamma = Int(g) }
        case .cHRM:
            if beforeIDAT, color.chromaticities == nil, p.count == 32 {
                color.chromaticities = (0..<8).compactMap { _ in r.readU32(bigEndian: true).map(Int.init) }
            }
        case .sRGB:
            if beforeIDAT, color.sRGBIntent == nil, p.count == 1 { color.sRGBIntent = Int(p[p.startIndex]) }
        case .cICP:
            if beforeIDAT, color.cicp == nil, p.count == 4 { color.cicp = p.map(Int.init) }
        case .iCCP:
            if beforeIDAT, compressedICC == nil { readICC(&r) }
        case .sBIT:
            if beforeIDAT, significantBits == nil { significantBits = p.map(Int.init) }
        case .bKGD:
            if beforeIDAT, background == nil { readBackground(&r, header: header, count: p.count) }
        case .pHYs:
            if beforeIDAT, physical == nil, p.count == 9, let x = r.readU32(bigEndian: true),
               let y = r.readU32(bigEndian: true), let unit = r.readU8() {
                physical = PhysicalPixelDimensions(pixelsPerUnitX: Int(x), pixelsPerUnitY: Int(y), unitIsMetre: unit == 1)
            }
        case .eXIf:
            if exif == nil { exif = Array(p) }
        case .tEXt, .zTXt, .iTXt:
            readText(type, &r)
        default:
            return false
        }
        return true
    }

    /// iCCP (§11.3.2.3): profile name, NUL, compression method 0, zlib stream.
    private mutating func readICC(_ r: inout ByteReader) {
        guard let name = r.readNulTerminated(), (1...79).contains(name.count), r.readU8() == 0 else { return }
        compressedICC = r.readRest()
    }

    /// bKGD (§11.3.3.1): a palette index, a grey level, or an RGB triple.
    private mutating func readBackground(_ r: inout ByteReader, header: PNGHeader, count: Int) {
        switch header.colorType {
        case .indexed: if count == 1, let i = r.readU8() { background = [Int(i)] }
        case .greyscale, .greyscaleAlpha: if count == 2, let g = r.readU16(bigEndian: true) { background = [Int(g)] }
        case .truecolor, .truecolorAlpha:
            if count == 6, let red = r.readU16(bigEndian: true), let g = r.readU16(bigEndian: true),
               let b = r.readU16(bigEndian: true) { background = [Int(red), Int(g), Int(b)] }
        }
    }

    /// tEXt, zTXt and iTXt (§11.3.4): keyword, NUL, then the text in each chunk's layout.
    private mutating func readText(_ type: PNGChunkType, _ r: inout ByteReader) {
        guard let keyword = r.readNulTerminated(), (1...79).contains(keyword.count) else { return }
        let key = Self.latin1(keyword)
        switch type {
        case .tEXt:
            texts.append(PendingText(keyword: key, languageTag: "", payload: r.readRest(), compressed: false, utf8: false))
        case .zTXt:
            guard r.readU8() == 0 else { return }
            texts.append(PendingText(keyword: key, languageTag: "", payload: r.readRest(), compressed: true, utf8: false))
        default:
            guard let flag = r.readU8(), flag <= 1, let method = r.readU8(), method == 0 || flag == 0,
                  let language = r.readNulTerminated(), r.readNulTerminated() != nil else { return }
            texts.append(PendingText(keyword: key, languageTag: Self.latin1(language), payload: r.readRest(),
                                     compressed: flag == 1, utf8: true))
        }
    }

    /// Fills the metadata fields of `properties`, inflating compressed items within `limit` bytes in all.
    func resolve(into properties: inout ImageProperties, limit: Int, ignoresChecksums: Bool) {
        properties.color = color
        properties.physicalPixelDimensions = physical
        properties.significantBits = significantBits
        properties.backgroundColor = background
        properties.exif = exif
        if let exif, let orientation = Orientation.fromEXIF(exif) { properties.orientation = orientation }
        var budget = limit
        func inflate(_ bytes: ArraySlice<UInt8>) -> [UInt8]? {
            guard let out = try? Inflater.inflateAll(bytes, limit: budget, ignoresChecksum: ignoresChecksums) else { return nil }
            budget -= out.count
            return out
        }
        if let compressedICC { properties.iccProfile = inflate(compressedICC) }
        for t in texts {
            let bytes: [UInt8]
            if t.compressed {
                guard let out = inflate(t.payload) else { continue }
                bytes = out
            } else {
                guard t.payload.count <= budget else { continue }
                budget -= t.payload.count
                bytes = Array(t.payload)
            }
            let text = t.utf8 ? String(decoding: bytes, as: UTF8.self) : Self.latin1(bytes[...])
            properties.text.append(TextEntry(keyword: t.keyword, text: text, languageTag: t.languageTag))
        }
    }

    static func latin1(_ bytes: ArraySlice<UInt8>) -> String {
        String(String.UnicodeScalarView(bytes.map { Unicode.Scalar($0) }))
    }
}
