/// The signatures of the formats this library recognises but does not decode, so that a
/// source can refuse them by name (`unsupported`) rather than as an unknown type.
///
/// Each test reads at most ``CoderRegistry/sniffLength`` bytes and, like
/// ``ImageCoder/sniff(_:)``, answers "need more data" while the bytes so far agree with a
/// signature and the input is still open.
enum FormatSignatures {
    enum Answer: Equatable {
        case format(ImageFormat, DecodingError)
        case needMoreData
        case noMatch
    }

    /// The named format `prefix` starts, if any.
    static func sniff(_ prefix: UnsafeBufferPointer<UInt8>, isFinal: Bool) -> Answer {
        let tests: [(UnsafeBufferPointer<UInt8>) -> SniffResult] = [
            { tiff($0) }, { bmp($0) }, { icon($0, type: 1) }, { icon($0, type: 2) },
            { isoMedia($0) }, { jpeg2000($0) }, { jpegXL($0) },
            { psd($0) }, { .comparing($0, with: Array("%PDF-".utf8)) }, { svg($0) },
        ]
        let formats: [ImageFormat] = [.tiff, .bmp, .ico, .cur, .heif, .jpeg2000, .jpegXL, .psd, .pdf, .svg]
        var waiting = false
        for (test, format) in zip(tests, formats) {
            switch test(prefix) {
            case .match:
                let named = format == .heif ? isoMediaBrand(prefix) ?? .heif : format
                return .format(named, refusal(named))
            case .needMoreData:
                waiting = true
            case .noMatch:
                continue
            }
        }
        return waiting && !isFinal && prefix.count < CoderRegistry.sniffLength ? .needMoreData : .noMatch
    }

    /// The error a source gives for a recognised format it does not decode.
    static func refusal(_ format: ImageFormat) -> DecodingError {
        switch format {
        case .tiff: .unsupported("TIFF is not supported")
        case .bmp: .unsupported("BMP is not supported")
        case .ico: .unsupported("ICO is not supported")
        case .cur: .unsupported("CUR is not supported")
        case .heic: .unsupported("HEIC is not supported")
        case .avif: .unsupported("AVIF is not supported")
        case .jpeg2000: .unsupported("JPEG 2000 is not supported")
        case .jpegXL: .unsupported("JPEG XL is not supported")
        case .psd: .unsupported("PSD is not supported")
        case .pdf: .unsupported("PDF is not supported")
        case .svg: .unsupported("SVG is not supported")
        default: .unsupported("HEIF is not supported")
        }
    }

    /// TIFF 6.0 §2 header: byte order `II` or `MM`, then 42 in that order; BigTIFF has 43.
    static func tiff(_ p: UnsafeBufferPointer<UInt8>) -> SniffResult {
        any(p, [[0x49, 0x49, 0x2A, 0x00], [0x4D, 0x4D, 0x00, 0x2A], [0x49, 0x49, 0x2B, 0x00], [0x4D, 0x4D, 0x00, 0x2B]])
    }

    /// BITMAPFILEHEADER `BM`, then at byte 14 the size of a known DIB header (core 12, info 40,
    /// the v2/v3 info headers 52 and 56, OS/2 64, v4 108, v5 124): `BM` alone is too short a
    /// signature to trust.
    static func bmp(_ p: UnsafeBufferPointer<UInt8>) -> SniffResult {
        let magic = SniffResult.comparing(p, with: [0x42, 0x4D])
        guard magic == .match else { return magic }
        guard p.count >= 18 else { return .needMoreData }
        let size = Int(p[14]) | Int(p[15]) << 8 | Int(p[16]) << 16 | Int(p[17]) << 24
        return [12, 40, 52, 56, 64, 108, 124].contains(size) ? .match : .noMatch
    }

    /// ICONDIR: reserved 0, type 1 (icon) or 2 (cursor), and at least one image.
    static func icon(_ p: UnsafeBufferPointer<UInt8>, type: UInt8) -> SniffResult {
        let magic = SniffResult.comparing(p, with: [0, 0, type, 0])
        guard magic == .match else { return magic }
        guard p.count >= 6 else { return .needMoreData }
        return p[4] != 0 || p[5] != 0 ? .match : .noMatch
    }

