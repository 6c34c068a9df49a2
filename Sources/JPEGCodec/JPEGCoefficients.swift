import CodecCore

/// Quantized DCT coefficients (T.81 A.3.3), for each component: every block of the frame
/// (multi-scan files: progressive, or sequential with one scan per component), or one MCU
/// row's blocks (a single-scan sequential file, decoded and reconstructed a row of MCUs at a
/// time). A block is 64 `Int16` in natural order, or, for a thumbnail's component whose scaled
/// transform reads few coefficients, a ``JPEGCoefficientSubset`` record.
struct JPEGCoefficients {
    /// Where the blocks lie in ``storage``.
    let grid: JPEGBlockGrid
    var storage: [[Int16]]

    /// Storage for `frame`: all its blocks, or (`mcuRowOnly`) one MCU row of them; with
    /// `idctSizes`, each component keeps only what its scaled transform reads
    /// (``JPEGCoefficientSubset``). The caller has checked the sizes against the limits.
    init(frame: JPEGFrameHeader, mcuRowOnly: Bool, idctSizes: [Int]? = nil) {
        grid = Self.grid(frame: frame, mcuRowOnly: mcuRowOnly, idctSizes: idctSizes)
        storage = frame.components.indices.map { [grid] c in
            [Int16](repeating: 0, count: grid.blocksPerLine[c] * grid.blockRows[c] * grid.recordSizes[c])
        }
    }

    private static func grid(frame: JPEGFrameHeader, mcuRowOnly: Bool, idctSizes: [Int]?) -> JPEGBlockGrid {
        let subsets = frame.components.indices.map { c in idctSizes.flatMap { JPEGCoefficientSubset.kept(idctSize: $0[c]) } }
        return JPEGBlockGrid(blocksPerLine: frame.components.map(\.blocksPerLine),
                             blockRows: frame.components.map { mcuRowOnly ? $0.v : $0.blockRows }, subsets: subsets)
    }

    /// The bytes the storage for these arguments takes, for checking against ``Limits`` first.
    static func bytes(frame: JPEGFrameHeader, mcuRowOnly: Bool, idctSizes: [Int]?) -> Int {
        let grid = grid(frame: frame, mcuRowOnly: mcuRowOnly, idctSizes: idctSizes)
        return frame.components.indices.reduce(0) { $0 + grid.blocksPerLine[$1] * grid.blockRows[$1] * grid.recordSizes[$1] * 2 }
    }

    /// Bytes held.
    var heldBytes: Int { storage.reduce(0) { $0 + $1.count * 2 } }

    /// The bytes every block of `frame` takes, for checking against ``Limits``.
    static func bytes(for frame: JPEGFrameHeader) -> Int {
        frame.components.reduce(0) { $0 + $1.blocksPerLine * $1.blockRows * 128 }
    }

    /// Whether any component keeps a subset of its coefficients.
    var isSubset: Bool { grid.isSubset }

    /// These coefficients, leaving this value without storage (so that the one returned holds
    /// the only reference to the buffers and is changed in place).
    mutating func take() -> JPEGCoefficients {
        let all = self
        storage = []
        return all
    }

    /// Sets every coefficient to zero (before an MCU row of a sequential scan is decoded).
    mutating func clear() {
        for i in storage.indices {
            storage[i].withUnsafeMutableBufferPointer { $0.update(repeating: 0) }
        }
    }

    /// The offset of block (`x`, `y`) of component `c`, with `y` taken modulo the rows held.
    @inline(__always)
    func offset(_ c: Int, x: Int, y: Int) -> Int {
        grid.offset(c, x: x, y: y)
    }

    /// Calls `body` with a ``JPEGBlockStore`` over these coefficients (a frame has at most four
    /// components); the storage is moved out meanwhile, so that no buffer is copied.
    mutating func withStore<R>(_ body: (JPEGBlockStore) -> R) -> R {
        let count = storage.count, grid = grid
        var p0 = [Int16](), p1 = [Int16](), p2 = [Int16](), p3 = [Int16]()
        if count > 0 { swap(&p0, &storage[0]) }
        if count > 1 { swap(&p1, &storage[1]) }
        if count > 2 { swap(&p2, &storage[2]) }
        if count > 3 { swap(&p3, &storage[3]) }
        defer {
            if count > 0 { swap(&p0, &storage[0]) }
            if count > 1 { swap(&p1, &storage[1]) }
            if count > 2 { swap(&p2, &storage[2]) }
            if count > 3 { swap(&p3, &storage[3]) }
        }
        return p0.withUnsafeMutableBufferPointer { b0 in
            p1.withUnsafeMutableBufferPointer { b1 in
                p2.withUnsafeMutableBufferPointer { b2 in
                    p3.withUnsafeMutableBufferPointer { b3 in
                        withUnsafeTemporaryAllocation(of: UnsafeMutablePointer<Int16>?.self, capacity: 4) { bases in
                            bases.initialize(repeating: nil)
                            bases[0] = b0.baseAddress
                            bases[1] = b1.baseAddress
                            bases[2] = b2.baseAddress
                            bases[3] = b3.baseAddress
                            return body(JPEGBlockStore(grid: grid, bases: bases.baseAddress!))
                        }
                    }
                }
            }
        }
    }
}

/// Where a scan decoder writes blocks: the grid, and the first coefficient of each component's
/// storage (``JPEGCoefficients/withStore(_:)``, inside which alone the pointers are valid).
/// Scans decoded at once on several threads (``JPEGScanWavefront``) share one store, each
/// writing only coefficients no other running scan reads or writes.
struct JPEGBlockStore: @unchecked Sendable {
    let grid: JPEGBlockGrid
    let bases: UnsafeMutablePointer<UnsafeMutablePointer<Int16>?>

    /// Whether any component keeps a subset of its coefficients.
    var isSubset: Bool { grid.isSubset }
}

/// Where each component's blocks lie in ``JPEGCoefficients/storage``: blocks per line, block
/// rows held, the `Int16` each block takes, and what a subset record keeps.
struct JPEGBlockGrid {
    let blocksPerLine: [Int]
    let blockRows: [Int]
    let recordSizes: [Int]
    /// Per component, the coefficients a record keeps (0: the whole block), and their natural
    /// indices at `64 · c` in ``keptNaturals``.
    let keptCounts: [Int]
    let keptNaturals: [UInt8]

    init(blocksPerLine: [Int], blockRows: [Int], subsets: [[UInt8]?]) {
        self.blocksPerLine = blocksPerLine
        self.blockRows = blockRows
        keptCounts = subsets.map { $0?.count ?? 0 }
        recordSizes = subsets.map { $0.map { JPEGCoefficientSubset.recordSize(keptCount: $0.count) } ?? 64 }
        var naturals = [UInt8](repeating: 0, count: 64 * subsets.count)
        for (c, kept) in subsets.enumerated() {
            for (i, n) in (kept ?? []).enumerated() { naturals[64 * c + i] = n }
        }
        keptNaturals = naturals
    }

    /// Whether any component keeps a subset of its coefficients.
    var isSubset: Bool { keptCounts.contains { $0 > 0 } }

    /// The offset of block (`x`, `y`) of component `c`, with `y` taken modulo the rows held.
    @inline(__always)
    func offset(_ c: Int, x: Int, y: Int) -> Int {
        let rows = blockRows[c]
        return ((y < rows ? y : y % rows) &* blocksPerLine[c] &+ x) &* recordSizes[c]
    }
}
