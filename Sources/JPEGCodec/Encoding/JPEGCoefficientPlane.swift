/// Quantized DCT blocks of one component (64 coefficients each, natural order), block rows of
/// the interleaved MCU grid: `blocksPerRow` includes the dummy blocks that complete the last
/// MCU column (T.81 A.2.4). Holds either a band of block rows (`firstBlockRow` onward; a
/// streaming encode keeps one row of MCUs) or the whole component. This is what the entropy
/// encoders read, from the forward DCT or from a decoded file's coefficients (transcoding).
public struct JPEGCoefficientPlane: Sendable {
    /// Blocks in one block row, the dummy blocks that complete the last MCU column included.
    public let blocksPerRow: Int
    /// Block rows the plane holds.
    public private(set) var blockRows: Int
    /// The image block row that row 0 of this plane holds.
    public var firstBlockRow: Int
    /// The coefficients, 64 per block in natural (row-major) order, blocks in raster order.
    public var coefficients: [Int16]

    /// A zeroed plane of `blockRows` rows of `blocksPerRow` blocks, its first row being image block
    /// row `firstBlockRow`.
    public init(blocksPerRow: Int, blockRows: Int, firstBlockRow: Int = 0) {
        self.blocksPerRow = blocksPerRow
        self.blockRows = blockRows
        self.firstBlockRow = firstBlockRow
        coefficients = [Int16](repeating: 0, count: blocksPerRow * blockRows * 64)
    }

    /// Index of the first coefficient of block (`row`, `column`) in image block coordinates.
    @inline(__always)
    func offset(row: Int, column: Int) -> Int { Self.offset(row: row, column: column, first: firstBlockRow, perRow: blocksPerRow) }

    @inline(__always)
    static func offset(row: Int, column: Int, first: Int, perRow: Int) -> Int { ((row &- first) &* perRow &+ column) &* 64 }

    /// Fills the dummy blocks of one row of MCUs as libjpeg's coefficient controller does
    /// (`jccoefct.c`): a block right of the component's last real block is zero with the DC of
    /// the block to its left; a dummy block row below the last real one is zero, each MCU's
    /// blocks taking the DC of the last block of that MCU in the row above.
    mutating func fillDummyBlocks(blockRows rows: Range<Int>, realWidth: Int, realHeight: Int, h: Int) {
        let (first, perRow) = (firstBlockRow, blocksPerRow)
        func offset(row: Int, column: Int) -> Int { Self.offset(row: row, column: column, first: first, perRow: perRow) }
        coefficients.withUnsafeMutableBufferPointer { c in
            for row in rows {
                if row < realHeight {
                    var column = realWidth
                    while column < perRow {
                        let at = offset(row: row, column: column)
                        for i in 0..<64 { c[at + i] = 0 }
                        c[at] = c[at - 64]
                        column += 1
                    }
                } else {
                    for column in 0..<perRow {
                        let at = offset(row: row, column: column)
                        for i in 0..<64 { c[at + i] = 0 }
                        c[at] = c[offset(row: row - 1, column: column / h * h + h - 1)]
                    }
                }
            }
        }
    }
}

extension JPEGCoefficientPlane {
    /// A plane over `coefficients`, which holds `blocksPerRow · blockRows` blocks (a transcode
    /// hands over the decoder's blocks, or blocks it has written every one of, without a zeroed
    /// copy); nil when the count does not match.
    init?(blocksPerRow: Int, blockRows: Int, coefficients: [Int16]) {
        guard blocksPerRow >= 0, blockRows >= 0, coefficients.count == blocksPerRow * blockRows * 64 else { return nil }
        self.blocksPerRow = blocksPerRow
        self.blockRows = blockRows
        firstBlockRow = 0
        self.coefficients = coefficients
    }
}
