import CodecCore

/// What a lossless transcode does; the defaults are `jpegtran`'s.
public struct JPEGTranscodeOptions: Sendable, Equatable {
    /// The block rearrangement (`-flip`, `-rotate`, `-transpose`, `-transverse`).
    public var transform: JPEGLosslessTransform = .none
    /// Drop the edge blocks the transform cannot move (`-trim`).
    public var trim = false
    /// Apply the transform the EXIF orientation asks for and write orientation 1 into the
    /// copied EXIF; `transform` must then be `.none`.
    public var upright = false
    /// Optimized Huffman tables (`-optimize`); implied by `progressive`.
    public var optimize = false
    /// libjpeg's default progressive scan script (`-progressive`).
    public var progressive = false
    /// Which APPn and COM segments to copy (`-copy`).
    public var copy: JPEGMarkerCopy = .comments
    /// Limits on the source (pixels, bytes held, scans) checked before anything is allocated.
    public var limits = Limits()

    /// jpegtran's defaults: no transform, comments copied, standard Huffman tables, sequential.
    public init() {}
}

/// Lossless JPEG transcoding, byte for byte as libjpeg-turbo 2.1.5's `jpegtran` writes it:
/// the source's quantized coefficients (never an inverse DCT) rearranged by a
/// ``JPEGLosslessTransform``, written with the source's quantization tables and component
/// identifiers, the header `jpeg_copy_critical_parameters` and `jpeg_set_colorspace` choose
/// (JFIF APP0 for grayscale and YCbCr, Adobe APP14 for RGB, CMYK and YCCK), the copied
/// markers, and Annex K Huffman tables, optimized ones, or the default progressive script.
public enum JPEGTranscoder {
    /// The file `bytes` (a complete JPEG) transformed as `options` say. Throws the `DecodingError`
    /// that reading the source meets (`invalidData`, `unsupported`, `truncated`, `limitExceeded`),
    /// and `invalidRequest` for `upright` with another transform, or an output side above 65535.
    public static func transcode(_ bytes: [UInt8], options: JPEGTranscodeOptions = .init()) throws(DecodingError) -> [UInt8] {
        guard !options.upright || options.transform == .none else {
            throw .invalidRequest("JPEG upright transcoding takes no other transform")
        }
        var source = try JPEGSourceImage(bytes, limits: options.limits)
        var markers = JPEGSavedMarkers(bytes, copy: options.copy)
        let frame = source.frame
        let transform = options.upright ? JPEGLosslessTransform.upright(orientation: source.orientation) : options.transform
        let geometry = JPEGTransformGeometry(width: frame.width, height: frame.height,
                                             sampling: frame.components.map { (h: $0.h, v: $0.v) },
                                             transform: transform, trim: options.trim)
        guard geometry.outputWidth <= 65535, geometry.outputHeight <= 65535 else {
            throw .invalidRequest("JPEG transcode output is larger than 65535 pixels")
        }
        // Each source plane is let go once transformed, so that the image is held about once.
        var planes: [JPEGCoefficientPlane] = []
        for c in frame.components.indices {
            planes.append(geometry.apply(&source.planes[c], component: c))
            source.planes[c] = JPEGSourcePlane(blocksWide: 0, blocksHigh: 0, coefficients: [])
        }
        var quantization = source.quantizationTables
        if transform.transposes {
            quantization = quantization.map { $0.map { t in (0..<64).map { t[($0 & 7) * 8 + $0 >> 3] } } }
        }
        if markers.startsWithEXIF, geometry.outputWidth != frame.width || geometry.outputHeight != frame.height {
            markers.updateFirstEXIF { JPEGEXIFEditing.setPixelDimensions(&$0, width: geometry.outputWidth, height: geometry.outputHeight) }
        }
        if options.upright { markers.resetOrientation() }
        let header = JPEGTranscodeHeader(colorSpace: source.colorSpace, markers: markers)
        guard fitsHuffmanCoding(planes) else { throw .invalidData("JPEG coefficient is out of range for Huffman coding") }
        let output = JPEGOutputFrame(width: geometry.outputWidth, height: geometry.outputHeight, progressive: options.progressive,
                                     sampling: geometry.sampling, huffmanTables: header.huffmanTables(componentCount: frame.components.count),
                                     blocksWide: geometry.blocksWide, blocksHigh: geometry.blocksHigh,
                                     mcusPerRow: geometry.mcusPerRow, mcuRows: geometry.mcuRows, planes: planes)
        var out = header.fileHeader()
        out += header.frameHeader(frame: frame, output: output, quantization: quantization, progressive: options.progressive)
        let scans = options.progressive
            ? JPEGTranscodeHeader.progressiveScript(componentCount: frame.components.count, colorSpace: source.colorSpace)
            : [JPEGScanSpec(components: Array(frame.components.indices))]
        for scan in scans {
            try writeScan(scan, of: output, ids: frame.components.map(\.identifier),
                          optimized: options.optimize || options.progressive, into: &out)
        }
        JPEGMarkerWriter.marker(JPEGMarker.eoi, into: &out)
        return out
    }

