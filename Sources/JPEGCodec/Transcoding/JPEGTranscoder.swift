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
    public var limits = Limits()

    public init() {}
}

/// Lossless JPEG transcoding, byte for byte as libjpeg-turbo 2.1.5's `jpegtran` writes it:
/// the source's quantized coefficients (never an inverse DCT) rearranged by a
/// ``JPEGLosslessTransform``, written with the source's quantization tables and component
/// identifiers, the header `jpeg_copy_critical_parameters` and `jpeg_set_colorspace` choose
/// (JFIF APP0 for grayscale and YCbCr, Adobe APP14 for RGB, CMYK and YCCK), the copied
/// markers, and Annex K Huffman tables, optimized ones, or the default progressive script.
public enum JPEGTranscoder {
    public static func transcode(_ bytes: [UInt8], options: JPEGTranscodeOptions = .init()) throws(DecodingError) -> [UInt8] {
        guard !options.upright || options.transform == .none else {
            throw .invalidRequest("JPEG upright transcoding takes no other transform")
        }
        let source = try JPEGSourceImage(bytes, limits: options.limits)
        var markers = JPEGSavedMarkers(bytes, copy: options.copy)
        let frame = source.frame
        let transform = options.upright ? JPEGLosslessTransform.upright(orientation: source.orientation) : options.transform
        let geometry = JPEGTransformGeometry(width: frame.width, height: frame.height,
                                             sampling: frame.components.map { (h: $0.h, v: $0.v) },
                                             transform: transform, trim: options.trim)
        guard geometry.outputWidth <= 65535, geometry.outputHeight <= 65535 else {
            throw .invalidRequest("JPEG transcode output is larger than 65535 pixels")
        }
        let planes = frame.components.indices.map { geometry.apply(source.planes[$0], component: $0) }
        var quantization = source.quantizationTables
        if transform.transposes {
            quantization = quantization.map { $0.map { t in (0..<64).map { t[($0 & 7) * 8 + $0 >> 3] } } }
        }
        if markers.startsWithEXIF, geometry.outputWidth != frame.width || geometry.outputHeight != frame.height {
            markers.updateFirstEXIF { JPEGEXIFEditing.setPixelDimensions(&$0, width: geometry.outputWidth, height: geometry.outputHeight) }
        }
        if options.upright { markers.resetOrientation() }
        let header = JPEGTranscodeHeader(colorSpace: source.colorSpace, markers: markers)
        let output = JPEGOutputFrame(width: geometry.outputWidth, height: geometry.outputHeight, sampling: geometry.sampling,
                                     huffmanTables: header.huffmanTables(componentCount: frame.components.count),
                                     planes: planes)
        var out = header.fileHeader()
        out += header.frameHeader(frame: frame, output: output, quantization: quantization, progressive: options.progressive)
        let scans = options.progressive
            ? JPEGTranscodeHeader.progressiveScript(componentCount: frame.components.count, colorSpace: source.colorSpace)
            : [JPEGScanSpec(components: Array(frame.components.indices), ss: 0, se: 63, ah: 0, al: 0)]
        for scan in scans {
            try writeScan(scan, of: output, ids: frame.components.map(\.identifier),
                          optimized: options.optimize || options.progressive, into: &out)
        }
        out += [0xFF, JPEGMarker.eoi]
        return out
    }

    /// Writes one scan: its DHT segments (optimized tables from a counting pass, or Annex K's),
    /// SOS, and the entropy-coded data.
    private static func writeScan(_ scan: JPEGScanSpec, of frame: JPEGOutputFrame, ids: [UInt8], optimized: Bool,
                                  into out: inout [UInt8]) throws(DecodingError) {
        var used: [Int] = []
        for c in scan.components {
            let t = frame.huffmanTables[c]
            if scan.ss == 0 && scan.ah == 0 && !used.contains(t) { used.append(t) }
            if scan.se != 0 && !used.contains(4 + t) { used.append(4 + t) }
        }
        var specs = [JPEGHuffmanSpec?](repeating: nil, count: 8)
        if optimized {
            var counter = JPEGScanEncoder(sink: JPEGSymbolCounter(), scan: scan, tables: frame.huffmanTables)
            counter.encode(frame)
            guard !counter.overflow else { throw .invalidData("JPEG coefficient is out of range for Huffman coding") }
            for t in used { specs[t] = JPEGHuffmanEncoding.optimalTable(counter.sink.frequencies(t)) }
        } else {
            for t in used { specs[t] = JPEGStandardTables.spec(isAC: t >= 4, index: t & 3) }
        }
        for t in used {
            guard let spec = specs[t] else { throw .invalidData("JPEG transcode has no Huffman table") }
            out += JPEGTranscodeHeader.huffmanSegment(spec, isAC: t >= 4, index: t & 3)
        }
        out += JPEGTranscodeHeader.scanHeader(scan, ids: ids, tables: frame.huffmanTables)
        let codes = specs.map { $0.map(JPEGHuffmanEncoding.codes) }
        var held: [UInt8] = []
        swap(&held, &out)
        var encoder = JPEGScanEncoder(sink: JPEGSymbolWriter(writer: JPEGBitWriter(appendingTo: held), tables: codes),
                                      scan: scan, tables: frame.huffmanTables)
        held = []
        encoder.encode(frame)
        guard !encoder.overflow, !encoder.sink.missingCode else {
            throw .invalidData("JPEG coefficient is out of range for Huffman coding")
        }
        encoder.sink.writer.flush()
        swap(&out, &encoder.sink.writer.bytes)
    }
}
