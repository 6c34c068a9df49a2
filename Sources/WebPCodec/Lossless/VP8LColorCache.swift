/// RFC 9649 section 3.7.1.3, the colour cache: the recently used ARGB colours, each stored at
/// the index of its hash, `(0x1e35a7bd × argb) >> (32 − cache_bits)` in 32-bit arithmetic.
/// Every decoded pixel (literal, copied or taken from the cache) is inserted in scan order.
struct VP8LColorCache {
    /// RFC 9649 3.7.1.3: cache_bits is 1…11.
    static let maxBits = 11
    static let hashMultiplier: UInt32 = 0x1e35_a7bd

    let bits: Int
    var colors: [UInt32]

    init(bits: Int) {
        self.bits = bits
        colors = [UInt32](repeating: 0, count: bits > 0 ? 1 << bits : 0)
    }

    @inline(__always)
    static func index(of argb: UInt32, shift: UInt32) -> Int {
        Int((argb &* hashMultiplier) &>> shift)
    }
}
