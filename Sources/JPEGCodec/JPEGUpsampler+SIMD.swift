/// The upsampling kernels 16 input samples at a time, in 16-bit lanes (every intermediate
/// value stays below 2^12). Neighbours come from unaligned loads one sample to the left and to
/// the right, so the vector loop covers the columns whose neighbours are both inside the row
/// and the scalar twins' column loops do the two ends. An output pair `(even, odd)` is written as
/// one 16-bit lane holding both bytes in memory order (`even | odd << 8` on little-endian
/// targets).
extension JPEGUpsampler {
    typealias Samples = SIMD16<UInt8>
    typealias Lanes = SIMD16<UInt16>

    // Lane-wise initializers rather than the standard library's vector conversions: the
    // optimizer may leave those as calls, while these compile to `punpcklbw`/`packuswb`.

    @inline(__always)
    static func lanes(_ p: UnsafePointer<UInt8>) -> Lanes {
        let v = UnsafeRawPointer(p).loadUnaligned(as: Samples.self)
        return Lanes(UInt16(v[0]), UInt16(v[1]), UInt16(v[2]), UInt16(v[3]), UInt16(v[4]), UInt16(v[5]),
                     UInt16(v[6]), UInt16(v[7]), UInt16(v[8]), UInt16(v[9]), UInt16(v[10]), UInt16(v[11]),
                     UInt16(v[12]), UInt16(v[13]), UInt16(v[14]), UInt16(v[15]))
    }

    /// The low bytes of 16 lanes.
    @inline(__always)
    static func narrowed(_ v: Lanes) -> Samples {
        Samples(UInt8(truncatingIfNeeded: v[0]), UInt8(truncatingIfNeeded: v[1]), UInt8(truncatingIfNeeded: v[2]),
                UInt8(truncatingIfNeeded: v[3]), UInt8(truncatingIfNeeded: v[4]), UInt8(truncatingIfNeeded: v[5]),
                UInt8(truncatingIfNeeded: v[6]), UInt8(truncatingIfNeeded: v[7]), UInt8(truncatingIfNeeded: v[8]),
                UInt8(truncatingIfNeeded: v[9]), UInt8(truncatingIfNeeded: v[10]), UInt8(truncatingIfNeeded: v[11]),
                UInt8(truncatingIfNeeded: v[12]), UInt8(truncatingIfNeeded: v[13]), UInt8(truncatingIfNeeded: v[14]),
                UInt8(truncatingIfNeeded: v[15]))
    }

    /// Stores 16 output pairs (32 bytes): `even[j]` then `odd[j]`.
    @inline(__always)
    static func storePairs(_ even: Lanes, _ odd: Lanes, _ destination: UnsafeMutablePointer<UInt8>) {
        #if _endian(big)
        let pairs = (even &<< 8) | odd
        #else
        let pairs = even | (odd &<< 8)
        #endif
        UnsafeMutableRawPointer(destination).storeBytes(of: pairs, as: Lanes.self)
    }

    /// `h2v1_fancy_upsample` for one row: see ``h2v1FancyScalar(_:width:_:)`` for the formula.
    /// Reads `width` ≥ 1 samples, writes `2·width`.
    static func h2v1Fancy(_ input: UnsafePointer<UInt8>, width: Int, _ output: UnsafeMutablePointer<UInt8>) {
        var i = 1
        h2v1FancyColumns(input, from: 0, to: min(1, width), width: width, output)
        while i &+ 17 <= width {
            let three = lanes(input + i) &* 3
            storePairs((three &+ lanes(input + (i &- 1)) &+ 1) &>> 2,
                       (three &+ lanes(input + (i &+ 1)) &+ 2) &>> 2, output + 2 &* i)
            i &+= 16
        }
        h2v1FancyColumns(input, from: i, to: width, width: width, output)
    }

    /// `h2v2_fancy_upsample` for one output row: see ``h2v2FancyScalar(near:far:width:_:)``.
    /// `near` is the input row the output row lies in, `far` the adjacent input row on the output
    /// row's side (above for the upper output row of a pair, below for the lower; at the image's
    /// top and bottom libjpeg's context rows repeat the edge row, so the caller passes `near`
    /// again). Reads `width` ≥ 1 samples of each, writes `2·width`.
    static func h2v2Fancy(near: UnsafePointer<UInt8>, far: UnsafePointer<UInt8>, width: Int,
                          _ output: UnsafeMutablePointer<UInt8>) {
        var i = 1
        h2v2FancyColumns(near: near, far: far, from: 0, to: min(1, width), width: width, output)
        while i &+ 17 <= width {
            let left = lanes(near + (i &- 1)) &* 3 &+ lanes(far + (i &- 1))
            let center = lanes(near + i) &* 3 &+ lanes(far + i)
            let right = lanes(near + (i &+ 1)) &* 3 &+ lanes(far + (i &+ 1))
            let three = center &* 3
            storePairs((three &+ left &+ 8) &>> 4, (three &+ right &+ 7) &>> 4, output + 2 &* i)
            i &+= 16
        }
        h2v2FancyColumns(near: near, far: far, from: i, to: width, width: width, output)
    }

    /// `h1v2_fancy_upsample` for one output row: `(3·near + far + bias) >> 2` with bias 1 when
    /// `lower` is false (the upper output row of a pair, `far` = the input row above) and 2 when
    /// it is true (`far` = the row below); see ``h1v2FancyScalar(near:far:lower:width:_:)``.
    /// Reads `width` samples of each, writes `width`.
    static func h1v2Fancy(near: UnsafePointer<UInt8>, far: UnsafePointer<UInt8>, lower: Bool, width: Int,
                          _ output: UnsafeMutablePointer<UInt8>) {
        let bias: UInt16 = lower ? 2 : 1
        var i = 0
        while i &+ 16 <= width {
            let value = (lanes(near + i) &* 3 &+ lanes(far + i) &+ bias) &>> 2
            UnsafeMutableRawPointer(output + i).storeBytes(of: narrowed(value), as: Samples.self)
            i &+= 16
        }
        h1v2FancyColumns(near: near, far: far, bias: bias, from: i, to: width, output)
    }

    /// Horizontal replication (`h2v1_upsample`, `h2v2_upsample`'s rows, `int_upsample`): each of
    /// `width` samples `factor` times. Vertical replication is the caller repeating the row.
    static func replicate(_ input: UnsafePointer<UInt8>, width: Int, factor: Int, _ output: UnsafeMutablePointer<UInt8>) {
        var i = 0
        switch factor {
        case 1:
            output.update(from: input, count: width)
            return
        case 2:
            while i &+ 16 <= width {
                let value = lanes(input + i)
                storePairs(value, value, output + 2 &* i)
                i &+= 16
            }
        default:
            break
        }
        replicateColumns(input, from: i, to: width, factor: factor, output)
    }
}
