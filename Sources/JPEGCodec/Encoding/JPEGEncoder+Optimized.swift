/// The buffered encodes, from the coefficients of the whole image: a sequential scan with the
/// standard tables or with optimized ones, or libjpeg's progressive scan script. Optimized
/// tables come from a first pass over the scan that only gathers symbol statistics (libjpeg's
/// gather pass), then the scan is written with the optimal tables they give (T.81 K.2).
extension JPEGEncoder {
    /// The optimal tables for the slots `walker`'s components use, from `frequencies`.
    func optimalTables(_ frequencies: JPEGHuffmanFrequencies, walker: JPEGScanWalker, scan: JPEGScanSpec) -> [Int: JPEGHuffmanSpec] {
        var specs: [Int: JPEGHuffmanSpec] = [:]
        for c in walker.components {
            if scan.ss == 0 && scan.ah == 0 && specs[c.dcSlot] == nil { specs[c.dcSlot] = frequencies.optimalTable(slot: c.dcSlot) }
            if scan.se != 0 && specs[c.acSlot] == nil { specs[c.acSlot] = frequencies.optimalTable(slot: c.acSlot) }
        }
        return specs
    }

    /// One sequential scan of every component (cjpeg's default, or `-optimize`).
    func writeSequential(_ planes: [JPEGCoefficientPlane], optimized: Bool, into out: inout [UInt8]) {
        let scan = JPEGScanSpec(components: Array(layout.components.indices))
        let walker = scanWalker(scan)
        var specs = standardTables()
        if optimized {
            var counter = JPEGSymbolCounter()
            var gather = JPEGSequentialEncoder(walker: walker)
            gather.encode(planes: planes, iMCURows: 0..<layout.mcuRows, into: &counter)
            specs = optimalTables(counter.frequencies, walker: walker, scan: scan)
        }
        writeScanHeader(scan, specs: specs, walker: walker, lastRestart: 0, into: &out)
        var sink = JPEGSymbolWriter(writer: JPEGBitWriter(), tables: specs)
        var encoder = JPEGSequentialEncoder(walker: walker)
        encoder.encode(planes: planes, iMCURows: 0..<layout.mcuRows, into: &sink)
        sink.writer.flush()
        out += sink.writer.bytes
    }

    /// `-progressive`: libjpeg's scan script, each scan with its own optimized tables.
    func writeProgressive(_ planes: [JPEGCoefficientPlane], into out: inout [UInt8]) {
        var lastRestart = 0
        for scan in JPEGScanSpec.progressiveScript(componentCount: layout.components.count) {
            let walker = scanWalker(scan)
            var counter = JPEGSymbolCounter()
            var gather = JPEGProgressiveEncoder(walker: walker, scan: scan)
            gather.encode(planes: planes, iMCURows: 0..<layout.mcuRows, into: &counter)
            let specs = optimalTables(counter.frequencies, walker: walker, scan: scan)
            lastRestart = writeScanHeader(scan, specs: specs, walker: walker, lastRestart: lastRestart, into: &out)
            var sink = JPEGSymbolWriter(writer: JPEGBitWriter(), tables: specs)
            var encoder = JPEGProgressiveEncoder(walker: walker, scan: scan)
            encoder.encode(planes: planes, iMCURows: 0..<layout.mcuRows, into: &sink)
            sink.writer.flush()
            out += sink.writer.bytes
        }
    }
}
