/// The forward DCT of libjpeg's `jfdctint.c` (ISLOW, cjpeg's `-dct int`): the Loeffler–
/// Ligtenberg–Moschytz factorisation (T.81 A.3.3's FDCT, scaled by 8) in 13-bit fixed point,
/// with 2 extra bits kept between the row and the column pass. The SIMD twin is in
/// `JPEGForwardDCT+SIMD.swift`, held equal to this by `JPEGEncoderKernelTests`.
enum JPEGForwardDCT {
    static let constBits: Int32 = 13
    static let pass1Bits: Int32 = 2
    static let c0_298631336: Int32 = 2446, c0_390180644: Int32 = 3196, c0_541196100: Int32 = 4433
    static let c0_765366865: Int32 = 6270, c0_899976223: Int32 = 7373, c1_175875602: Int32 = 9633
    static let c1_501321110: Int32 = 12299, c1_847759065: Int32 = 15137, c1_961570560: Int32 = 16069
    static let c2_053119869: Int32 = 16819, c2_562915447: Int32 = 20995, c3_072711026: Int32 = 25172

    @inline(__always)
    static func descale(_ x: Int32, _ n: Int32) -> Int32 { (x &+ (1 &<< (n &- 1))) &>> n }

    /// Transforms the 8×8 samples at `samples` (rows `stride` apart), centred on 128, into 64
    /// coefficients in natural order, scaled by 8 as libjpeg leaves them for quantization.
    static func transform(_ samples: UnsafePointer<UInt8>, stride: Int, _ out: UnsafeMutablePointer<Int32>) {
        for row in 0..<8 {
            let s = samples + row &* stride
            let d = out + row &* 8
            for i in 0..<8 { d[i] = Int32(s[i]) &- 128 }
            butterfly(d, step: 1, pass: 1)
        }
        for column in 0..<8 { butterfly(out + column, step: 8, pass: 2) }
    }

    /// One 8-point pass over `d[0], d[step], …, d[7·step]`, in place.
    @inline(__always)
    static func butterfly(_ d: UnsafeMutablePointer<Int32>, step: Int, pass: Int) {
        let tmp0 = d[0] &+ d[7 &* step], tmp7 = d[0] &- d[7 &* step]
        let tmp1 = d[step] &+ d[6 &* step], tmp6 = d[step] &- d[6 &* step]
        let tmp2 = d[2 &* step] &+ d[5 &* step], tmp5 = d[2 &* step] &- d[5 &* step]
        let tmp3 = d[3 &* step] &+ d[4 &* step], tmp4 = d[3 &* step] &- d[4 &* step]
        // Even part.
        let tmp10 = tmp0 &+ tmp3, tmp13 = tmp0 &- tmp3
        let tmp11 = tmp1 &+ tmp2, tmp12 = tmp1 &- tmp2
        let shift = pass == 1 ? constBits &- pass1Bits : constBits &+ pass1Bits
        if pass == 1 {
            d[0] = (tmp10 &+ tmp11) &<< pass1Bits
            d[4 &* step] = (tmp10 &- tmp11) &<< pass1Bits
        } else {
            d[0] = descale(tmp10 &+ tmp11, pass1Bits)
            d[4 &* step] = descale(tmp10 &- tmp11, pass1Bits)
        }
        let z1 = (tmp12 &+ tmp13) &* c0_541196100
        d[2 &* step] = descale(z1 &+ tmp13 &* c0_765366865, shift)
        d[6 &* step] = descale(z1 &- tmp12 &* c1_847759065, shift)
        // Odd part.
        let z5 = (tmp4 &+ tmp6 &+ tmp5 &+ tmp7) &* c1_175875602
        let o1 = (tmp4 &+ tmp7) &* -c0_899976223
        let o2 = (tmp5 &+ tmp6) &* -c2_562915447
        let o3 = (tmp4 &+ tmp6) &* -c1_961570560 &+ z5
        let o4 = (tmp5 &+ tmp7) &* -c0_390180644 &+ z5
        d[7 &* step] = descale(tmp4 &* c0_298631336 &+ o1 &+ o3, shift)
        d[5 &* step] = descale(tmp5 &* c2_053119869 &+ o2 &+ o4, shift)
        d[3 &* step] = descale(tmp6 &* c3_072711026 &+ o2 &+ o3, shift)
        d[step] = descale(tmp7 &* c1_501321110 &+ o1 &+ o4, shift)
    }
}
