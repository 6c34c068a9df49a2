import CodecCore

/// YUV 4:2:0 to RGBA8 as libwebp's `WebPDecodeRGBA` (and `dwebp`) output it by default:
/// "fancy" upsampling of the chroma (each output pixel takes its chroma from the four nearest
/// chroma samples weighted 9:3:3:1, computed by libwebp's two-step rounding), then the BT.601
/// limited-range conversion in 14-bit fixed point (`MultHi`, a 6-bit final shift), alpha 255.
enum VP8Upsampling {
    @inline(__always) static func multHi(_ v: Int32, _ c: Int32) -> Int32 { (v &* c) &>> 8 }

    @inline(__always) static func clip8(_ v: Int32) -> UInt8 {
        v & ~16383 == 0 ? UInt8(truncatingIfNeeded: v &>> 6) : (v < 0 ? 0 : 255)
    }

    /// Writes one RGBA pixel from Y, U, V.
    @inline(__always)
    static func store(_ y: UInt8, _ u: Int32, _ v: Int32, _ dst: UnsafeMutablePointer<UInt8>) {
        let yy = multHi(Int32(y), 19077)
        dst[0] = clip8(yy &+ multHi(v, 26149) &- 14234)
        dst[1] = clip8(yy &- multHi(u, 6419) &- multHi(v, 13320) &+ 8708)
        dst[2] = clip8(yy &+ multHi(u, 33050) &- 17685)
        dst[3] = 255
    }

    /// One output row of `width` pixels from luma row `y`, the chroma row nearest to it
    /// (`near`) and the other one around it (`far`): the chroma is `(3 near + far) / 4`
    /// vertically, then interpolated horizontally. Chroma pairs are packed as `u | v << 16`
    /// so both are computed at once, as libwebp does.
    static func upsampleRow(y: UnsafePointer<UInt8>, nearU: UnsafePointer<UInt8>, nearV: UnsafePointer<UInt8>,
                            farU: UnsafePointer<UInt8>, farV: UnsafePointer<UInt8>,
                            dst: UnsafeMutablePointer<UInt8>, width: Int,
                            vectorized: Bool = VectorKernels.arePreferred) {
        @inline(__always) func load(_ u: UnsafePointer<UInt8>, _ v: UnsafePointer<UInt8>, _ i: Int) -> UInt32 {
            UInt32(u[i]) | UInt32(v[i]) << 16
        }
        @inline(__always) func put(_ x: Int, _ uv: UInt32) {
            store(y[x], Int32(uv & 0xFF), Int32((uv >> 16) & 0xFF), dst + 4 * x)
        }
        // In libwebp's words: the row being written is "top" when its near chroma row is
        // the upper one. The 9:3:3:1 weights come out the same either way; the
        // diagonals below are libwebp's for the near row being `tl`/`t` or `l`/`uv`.
        put(0, (3 &* load(nearU, nearV, 0) &+ load(farU, farV, 0) &+ 0x0002_0002) >> 2)
        let lastPair = (width - 1) >> 1
        var x = 1
        if vectorized {
            // Groups of 8 pairs in SIMD (VP8Upsampling+SSE2.swift on x86-64, else
            // VP8Upsampling+SIMD.swift), the rest here.
            #if arch(x86_64)
            x = VP8UpsamplingSSE2.pairs(y: y, nearU: nearU, nearV: nearV, farU: farU, farV: farV,
                                        dst: dst, lastPair: lastPair)
            #else
            x = VP8UpsamplingSIMD.pairs(y: y, nearU: nearU, nearV: nearV, farU: farU, farV: farV,
                                        dst: dst, lastPair: lastPair)
            #endif
        }
        var nearLeft = load(nearU, nearV, x - 1)
        var farLeft = load(farU, farV, x - 1)
        while x <= lastPair {
            let nearCur = load(nearU, nearV, x)
            let farCur = load(farU, farV, x)
            let avg = nearLeft &+ nearCur &+ farLeft &+ farCur &+ 0x0008_0008
            // The diagonal through (near, x - 1) and (far, x), and the other one.
            let diagNearLeft = (avg &+ 2 &* (nearCur &+ farLeft)) >> 3
            let diagNearCur = (avg &+ 2 &* (nearLeft &+ farCur)) >> 3
            put(2 * x - 1, (diagNearLeft &+ nearLeft) >> 1)
            put(2 * x, (diagNearCur &+ nearCur) >> 1)
            nearLeft = nearCur
            farLeft = farCur
            x += 1
        }
        if width & 1 == 0 {
            put(width - 1, (3 &* nearLeft &+ farLeft &+ 0x0002_0002) >> 2)
        }
    }

    /// The chroma rows output row `row` of an image `height` rows high is made from: rows
    /// 2k − 1 and 2k sit between chroma rows k − 1 and k, so the nearest is `row / 2` and the
    /// other is above it for even rows, below it for odd rows, clamped to the plane (row 0 and
    /// an even height's last row have one chroma row only, which libwebp repeats).
    @inline(__always)
    static func chromaRows(forRow row: Int, height: Int) -> (near: Int, far: Int) {
        let near = row >> 1
        let far = row & 1 == 0 ? near - 1 : near + 1
        return (near, min(max(far, 0), ((height + 1) >> 1) - 1))
    }
}
