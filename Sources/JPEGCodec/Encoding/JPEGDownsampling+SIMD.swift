/// h2v1 and h2v2 downsampling on sixteen output samples at a time: the even and odd input
/// samples of a 32-sample run summed in 16-bit lanes with libjpeg's alternating bias; the same
/// results as the scalar twins in `JPEGDownsampling.swift`.
extension JPEGDownsampling {
    typealias Wide = SIMD16<UInt16>
    /// The biases of sixteen consecutive output columns (the pattern restarts at each row).
    static let h2v1Bias = Wide(0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1)
    static let h2v2Bias = Wide(1, 2, 1, 2, 1, 2, 1, 2, 1, 2, 1, 2, 1, 2, 1, 2)

    /// The 32 samples at `p` loaded as sixteen 16-bit words, each a pair of adjacent samples:
    /// their low and high bytes summed (pand, psrlw, paddw). The standard library's `evenHalf`
    /// and `oddHalf` of the widened samples stayed calls here (2.8% of a 24 MP encode's
    /// instructions).
    @inline(__always)
    private static func pairSums(_ p: UnsafePointer<UInt8>) -> Wide {
        let words = Wide(littleEndianWords: UnsafeRawPointer(p).loadUnaligned(as: Wide.self))
        return (words & 0xFF) &+ (words &>> 8)
    }

    static func h2v1SIMD(_ input: UnsafePointer<UInt8>, _ output: UnsafeMutablePointer<UInt8>, columns: Int) {
        let bias = h2v1Bias
        var i = 0
        while i &+ 16 <= columns {
            let sum = (pairSums(input + 2 &* i) &+ bias) &>> 1
            UnsafeMutableRawPointer(output + i).storeBytes(of: SIMD16<UInt8>(narrowing: sum), as: SIMD16<UInt8>.self)
            i &+= 16
        }
        if i < columns { h2v1(input + 2 &* i, output + i, columns: columns &- i) }
    }

    static func h2v2SIMD(_ row0: UnsafePointer<UInt8>, _ row1: UnsafePointer<UInt8>, _ output: UnsafeMutablePointer<UInt8>, columns: Int) {
        let bias = h2v2Bias
        var i = 0
        while i &+ 16 <= columns {
            let sum = (pairSums(row0 + 2 &* i) &+ pairSums(row1 + 2 &* i) &+ bias) &>> 2
            UnsafeMutableRawPointer(output + i).storeBytes(of: SIMD16<UInt8>(narrowing: sum), as: SIMD16<UInt8>.self)
            i &+= 16
        }
        if i < columns { h2v2(row0 + 2 &* i, row1 + 2 &* i, output + i, columns: columns &- i) }
    }
}
