import CodecCore

/// Quantized DCT coefficients (T.81 A.3.3), 64 Int16 per block in natural order, for each
/// component: every block of the frame (multi-scan files: progressive, or sequential with one
/// scan per component), or one MCU row's blocks (a single-scan sequential file, decoded and
/// reconstructed a row of MCUs at a time).
struct JPEGCoefficients {
    /// Per component: blocks per line, block rows held, and the blocks row-major.
    private(set) var blocksPerLine: [Int]
    private(set) var blockRows: [Int]
    var storage: [[Int16]]

    /// Storage for `frame`: all its blocks, or (`mcuRowOnly`) one MCU row of them. The caller
    /// has checked the sizes against the limits.
    init(frame: JPEGFrameHeader, mcuRowOnly: Bool) {
        blocksPerLine = frame.components.map(\.blocksPerLine)
        blockRows = frame.components.map { mcuRowOnly ? $0.v : $0.blockRows }
        storage = frame.components.indices.map { i in
            [Int16](repeating: 0, count: frame.components[i].blocksPerLine * (mcuRowOnly ? frame.components[i].v : frame.components[i].blockRows) * 64)
        }
    }

    /// The bytes every block of `frame` takes, for checking against ``Limits``.
    static func bytes(for frame: JPEGFrameHeader) -> Int {
        frame.components.reduce(0) { $0 + $1.blocksPerLine * $1.blockRows * 128 }
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
        ((y % blockRows[c]) * blocksPerLine[c] + x) * 64
    }
}