    /// Whether `p` starts an `ftyp` box of an image brand (``isoMediaBrand(_:)``), waiting for
    /// the whole box (within the sniffing window).
    static func isoMedia(_ p: UnsafeBufferPointer<UInt8>) -> SniffResult {
        for (i, byte) in "ftyp".utf8.enumerated() where 4 + i < p.count && p[4 + i] != byte { return .noMatch }
        guard p.count >= 16 else { return .needMoreData }
        let size = Int(p[0]) << 24 | Int(p[1]) << 16 | Int(p[2]) << 8 | Int(p[3])
        if size > p.count, p.count < CoderRegistry.sniffLength { return .needMoreData }
        return isoMediaBrand(p) == nil ? .noMatch : .match
    }

    /// ISO/IEC 14496-12 §4.3 `ftyp` box: the major brand, then the compatible brands up to the
    /// box's end. AVIF (`avif`, `avis`) first, then HEIC (the HEVC brands of ISO/IEC 23008-12
    /// Annex B), then any HEIF (`mif1`, `msf1`, `mif2`); nil for other files (MP4 video, QuickTime).
    static func isoMediaBrand(_ p: UnsafeBufferPointer<UInt8>) -> ImageFormat? {
        guard p.count >= 16, p[4] == 0x66, p[5] == 0x74, p[6] == 0x79, p[7] == 0x70 else { return nil }
        let size = Int(p[0]) << 24 | Int(p[1]) << 16 | Int(p[2]) << 8 | Int(p[3])
        guard size >= 16, size % 4 == 0 else { return nil }
        let end = min(size, p.count)
        var brands = [brand(p, at: 8)]
        for offset in stride(from: 16, to: end - 3, by: 4) { brands.append(brand(p, at: offset)) }
        if brands.contains(where: { ["avif", "avis"].contains($0) }) { return .avif }
        let hevc = ["heic", "heix", "heim", "heis", "hevc", "hevx", "hevm", "hevs"]
        if brands.contains(where: { hevc.contains($0) }) { return .heic }
        if brands.contains(where: { ["mif1", "msf1", "mif2"].contains($0) }) { return .heif }
        return nil
    }

    private static func brand(_ p: UnsafeBufferPointer<UInt8>, at offset: Int) -> String {
        String(decoding: p[offset..<(offset + 4)], as: UTF8.self)
    }

    /// ITU T.800 Annex I: the JP2 signature box; Annex A: a raw codestream's SOC then SIZ.
    static func jpeg2000(_ p: UnsafeBufferPointer<UInt8>) -> SniffResult {
        any(p, [[0, 0, 0, 0x0C, 0x6A, 0x50, 0x20, 0x20, 0x0D, 0x0A, 0x87, 0x0A], [0xFF, 0x4F, 0xFF, 0x51]])
    }

    /// ISO/IEC 18181-1 §9.1: the codestream signature FF 0A; 18181-2 §3: the container's
    /// `JXL ` signature box.
    static func jpegXL(_ p: UnsafeBufferPointer<UInt8>) -> SniffResult {
        any(p, [[0xFF, 0x0A], [0, 0, 0, 0x0C, 0x4A, 0x58, 0x4C, 0x20, 0x0D, 0x0A, 0x87, 0x0A]])
    }

    /// Photoshop file header: `8BPS`, version 1 (PSD) or 2 (PSB).
    static func psd(_ p: UnsafeBufferPointer<UInt8>) -> SniffResult {
        any(p, [[0x38, 0x42, 0x50, 0x53, 0, 1], [0x38, 0x42, 0x50, 0x53, 0, 2]])
    }

    /// The first of `signatures` that `p` starts with.
    private static func any(_ p: UnsafeBufferPointer<UInt8>, _ signatures: [[UInt8]]) -> SniffResult {
        let results = signatures.map { SniffResult.comparing(p, with: $0) }
        if results.contains(.match) { return .match }
        return results.contains(.needMoreData) ? .needMoreData : .noMatch
    }
}