    /// Writes one scan: its DHT segments (optimized tables from a counting pass, or Annex K's),
    /// SOS, and the entropy-coded data (the encoder's `JPEGSequentialEncoder` and
    /// `JPEGProgressiveEncoder`, as for `cjpeg`).
    private static func writeScan(_ scan: JPEGScanSpec, of frame: JPEGOutputFrame, ids: [UInt8], optimized: Bool,
                                  into out: inout [UInt8]) throws(DecodingError) {
        let components = scan.components.map { c in
            JPEGScanComponent(index: c, h: frame.sampling[c].h, v: frame.sampling[c].v,
                              widthInBlocks: frame.blocksWide[c], heightInBlocks: frame.blocksHigh[c],
                              dcSlot: JPEGHuffmanFrequencies.slot(isAC: false, index: frame.huffmanTables[c]),
                              acSlot: JPEGHuffmanFrequencies.slot(isAC: true, index: frame.huffmanTables[c]))
        }
        // jcmaster's `per_scan_setup`: an interleaved scan's MCU holds at most 10 blocks
        // (JERR_BAD_MCU_SIZE); a source read through non-interleaved scans can ask for more.
        guard components.count == 1 || components.reduce(0, { $0 + $1.h * $1.v }) <= 10 else {
            throw .invalidData("JPEG sampling factors are too large for an interleaved scan")
        }
        let walker = JPEGScanWalker(components: components, frameMCUsPerRow: frame.mcusPerRow, restart: nil)
        let sequential = !frame.progressive
        var used: [Int] = []
        for c in components {
            if scan.ss == 0 && scan.ah == 0 && !used.contains(c.dcSlot) { used.append(c.dcSlot) }
            if scan.se != 0 && !used.contains(c.acSlot) { used.append(c.acSlot) }
        }
        var specs: [Int: JPEGHuffmanSpec] = [:]
        if optimized {
            var counter = JPEGSymbolCounter()
            encode(scan, walker: walker, sequential: sequential, planes: frame.planes, mcuRows: frame.mcuRows, into: &counter)
            // libjpeg's gather passes refuse a DC difference over 11 bits or an AC value over 10.
            for slot in used {
                let counts = counter.frequencies.counts[(slot * 257)..<(slot * 257 + 256)]
                let tooWide = counts.indices.contains { counts[$0] > 0 && (slot < 4 ? $0 - slot * 257 > 11 : ($0 - slot * 257) & 15 > 10) }
                guard !tooWide else { throw .invalidData("JPEG coefficient is out of range for Huffman coding") }
                specs[slot] = counter.frequencies.optimalTable(slot: slot)
            }
        } else {
            for slot in used { specs[slot] = JPEGStandardTables.spec(isAC: slot >= 4, index: slot & 3) }
        }
        for slot in used {
            if let spec = specs[slot] { JPEGMarkerWriter.huffmanTable(isAC: slot >= 4, slot & 3, spec, into: &out) }
        }
        out += JPEGTranscodeHeader.scanHeader(scan, ids: ids, tables: frame.huffmanTables)
        var sink = JPEGSymbolWriter(writer: JPEGBitWriter(), tables: specs)
        encode(scan, walker: walker, sequential: sequential, planes: frame.planes, mcuRows: frame.mcuRows, into: &sink)
        sink.writer.flush()
        out += sink.writer.take()
    }

    private static func encode<Sink: JPEGEntropySink>(_ scan: JPEGScanSpec, walker: JPEGScanWalker, sequential: Bool,
                                                      planes: [JPEGCoefficientPlane], mcuRows: Int, into sink: inout Sink) {
        if sequential {
            var encoder = JPEGSequentialEncoder(walker: walker)
            encoder.encode(planes: planes, iMCURows: 0..<mcuRows, into: &sink)
        } else {
            var encoder = JPEGProgressiveEncoder(walker: walker, scan: scan)
            encoder.encode(planes: planes, iMCURows: 0..<mcuRows, into: &sink)
        }
    }

    /// Whether every AC coefficient's size category is below 16, so that its run/size symbol is
    /// one of the 256 (a magnitude of 32768, which only corrupt data gives, is refused; libjpeg
    /// would index past its code table). Larger categories than the code has are written as
    /// libjpeg writes them without optimization: a code of length zero, then the bits.
    static func fitsHuffmanCoding(_ planes: [JPEGCoefficientPlane]) -> Bool {
        planes.allSatisfy { plane in
            plane.coefficients.withUnsafeBufferPointer { p in
                var i = 0
                while i < p.count {
                    for k in 1..<64 where p[i &+ k] == Int16.min { return false }
                    i &+= 64
                }
                return true
            }
        }
    }
}

/// The frame a transcode writes: size, per component its sampling, Huffman table number, real
/// blocks, and planes padded to whole MCUs.
struct JPEGOutputFrame {
    let width: Int
    let height: Int
    let progressive: Bool
    let sampling: [(h: Int, v: Int)]
    let huffmanTables: [Int]
    let blocksWide: [Int]
    let blocksHigh: [Int]
    let mcusPerRow: Int
    let mcuRows: Int
    let planes: [JPEGCoefficientPlane]
}
