/// h2v1 and h2v2 downsampling on sixteen output samples at a time: the even and odd input
/// samples of a 32-sample run (`evenHalf`, `oddHalf`) summed in 16-bit lanes with libjpeg's
/// alternating bias; the same results as the scalar twins in `JPEGDownsampling.swift`.
extension JPEGDownsampling {
    typealias Wide = SIMD16<UInt16>
    /// The biases of sixteen consecutive output columns (the pattern restarts at each row).
    static let h2v1Bias = Wide(0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1)
    static let h2v2Bias = Wide(1, 2, 1, 2, 1, 2, 1, 2, 1, 2, 1, 2, 1, 2, 1, 2)

    @inline(__always)
    private static func pairSums(_ p: UnsafePointer<UInt8>) -> Wide {
        let v = SIMD32<UInt16>(widening: UnsafeRawPointer(p).loadUnaligned(as: SIMD32<UInt8>.self))
        return v.evenHalf &+ v.oddHalf
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
