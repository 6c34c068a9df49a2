/// A JPEG encoder whose files are byte for byte those of libjpeg-turbo 2.1.5's `cjpeg` with the
/// same settings (`JPEGEncoderSettings`), fed rows as they come.
///
/// The pipeline is libjpeg's: colour conversion and downsampling (`JPEGPreprocessor`), forward
/// DCT and quantization (`JPEGBlockTransform`), Huffman coding (`JPEGSequentialEncoder`,
/// `JPEGProgressiveEncoder`), markers (`JPEGMarkerWriter`). A baseline encode with the standard
/// tables writes each row of MCUs as soon as its rows are in and holds one row of MCUs; with
/// optimized tables or progressive scans the quantized coefficients of the whole image are
/// kept (2 bytes each) and written by `finish`. With `keepsTransform` the unquantized DCT
/// output is kept instead, and ``finish(quality:)`` or ``finish(fitting:)`` quantize it for
/// any quality without redoing colour conversion, downsampling or the DCT.
public struct JPEGEncoder {
    let layout: JPEGFrameLayout
    let settings: JPEGEncoderSettings
    let metadata: JPEGEncoderMetadata
    let keepsTransform: Bool
    private var preprocessor: JPEGPreprocessor
    private let transform: JPEGBlockTransform
    /// Quantized blocks (or, with `keepsTransform`, the DCT output) per component; empty for a
    /// streaming encode, whose rows of MCUs go through `streaming`'s planes.
    private var planes: [JPEGCoefficientPlane]
    /// With `keepsTransform`: the quantized planes of the last quality finished, re-used.
    private var quantizedPlanes: [JPEGCoefficientPlane]?
    /// The sequential scan being written as rows come (standard tables only).
    private var streaming: JPEGStreamingScan?
    private var header: [UInt8] = []
    private var rowsWritten = 0
    private var mcuRow = 0
    private var finished = false

    /// `components`: bytes per input pixel — 1 gray, 3 RGB, 4 RGBA (alpha flattened on
    /// `metadata.background`). `maxThreads` ≥ 2 lets a baseline encode with the standard
    /// tables Huffman code on a second thread (`JPEGStreamingScan`); the bytes are the same.
    public init(width: Int, height: Int, components: Int, settings: JPEGEncoderSettings = .init(),
                metadata: JPEGEncoderMetadata = .init(), keepsTransform: Bool = false,
                maxThreads: Int = 1) throws(JPEGEncoderError) {
        guard [1, 3, 4].contains(components) else { throw .invalidComponents }
        if case .rows(let n)? = settings.restart, !(0...65535).contains(n) { throw .invalidRestart }
        if case .mcus(let n)? = settings.restart, !(0...65535).contains(n) { throw .invalidRestart }
        let colour = components != 1 && !settings.grayscale
        layout = try JPEGFrameLayout(width: width, height: height, colour: colour,
                                     lumaSampling: settings.lumaSampling ?? (colour ? (2, 2) : (1, 1)))
        self.settings = settings
        self.metadata = metadata
        self.keepsTransform = keepsTransform
        let tables = settings.quantizationTables()
        preprocessor = JPEGPreprocessor(layout: layout, inputStride: components, background: metadata.background)
        transform = JPEGBlockTransform(layout: layout, tables: keepsTransform ? nil : tables)
        let buffered = settings.optimizeHuffman || settings.progressive || keepsTransform
        planes = layout.components.map {
            JPEGCoefficientPlane(blocksPerRow: $0.paddedWidthInBlocks, blockRows: buffered ? $0.paddedHeightInBlocks : $0.v)
        }
        if !buffered {
            header = fileHeader(tables: tables)
            let specs = standardTables()
            let scan = JPEGScanSpec(components: Array(layout.components.indices))
            let walker = scanWalker(scan)
            writeScanHeader(scan, specs: specs, walker: walker, lastRestart: 0, into: &header)
            // (With one row of MCUs there is nothing to overlap.)
            streaming = JPEGStreamingScan(encoder: JPEGSequentialEncoder(walker: walker),
                                          sink: JPEGSymbolWriter(writer: JPEGBitWriter(), tables: specs),
                                          planes: planes, transform: transform, preprocessor: preprocessor,
                                          maxThreads: layout.mcuRows > 1 ? maxThreads : 1)
            planes = []
        }
    }

