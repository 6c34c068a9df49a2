/// The buffered encodes: each scan first gathers symbol statistics over the kept coefficients
/// (libjpeg's gather pass), then is written with the optimal tables they give (T.81 K.2).
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

    /// `-optimize`: one sequential scan with optimized tables.
    mutating func writeOptimizedSequential() {
        let scan = JPEGScanSpec(components: Array(layout.components.indices))
        var counter = JPEGSymbolCounter()
        var gather = JPEGSequentialEncoder(walker: scanWalker(scan))
        gather.encode(planes: planes, iMCURows: 0..<layout.mcuRows, into: &counter)
        let walker = scanWalker(scan)
        let specs = optimalTables(counter.frequencies, walker: walker, scan: scan)
        var out: [UInt8] = []
        writeScanHeader(scan, specs: specs, walker: walker, lastRestart: 0, into: &out)
        var sink = JPEGSymbolWriter(writer: JPEGBitWriter(), tables: specs)
        var encoder = JPEGSequentialEncoder(walker: walker)
        encoder.encode(planes: planes, iMCURows: 0..<layout.mcuRows, into: &sink)
        sink.writer.flush()
        header += out + sink.writer.bytes
    }

    /// `-progressive`: libjpeg's scan script, each scan with its own optimized tables.
    mutating func writeProgressive() {
        var out: [UInt8] = []
        var lastRestart = 0
        for scan in JPEGScanSpec.progressiveScript(componentCount: layout.components.count) {
            var counter = JPEGSymbolCounter()
            var gather = JPEGProgressiveEncoder(walker: scanWalker(scan), scan: scan)
            gather.encode(planes: planes, iMCURows: 0..<layout.mcuRows, into: &counter)
            let walker = scanWalker(scan)
            let specs = optimalTables(counter.frequencies, walker: walker, scan: scan)
            lastRestart = writeScanHeader(scan, specs: specs, walker: walker, lastRestart: lastRestart, into: &out)
            var sink = JPEGSymbolWriter(writer: JPEGBitWriter(), tables: specs)
            var encoder = JPEGProgressiveEncoder(walker: walker, scan: scan)
            encoder.encode(planes: planes, iMCURows: 0..<layout.mcuRows, into: &sink)
            sink.writer.flush()
            out += sink.writer.bytes
        }
        header += out
    }
}
