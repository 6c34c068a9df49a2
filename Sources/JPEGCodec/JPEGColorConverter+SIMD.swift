/// The colour conversions 16 pixels at a time, in 16-bit lanes, as libjpeg-turbo's SIMD code
/// does them. For R and B the fractional parts of the factors are taken with a high-half multiply
/// of twice the chroma (`pmulhw`), then rounded: `(((2z·26345) >> 16) + 1) >> 1`, which equals
/// `(26345·z + 2^15) >> 16` (floor((floor(2a/2^16) + 1)/2) = floor((a + 2^15)/2^16)); the whole
/// parts are added, 91881 = 65536 + 26345 and 116130 = 131072 − 14942. G is a 32-bit sum of two
/// products (`pmaddwd`) with −46802 = 18734 − 65536. Pixels are written as 16-bit lanes holding
/// (R, G) and (B, 255) in memory order, interleaved.
/// Each function has a scalar twin in `JPEGColorConverter.swift` that a test holds equal.
extension JPEGColorConverter {
    typealias Samples = SIMD16<UInt8>
    typealias Wide = SIMD16<Int32>
    typealias Words = SIMD16<UInt16>
    typealias Signed = SIMD16<Int16>

    // Lane-wise initializers and arithmetic rather than the standard library's vector
    // conversions, `min`/`max` and comparisons: the optimizer may leave those as calls or lower
    // them lane by lane with branches, while these compile to `punpck`, `packssdw`, `pminsw`.

    @inline(__always)
    static func load(_ p: UnsafePointer<UInt8>) -> Samples { UnsafeRawPointer(p).loadUnaligned(as: Samples.self) }

    @inline(__always)
    static func wide(_ v: Signed) -> Wide {
        Wide(Int32(v[0]), Int32(v[1]), Int32(v[2]), Int32(v[3]), Int32(v[4]), Int32(v[5]), Int32(v[6]), Int32(v[7]),
             Int32(v[8]), Int32(v[9]), Int32(v[10]), Int32(v[11]), Int32(v[12]), Int32(v[13]), Int32(v[14]), Int32(v[15]))
    }

    @inline(__always)
    static func words(_ v: Samples) -> Words {
        Words(UInt16(v[0]), UInt16(v[1]), UInt16(v[2]), UInt16(v[3]), UInt16(v[4]), UInt16(v[5]), UInt16(v[6]), UInt16(v[7]),
              UInt16(v[8]), UInt16(v[9]), UInt16(v[10]), UInt16(v[11]), UInt16(v[12]), UInt16(v[13]), UInt16(v[14]), UInt16(v[15]))
    }

    @inline(__always)
    static func signed(_ v: Samples) -> Signed { unsafeBitCast(words(v), to: Signed.self) }

    /// The high half of the 32-bit products `a·c` (`pmulhw`), for `c` within 16 bits.
    @inline(__always)
    static func multipliedHigh(_ a: Signed, _ c: Int32) -> Signed { signed((wide(a) &* c) &>> 16) }

    /// The low 16 bits of each lane.
    @inline(__always)
    static func signed(_ v: Wide) -> Signed {
        Signed(Int16(truncatingIfNeeded: v[0]), Int16(truncatingIfNeeded: v[1]), Int16(truncatingIfNeeded: v[2]),
               Int16(truncatingIfNeeded: v[3]), Int16(truncatingIfNeeded: v[4]), Int16(truncatingIfNeeded: v[5]),
               Int16(truncatingIfNeeded: v[6]), Int16(truncatingIfNeeded: v[7]), Int16(truncatingIfNeeded: v[8]),
               Int16(truncatingIfNeeded: v[9]), Int16(truncatingIfNeeded: v[10]), Int16(truncatingIfNeeded: v[11]),
               Int16(truncatingIfNeeded: v[12]), Int16(truncatingIfNeeded: v[13]), Int16(truncatingIfNeeded: v[14]),
               Int16(truncatingIfNeeded: v[15]))
    }

    /// `v` clamped to 0…255 with arithmetic only (|v| < 2^14).
    @inline(__always)
    static func clamp255(_ v: Signed) -> Words {
        let d = v &- 255
        let m = (d & (d &>> 15)) &+ 255
        return unsafeBitCast(m & ~(m &>> 15), to: Words.self)
    }

    /// Stores 16 RGBA pixels from channels in 0…255.
    @inline(__always)
    static func store(_ r: Words, _ g: Words, _ b: Words, _ destination: UnsafeMutablePointer<UInt8>) {
        #if _endian(big)
        let rg = (r &<< 8) | g, ba = (b &<< 8) | 0x00FF
        #else
        let rg = r | (g &<< 8), ba = b | 0xFF00
        #endif
        let pixels = SIMD32<UInt16>(rg[0], ba[0], rg[1], ba[1], rg[2], ba[2], rg[3], ba[3], rg[4], ba[4], rg[5], ba[5],
                                    rg[6], ba[6], rg[7], ba[7], rg[8], ba[8], rg[9], ba[9], rg[10], ba[10], rg[11], ba[11],
                                    rg[12], ba[12], rg[13], ba[13], rg[14], ba[14], rg[15], ba[15])
        UnsafeMutableRawPointer(destination).storeBytes(of: pixels, as: SIMD32<UInt16>.self)
    }

