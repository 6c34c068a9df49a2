/// The quantized DCT blocks of one component (T.81 A.3.3): `blocksWide × blocksHigh` blocks of
/// 64 `Int16` in natural (row-major) order, the blocks row by row.
public struct JPEGCoefficientPlane: Equatable, Sendable {
    public let blocksWide: Int
    public let blocksHigh: Int
    public var coefficients: [Int16]

    /// A plane of zero blocks.
    public init(blocksWide: Int, blocksHigh: Int) {
        self.blocksWide = blocksWide
        self.blocksHigh = blocksHigh
        coefficients = [Int16](repeating: 0, count: blocksWide * blocksHigh * 64)
    }

    /// A plane over `coefficients`, which holds `blocksWide · blocksHigh · 64` values; nil when
    /// it does not.
    public init?(blocksWide: Int, blocksHigh: Int, coefficients: [Int16]) {
        guard blocksWide >= 0, blocksHigh >= 0, coefficients.count == blocksWide * blocksHigh * 64 else { return nil }
        self.blocksWide = blocksWide
        self.blocksHigh = blocksHigh
        self.coefficients = coefficients
    }

    /// The index of the first coefficient of block (`x`, `y`).
    @inline(__always)
    func offset(x: Int, y: Int) -> Int { (y &* blocksWide &+ x) &* 64 }
}
