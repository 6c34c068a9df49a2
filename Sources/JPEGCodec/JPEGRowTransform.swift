/// One MCU row of every component's samples, as the inverse DCT leaves them: component `c`'s
/// `rowsPerMCURow[c]` sample rows of `strides[c]` bytes (``JPEGRowTransform``). A value that
/// changes hands whole between the thread that transforms a row and the one that upsamples it.
struct JPEGSampleRows: Sendable {
    var planes: [[UInt8]]
}

/// The inverse DCT of one MCU row (T.81 A.3.3): each block of each component dequantized and
/// transformed, at its scaled size (``JPEGOutputGeometry/idctSizes``), into that component's
/// sample rows of the MCU row. It holds no state but the quantization tables latched so far,
/// so a pipeline's two threads may each transform rows with a copy of it.
struct JPEGRowTransform: Sendable {
    let frame: JPEGFrameHeader
    let idctSizes: [Int]
    /// Per component, the bytes of a sample row (its blocks per line × IDCT size) and the
    /// sample rows of one MCU row (`v` × IDCT size).
    let strides: [Int]
    let rowsPerMCURow: [Int]
    /// Per component, the dequantization multipliers as libjpeg-turbo keeps them (Int16), from
    /// the table latched at the component's first scan.
    private(set) var quantization: [[Int16]] = []

    init(frame: JPEGFrameHeader, geometry: JPEGOutputGeometry, quantization: [[UInt16]?]) {
        self.frame = frame
        idctSizes = geometry.idctSizes
        strides = frame.components.indices.map { frame.components[$0].blocksPerLine * geometry.idctSizes[$0] }
        rowsPerMCURow = frame.components.indices.map { frame.components[$0].v * geometry.idctSizes[$0] }
        latch(quantization)
    }

    /// Takes the quantization tables latched so far (a component's first scan latches its
    /// table; a component no scan has reached has no coefficients, so any table serves).
    mutating func latch(_ tables: [[UInt16]?]) {
        quantization = tables.map { ($0 ?? [UInt16](repeating: 1, count: 64)).map { Int16(truncatingIfNeeded: $0) } }
    }

    /// Sample rows for one MCU row, zeroed.
    func makeRows() -> JPEGSampleRows {
        JPEGSampleRows(planes: strides.indices.map { [UInt8](repeating: 0, count: strides[$0] * rowsPerMCURow[$0]) })
    }

    /// Inverse-transforms the blocks of MCU row `m` into `rows`, each block first smoothed as
    /// libjpeg-turbo does when `smoothing` is given (progressive files whose coefficients are
    /// not all complete; whole blocks only). `coefficients` holds row `m` (every row, or one).
    func apply(mcuRow m: Int, from coefficients: JPEGCoefficients, smoothing: JPEGBlockSmoothing? = nil,
               into rows: inout JPEGSampleRows) {
        withUnsafeTemporaryAllocation(of: Int16.self, capacity: 64) { workspace in
            let w = workspace.baseAddress!
            for c in frame.components.indices {
                let component = frame.components[c], stride = strides[c], size = idctSizes[c]
                let keptCount = coefficients.grid.keptCounts[c]
                w.initialize(repeating: 0, count: 64)
                coefficients.grid.keptNaturals.withUnsafeBufferPointer { naturals in
                    coefficients.storage[c].withUnsafeBufferPointer { blocks in
                        quantization[c].withUnsafeBufferPointer { q in
                            rows.planes[c].withUnsafeMutableBufferPointer { samples in
                                for dy in 0..<component.v {
                                    let by = m * component.v + dy, rowBase = dy * size * stride
                                    for bx in 0..<component.blocksPerLine {
                                        var block = blocks.baseAddress! + coefficients.offset(c, x: bx, y: by)
                                        if keptCount > 0 {
                                            JPEGCoefficientSubset.expandKept(block, keptCount: keptCount, kept: naturals.baseAddress! + 64 * c, into: w)
                                            block = UnsafePointer(w)
                                        } else if let smoothing {
                                            smoothing.smooth(blocks.baseAddress!, component: c, x: bx, y: by, into: w)
                                            block = UnsafePointer(w)
                                        }
                                        let out = samples.baseAddress! + rowBase + bx * size
                                        if size == 8 {
                                            JPEGIDCT.islow(block, q.baseAddress!, out, stride: stride)
                                        } else {
                                            JPEGIDCT.reduced(size: size, block, q.baseAddress!, out, stride: stride)
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}