    /// The YCbCr formula on 16 pixels, each channel clamped to 0…255.
    @inline(__always)
    static func ycc(_ y: Samples, _ cb: Samples, _ cr: Samples) -> (Words, Words, Words) {
        let luma = signed(y), x = signed(cb) &- 128, z = signed(cr) &- 128
        let r = z &+ ((multipliedHigh(z &<< 1, crToRed &- 65536) &+ 1) &>> 1)
        let b = (x &<< 1) &+ ((multipliedHigh(x &<< 1, cbToBlue &- 131072) &+ 1) &>> 1)
        let g = signed((wide(x) &* (0 &- cbToGreen) &+ wide(z) &* (65536 &- crToGreen) &+ Wide(repeating: oneHalf)) &>> 16) &- z
        return (clamp255(luma &+ r), clamp255(luma &+ g), clamp255(luma &+ b))
    }

    /// YCbCr → RGBA for `count` pixels (`ycc_rgb_convert`; the formula is in the type's
    /// documentation): reads `count` samples from each plane, writes `4·count` bytes.
    static func yccToRGBA(y: UnsafePointer<UInt8>, cb: UnsafePointer<UInt8>, cr: UnsafePointer<UInt8>,
                          count: Int, _ output: UnsafeMutablePointer<UInt8>) {
        var i = 0
        while i &+ 16 <= count {
            let (r, g, b) = ycc(load(y + i), load(cb + i), load(cr + i))
            store(r, g, b, output + 4 &* i)
            i &+= 16
        }
        yccPixels(y: y, cb: cb, cr: cr, from: i, to: count, output)
    }

    /// Grayscale → RGBA: the sample in R, G and B (`gray_rgb_convert`).
    static func grayToRGBA(_ y: UnsafePointer<UInt8>, count: Int, _ output: UnsafeMutablePointer<UInt8>) {
        var i = 0
        while i &+ 16 <= count {
            let value = words(load(y + i))
            store(value, value, value, output + 4 &* i)
            i &+= 16
        }
        grayPixels(y, from: i, to: count, output)
    }

    /// Three components without colour transform (Adobe transform 0, or component ids 'R',
    /// 'G', 'B') → RGBA: the samples as they are (`rgb_rgb_convert`).
    static func rgbToRGBA(r: UnsafePointer<UInt8>, g: UnsafePointer<UInt8>, b: UnsafePointer<UInt8>,
                          count: Int, _ output: UnsafeMutablePointer<UInt8>) {
        var i = 0
        while i &+ 16 <= count {
            store(words(load(r + i)), words(load(g + i)), words(load(b + i)), output + 4 &* i)
            i &+= 16
        }
        rgbPixels(r: r, g: g, b: b, from: i, to: count, output)
    }

    /// Pillow's `MULDIV255` in 16-bit lanes: `a·b + 128` ≤ 65153 and adding `t >> 8` ≤ 254 stay
    /// below 2^16.
    @inline(__always)
    static func mulDiv255(_ a: Words, _ b: Words) -> Words {
        let t = a &* b &+ 128
        return ((t &>> 8) &+ t) &>> 8
    }

    /// Stores `K − MULDIV255(v, K)` per channel as RGBA.
    @inline(__always)
    static func storeInked(_ r: Words, _ g: Words, _ b: Words, black: Words, _ destination: UnsafeMutablePointer<UInt8>) {
        store(black &- mulDiv255(r, black), black &- mulDiv255(g, black), black &- mulDiv255(b, black), destination)
    }

    /// Adobe CMYK (stored inverted: 255 = no ink) → RGBA as Pillow converts it:
    /// `R = K − MULDIV255(255 − C, K)`, G from M, B from Y (see the type's documentation).
    static func cmykToRGBA(c: UnsafePointer<UInt8>, m: UnsafePointer<UInt8>, y: UnsafePointer<UInt8>,
                           k: UnsafePointer<UInt8>, count: Int, _ output: UnsafeMutablePointer<UInt8>) {
        var i = 0
        let full = Samples(repeating: 255)
        while i &+ 16 <= count {
            storeInked(words(full &- load(c + i)), words(full &- load(m + i)), words(full &- load(y + i)),
                       black: words(load(k + i)), output + 4 &* i)
            i &+= 16
        }
        cmykPixels(c: c, m: m, y: y, k: k, from: i, to: count, output)
    }

    /// Adobe YCCK → RGBA: the YCbCr formula on the first three components, then
    /// `R = K − MULDIV255(R', K)` and likewise G, B (libjpeg's `ycck_cmyk_convert` followed by
    /// Pillow's inverted-CMYK conversion; see the type's documentation).
    static func ycckToRGBA(y: UnsafePointer<UInt8>, cb: UnsafePointer<UInt8>, cr: UnsafePointer<UInt8>,
                           k: UnsafePointer<UInt8>, count: Int, _ output: UnsafeMutablePointer<UInt8>) {
        var i = 0
        while i &+ 16 <= count {
            let (r, g, b) = ycc(load(y + i), load(cb + i), load(cr + i))
            storeInked(r, g, b, black: words(load(k + i)), output + 4 &* i)
            i &+= 16
        }
        ycckPixels(y: y, cb: cb, cr: cr, k: k, from: i, to: count, output)
    }
}
