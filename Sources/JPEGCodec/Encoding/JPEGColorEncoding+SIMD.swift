/// RGB → YCbCr and RGB → Y on sixteen pixels at a time in 16-bit lanes, exactly the scalar
/// twins' results (`JPEGColorEncoding.swift`) without a 32-bit multiply (SSE2 has none).
///
/// Each coefficient c < 2^16 is split as 256·hi + lo, so that every product of an 8-bit sample
/// and hi or lo, and each sum A = Σ hi·x and B = Σ lo·x, fits 16 bits (at most 255·255 and
/// 255·256). Then, for Y: (256·A + B + 2^15) >> 16 = (A + (B >> 8) + 128) >> 8, since 2^15 is a
/// multiple of 256 and the low byte of B cannot carry past the final shift. For Cb (Cr alike
/// with r and b exchanged and 27439 g + 5329 b subtracted): with the subtracted terms
/// N = 256·A + B (A = 43 r + 84 g, B = 51 r + 205 g) and 128·2^16 + 2^15 − 1 = 256·32895 + 255,
/// (32768 b + 8421375 − N) >> 16 = (128 b + 32895 − A − (B >> 8)) >> 8, every intermediate in
/// 0…65535 (the sum is never negative). `JPEGEncoderKernelTests` holds these equal to the
/// scalar code.
extension JPEGColorEncoding {
    typealias Lanes = SIMD16<UInt16>

    @inline(__always)
    private static func channel(_ p: UnsafePointer<UInt8>, _ stride: Int) -> Lanes {
        var v = Lanes()
        for i in 0..<16 { v[i] = UInt16(p[i &* stride]) }
        return v
    }

    /// The red, green and blue of sixteen RGBA pixels (stride 4): one 64-byte load as 32
    /// 16-bit words, whose even words hold R and G and odd words B and A (little-endian), split
    /// by one unshuffle, instead of sixteen byte loads per channel.
    @inline(__always)
    private static func rgbaChannels(_ p: UnsafePointer<UInt8>) -> (Lanes, Lanes, Lanes) {
        let v = UnsafeRawPointer(p).loadUnaligned(as: SIMD32<UInt16>.self)
        let byte = Lanes(repeating: 0xFF)
        #if _endian(little)
        let (rg, ba) = (v.evenHalf, v.oddHalf)
        return (rg & byte, rg &>> 8, ba & byte)
        #else
        let (rg, ba) = (v.evenHalf, v.oddHalf)
        return (rg &>> 8, rg & byte, ba &>> 8)
        #endif
    }

    @inline(__always)
    private static func store(_ v: Lanes, _ out: UnsafeMutablePointer<UInt8>) {
        // v >> 8 as bytes: the high byte of each lane (psrlw and packuswb).
        #if _endian(little)
        let high = unsafeBitCast(v, to: SIMD32<UInt8>.self).oddHalf
        #else
        let high = unsafeBitCast(v, to: SIMD32<UInt8>.self).evenHalf
        #endif
        UnsafeMutableRawPointer(out).storeBytes(of: high, as: SIMD16<UInt8>.self)
    }

    /// (19595 r + 38470 g + 7471 b + 2^15) >> 16, before the last shift by 8.
    @inline(__always)
    private static func luma(_ r: Lanes, _ g: Lanes, _ b: Lanes) -> Lanes {
        let a = r &* 76 &+ g &* 150 &+ b &* 29        // 19595 = 76·256 + 139, 38470 = 150·256 + 70, 7471 = 29·256 + 47
        let low = r &* 139 &+ g &* 70 &+ b &* 47
        return a &+ (low &>> 8) &+ 128
    }

    static func yccSIMD(_ rgb: UnsafePointer<UInt8>, stride: Int, count: Int,
                        _ y: UnsafeMutablePointer<UInt8>, _ cb: UnsafeMutablePointer<UInt8>, _ cr: UnsafeMutablePointer<UInt8>) {
        @inline(__always)
        func sixteen(_ r: Lanes, _ g: Lanes, _ b: Lanes, _ i: Int) {
            store(luma(r, g, b), y + i)
            // 11059 = 43·256 + 51, 21709 = 84·256 + 205; 27439 = 107·256 + 47, 5329 = 20·256 + 209.
            let cbLow = r &* 51 &+ g &* 205
            store((b &<< 7) &+ 32895 &- (r &* 43 &+ g &* 84) &- (cbLow &>> 8), cb + i)
            let crLow = g &* 47 &+ b &* 209
            store((r &<< 7) &+ 32895 &- (g &* 107 &+ b &* 20) &- (crLow &>> 8), cr + i)
        }
        var i = 0
        if stride == 4 {
            while i &+ 16 <= count {
                let (r, g, b) = rgbaChannels(rgb + i &* 4)
                sixteen(r, g, b, i)
                i &+= 16
            }
        } else {
            while i &+ 16 <= count {
                let p = rgb + i &* stride
                sixteen(channel(p, stride), channel(p + 1, stride), channel(p + 2, stride), i)
                i &+= 16
            }
        }
        if i < count { ycc(rgb + i &* stride, stride: stride, count: count &- i, y + i, cb + i, cr + i) }
    }

    static func graySIMD(_ rgb: UnsafePointer<UInt8>, stride: Int, count: Int, _ y: UnsafeMutablePointer<UInt8>) {
        var i = 0
        if stride == 4 {
            while i &+ 16 <= count {
                let (r, g, b) = rgbaChannels(rgb + i &* 4)
                store(luma(r, g, b), y + i)
                i &+= 16
            }
        }
        while i &+ 16 <= count {
            let p = rgb + i &* stride
            store(luma(channel(p, stride), channel(p + 1, stride), channel(p + 2, stride)), y + i)
            i &+= 16
        }
        if i < count { gray(rgb + i &* stride, stride: stride, count: count &- i, y + i) }
    }
}
