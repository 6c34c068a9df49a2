import CodecCore

/// Ancillary chunks that describe the image (PNG 3rd edition §11.3), each read once, when its
/// chunk has arrived whole, and turned into ``ImageProperties`` on request by assembling what was
/// read. Compressed payloads (iCCP, zTXt, compressed iTXt) are inflated then, within
/// ``Limits/maxMetadataBytes`` for all items together and ``Limits/maxMetadataItems`` items; an
/// item that is corrupt or over a limit is left out rather than failing the image.
struct PNGMetadata {
    var color = ColorDescription()
    var physical: PhysicalPixelDimensions?
    var significantBits: [Int]?
    var background: [Int]?
    var exif: [UInt8]?
    var iccProfile: [UInt8]?
    var texts: [TextEntry] = []
    /// Bytes of ``Limits/maxMetadataBytes`` and items of ``Limits/maxMetadataItems`` still free.
    private var budget: Int
    private var itemsLeft: Int
    private let ignoresChecksums: Bool

    init(limits: Limits, ignoresChecksums: Bool) {
        budget = limits.maxMetadataBytes
        itemsLeft = limits.maxMetadataItems
        self.ignoresChecksums = ignoresChecksums
    }

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
            if beforeIDAT, iccProfile == nil { readICC(&r) }
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
            if exif == nil, takeItem(p.count) { exif = Array(p) }
        case .tEXt, .zTXt, .iTXt:
            readText(type, &r)
        default:
            return false
        }
        return true
    }

    /// iCCP (§11.3.2.3): profile name, NUL, compression method 0, zlib stream.
    private mutating func readICC(_ r: inout ByteReader) {
        guard let name = r.readNulTerminated(), (1...79).contains(name.count), r.readU8() == 0, itemsLeft > 0 else { return }
        let compressed = r.readRest()
        guard let size = measure(compressed, latin1: false), takeItem(size) else { return }
        iccProfile = compressed.withUnsafeBufferPointer { p in
            [UInt8](unsafeUninitializedCapacity: size) { out, initialized in
                initialized = (try? fill(out, from: p, latin1: false)) ?? 0
            }
        }
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
        guard itemsLeft > 0, let keyword = r.readNulTerminated(), (1...79).contains(keyword.count) else { return }
        let key = Self.latin1(keyword)
        switch type {
        case .tEXt:
            addText(key, "", r.readRest(), compressed: false, utf8: false)
        case .zTXt:
            guard r.readU8() == 0 else { return }
            addText(key, "", r.readRest(), compressed: true, utf8: false)
        default:
            guard let flag = r.readU8(), flag <= 1, let method = r.readU8(), method == 0 || flag == 0,
                  let language = r.readNulTerminated(), r.readNulTerminated() != nil else { return }
            addText(key, Self.latin1(language), r.readRest(), compressed: flag == 1, utf8: true)
        }
    }

    /// Adds a text item: Latin-1 (tEXt, zTXt) or UTF-8 (iTXt), inflated if `compressed`. The
    /// string is built in place at its final size (a compressed one is inflated twice, once to
    /// measure it), so a large text is held once; it costs its UTF-8 size of the byte budget.
    private mutating func addText(_ keyword: String, _ language: String, _ payload: ArraySlice<UInt8>,
                                  compressed: Bool, utf8: Bool) {
        let text: String
        if compressed {
            guard let size = measure(payload, latin1: !utf8), takeItem(size) else { return }
            text = payload.withUnsafeBufferPointer { p in
                String(unsafeUninitializedCapacity: size) { out in (try? fill(out, from: p, latin1: !utf8)) ?? 0 }
            }
        } else {
            guard takeItem(utf8 ? payload.count : payload.withUnsafeBufferPointer(Self.latin1Size)) else { return }
            text = payload.withUnsafeBufferPointer { utf8 ? String(decoding: $0, as: UTF8.self) : Self.latin1($0) }
        }
        texts.append(TextEntry(keyword: keyword, text: text, languageTag: language))
    }

    /// Takes one item and `bytes` from the budget, or returns false when they do not fit.
    private mutating func takeItem(_ bytes: Int) -> Bool {
        guard itemsLeft > 0, bytes <= budget else { return false }
        itemsLeft -= 1
        budget -= bytes
        return true
    }

    /// The size of a zlib stream's output (as UTF-8 when `latin1`: bytes from 0x80 take two),
    /// or nil when it is corrupt or passes the budget.
    private func measure(_ compressed: ArraySlice<UInt8>, latin1: Bool) -> Int? {
        var size = 0
        let inflated: Void? = compressed.withUnsafeBufferPointer { p in
            try? Inflater.forEachRun(p, limit: budget, ignoresChecksum: ignoresChecksums) { run in
                size += run.count
                if latin1 { for b in run where b >= 0x80 { size += 1 } }
            }
        }
        return inflated == nil ? nil : size
    }

    /// Inflates `compressed` into `out` (converting Latin-1 to UTF-8 when `latin1`), which
    /// ``measure(_:latin1:)`` sized; returns the bytes written.
    private func fill(_ out: UnsafeMutableBufferPointer<UInt8>, from compressed: UnsafeBufferPointer<UInt8>,
                      latin1: Bool) throws(DecodingError) -> Int {
        var written = 0
        try Inflater.forEachRun(compressed, limit: out.count, ignoresChecksum: ignoresChecksums) { run in
            written = latin1 ? Self.appendLatin1(run, to: out, at: written)
                : Self.append(run, to: out, at: written)
        }
        return written
    }

    private static func append(_ run: UnsafeBufferPointer<UInt8>, to out: UnsafeMutableBufferPointer<UInt8>, at start: Int) -> Int {
        let n = min(run.count, out.count - start)
        for i in 0..<n { out[start + i] = run[i] }
        return start + n
    }

    /// Writes `run` (Latin-1) as UTF-8 from `start`; returns the end.
    private static func appendLatin1(_ run: UnsafeBufferPointer<UInt8>, to out: UnsafeMutableBufferPointer<UInt8>,
                                     at start: Int) -> Int {
        var o = start
        for b in run {
            if b < 0x80 {
                guard o < out.count else { break }
                out[o] = b
                o += 1
            } else {
                guard o + 1 < out.count else { break }
                out[o] = 0xC0 | b >> 6
                out[o + 1] = 0x80 | b & 0x3F
                o += 2
            }
        }
        return o
    }

    /// Fills the metadata fields of `properties`.
    func resolve(into properties: inout ImageProperties) {
        properties.color = color
        properties.physicalPixelDimensions = physical
        properties.significantBits = significantBits
        properties.backgroundColor = background
        properties.exif = exif
        if let exif, let orientation = Orientation.fromEXIF(exif) { properties.orientation = orientation }
        properties.iccProfile = iccProfile
        properties.text = texts
    }

    /// Latin-1 bytes as a string, built at its UTF-8 size (bytes from 0x80 take two).
    static func latin1(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        String(unsafeUninitializedCapacity: latin1Size(bytes)) { appendLatin1(bytes, to: $0, at: 0) }
    }

    /// The UTF-8 size of Latin-1 bytes.
    static func latin1Size(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var size = bytes.count
        for b in bytes where b >= 0x80 { size += 1 }
        return size
    }

    static func latin1(_ bytes: ArraySlice<UInt8>) -> String {
        bytes.withUnsafeBufferPointer { latin1($0) }
    }
}
