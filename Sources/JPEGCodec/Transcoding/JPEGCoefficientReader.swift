import CodecCore

/// A whole JPEG file read to its quantized coefficients, without an inverse DCT: what
/// libjpeg's `jpeg_read_coefficients` gives `jpegtran`. Every scan is entropy-decoded into one
/// plane per component, padded to whole MCUs (the padding blocks of interleaved scans hold
/// what the file codes there; the rest are zero, as in libjpeg's pre-zeroed arrays).
struct JPEGSourceImage {
    let frame: JPEGFrameHeader
    let colorSpace: JPEGColorSpace
    /// The quantization tables in the four slots when the file ended, natural order
    /// (libjpeg's `quant_tbl_ptrs`, which `jpeg_copy_critical_parameters` copies).
    let quantizationTables: [[UInt16]?]
    var planes: [JPEGSourcePlane]
    /// The EXIF orientation (1–8) of the first EXIF APP1, 1 without one.
    let orientation: Int

    /// Reads `bytes`, a complete file; a file that ends early gives what its scans hold (the
    /// missing blocks zero), as libjpeg does after its warning.
    init(_ bytes: [UInt8], limits: Limits) throws(DecodingError) {
        var options = DecodingOptions()
        options.limits = limits
        let input = InputBuffer(bytes, isFinal: true)
        var container = JPEGContainer(options: options)
        try container.parse(input)
        guard let frame = container.frame, let first = container.scans.first else {
            throw .invalidData("JPEG has no frame or no scan")
        }
        self.frame = frame
        colorSpace = JPEGColorSpace(frame: frame, metadata: container.metadata)
        orientation = container.metadata.exif.flatMap(Orientation.fromEXIF) ?? 1
        // libjpeg cannot write a component whose table slot was redefined after its first scan.
        for (c, latched) in container.latchedQuantization.enumerated() {
            let slot = container.quantizationTables[frame.components[c].quantizationTable]
            guard slot != nil, latched == nil || latched == slot else {
                throw .unsupported("JPEG quantization table slot was redefined after a component used it")
            }
        }
        quantizationTables = container.quantizationTables
        var coefficients = JPEGCoefficients(frame: frame, mcuRowOnly: false)
        // A file whose first scan is sequential and holds every component has only that scan.
        let multiScan = frame.isProgressive || first.header.components.count < frame.components.count
        let scans = multiScan ? container.scans[...] : container.scans.prefix(1)
        for scan in scans {
            var decoder = try JPEGScanDecoder(frame: frame, scan: scan)
            _ = decoder.decode(input, into: &coefficients, until: decoder.mcuCount)
        }
        planes = frame.components.indices.map { c in
            JPEGSourcePlane(blocksWide: coefficients.grid.blocksPerLine[c], blocksHigh: coefficients.grid.blockRows[c],
                            coefficients: coefficients.storage[c])
        }
    }
}
