/// Quantization of one block's coefficients (RFC 6386 14.1 read backwards): each coefficient
/// divided by its factor with a rounding bias below one half (3/8 for DC, 7/16 for AC, which
/// favours zeros, as libwebp's bias matrices do), levels at most 2047.
struct VP8Quantizer: Sendable {
    let dc: Int32
    let ac: Int32
    /// `2^17 / factor`, rounded up: the division as a multiplication (at most one above the
    /// quotient for the magnitudes that occur, below 2^15; any level is valid, the
    /// reconstruction uses the level chosen).
    let dcReciprocal: Int32
    let acReciprocal: Int32

    init(dc: Int32, ac: Int32) {
        self.dc = dc
        self.ac = ac
        dcReciprocal = ((1 << 17) + dc - 1) / dc
        acReciprocal = ((1 << 17) + ac - 1) / ac
    }

    /// Quantizes the raster-order `coefficients` from zigzag position `first`: `levels` gets the
    /// levels in zigzag order, `dequantized` (raster) the factors times the levels, truncated
    /// to 16 bits as the decoder stores them. Returns the last non-zero position, or -1.
    @inline(__always)
    func quantize(_ coefficients: UnsafePointer<Int16>, first: Int, levels: UnsafeMutablePointer<Int16>,
                  dequantized: UnsafeMutablePointer<Int16>) -> Int {
        var last = -1
        for n in first..<16 {
            let j = VP8Tokens.zigzag(n)
            let q = n == 0 ? dc : ac
            let bias = n == 0 ? (q &* 3) &>> 3 : (q &* 7) &>> 4
            let c = Int32(coefficients[j])
            var level = (((c < 0 ? -c : c) &+ bias) &* (n == 0 ? dcReciprocal : acReciprocal)) &>> 17
            if level > 2047 { level = 2047 }
            if c < 0 { level = -level }
            levels[n] = Int16(truncatingIfNeeded: level)
            dequantized[j] = Int16(truncatingIfNeeded: level &* q)
            if level != 0 { last = n }
        }
        return last
    }
}