    /// Encodes whole rows: `pixels` holds a multiple of width × components bytes.
    public mutating func write(rows pixels: UnsafeBufferPointer<UInt8>) throws(JPEGEncoderError) {
        let rowBytes = layout.width * preprocessor.inputStride
        guard !pixels.isEmpty else { return }
        guard !finished, pixels.count % rowBytes == 0, rowsWritten + pixels.count / rowBytes <= layout.height,
              let base = pixels.baseAddress else { throw .invalidRows }
        for r in 0..<(pixels.count / rowBytes) {
            preprocessor.add(row: base + r * rowBytes)
            rowsWritten += 1
            if preprocessor.isFull || rowsWritten == layout.height { completeMCURow() }
        }
    }

    /// The bytes of the file made so far and not yet taken (a streaming encode's headers and
    /// rows of MCUs; nothing for a buffered one before `finish`).
    public mutating func takeOutput() -> [UInt8] {
        var bytes = header
        header.removeAll(keepingCapacity: true)
        bytes += streaming?.take() ?? []
        return bytes
    }

    /// Ends the file at the settings' quality; returns the bytes not yet taken.
    public mutating func finish() throws(JPEGEncoderError) -> [UInt8] {
        try finish(quality: settings.quality)
    }

    /// Ends the file at `quality` (which differs from the settings' only with `keepsTransform`).
    /// After a buffered encode, may be called again for another quality.
    public mutating func finish(quality: Int) throws(JPEGEncoderError) -> [UInt8] {
        guard rowsWritten == layout.height else { throw .missingRows }
        if finished && streaming != nil { return [] }
        finished = true
        if let streaming {
            var bytes = header
            header = []
            bytes += streaming.finish()
            JPEGMarkerWriter.marker(JPEGMarker.eoi, into: &bytes)
            return bytes
        }
        var qualitySettings = settings
        qualitySettings.quality = keepsTransform ? quality : settings.quality
        let tables = qualitySettings.quantizationTables()
        var quantized = planes
        if keepsTransform {
            // The last quality's planes, uniquely held while they are overwritten.
            quantized = quantizedPlanes ?? planes
            quantizedPlanes = nil
            JPEGBlockTransform.quantize(planes, into: &quantized, layout: layout, tables: tables)
            quantizedPlanes = quantized
        }
        var bytes = fileHeader(tables: tables)
        if settings.progressive {
            writeProgressive(quantized, into: &bytes)
        } else {
            writeSequential(quantized, optimized: settings.optimizeHuffman, into: &bytes)
        }
        JPEGMarkerWriter.marker(JPEGMarker.eoi, into: &bytes)
        return bytes
    }

    /// The file at the highest quality q ≤ Q (the settings' quality) whose size is at most
    /// `maxFileSize`, with q: exactly the highest, also where file size is not monotonic in
    /// quality (below quality 25 the tables need 16-bit DQT entries, 64 bytes more per table,
    /// so a quality in the low 20s can be larger than one in the 30s; a coefficient that rounds
    /// to zero can lengthen a run's code). No bisection can promise that, so qualities are
    /// tried from Q downwards and the first that fits is the answer: Q − q + 1 tries, each of
    /// which only quantizes the kept DCT output and entropy codes. When no quality fits,
    /// quality 1's file. Needs `keepsTransform` (otherwise the settings' quality only).
    public mutating func finish(fitting maxFileSize: Int) throws(JPEGEncoderError) -> (quality: Int, bytes: [UInt8]) {
        let top = min(max(settings.quality, 1), 100)
        var quality = top
        var bytes = try finish(quality: top)
        guard keepsTransform else { return (top, bytes) }
        while bytes.count > maxFileSize && quality > 1 {
            quality -= 1
            bytes = try finish(quality: quality)
        }
        return (quality, bytes)
    }

    private mutating func completeMCURow() {
        preprocessor.finishMCURow()
        if let streaming {
            var row = streaming.acquireRow()
            for c in row.planes.indices { row.planes[c].firstBlockRow = mcuRow * layout.components[c].v }
            for unit in streaming.callerUnits {
                preprocessor.withSamples(component: unit.component) { samples, rowLength in
                    transform.transform(component: unit.component, blockRows: unit.blockRows,
                                        samples: samples + 8 * rowLength * unit.blockRows.lowerBound, rowLength: rowLength,
                                        mcuRow: mcuRow, into: &row.planes[unit.component])
                }
            }
            preprocessor.copySamples(streaming.deferredUnits, into: &row.samples)
            row.mcuRow = mcuRow
            streaming.add(consume row)
        } else {
            transform.transform(preprocessor, mcuRow: mcuRow, into: &planes)
        }
        mcuRow += 1
    }
}
