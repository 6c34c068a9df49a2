/// Upsampling of subsampled components (T.81 A.1.1 leaves it to the decoder), bit-exact with
/// libjpeg-turbo 2.1.5's `jdsample.c` with `do_fancy_upsampling` (djpeg's default). Its x86-64
/// SIMD versions (`jsimd_h2v1_fancy_upsample`, `jsimd_h2v2_fancy_upsample`, and the plain
/// ones) compute the same values as the C code, so there is one behaviour to follow.
///
/// Fancy upsampling is a triangle filter: each output sample lies 1/4 of an input spacing from
/// its nearer input sample, so it weighs that sample 3/4 and the next nearest 1/4, in each
/// dimension that is upsampled. At a row's ends the missing neighbour is the end sample itself
/// (libjpeg's C code special-cases the first and last columns; its SIMD code copies the last
/// sample one place past the end; both amount to that). The rounding biases alternate so that
/// errors do not accumulate in one direction; they are given per kernel below.
///
/// The kernels work on one output row, take exactly `width` input samples (nothing is read past
/// them) and write `factor · width` output samples; a caller with an odd image width uses the
/// first `outputWidth` of them. `width` is the component's `downsampled_width`
/// (ceil(imageWidth · h / maxH), scaled), not the padded width of its IDCT blocks: libjpeg
/// treats the last real column as the edge, whatever the padding blocks decoded to. Vertically
/// likewise: for the vertical kernels the caller passes, as the row beyond an edge, the edge row
/// itself: row 0 above the first row, and below the last real row (`downsampled_height − 1`)
/// that row again, not the padding rows its IDCT blocks produced (`jdmainct.c`'s context rows).
enum JPEGUpsampler {
    /// What libjpeg does with one component (`jinit_upsampler`).
    enum Method: Equatable, Sendable {
        /// The component is at full resolution: used as is.
        case fullSize
        /// Horizontal 2:1, triangle filter (``h2v1Fancy(_:width:_:)``).
        case h2v1Fancy
        /// Horizontal 2:1, each sample twice (``replicate(_:width:factor:_:)`` with factor 2).
        case h2v1Plain
        /// Vertical 2:1, triangle filter (``h1v2Fancy(near:far:lower:width:_:)``).
        case h1v2Fancy
        /// 2:1 both ways, triangle filter (``h2v2Fancy(near:far:width:_:)``).
        case h2v2Fancy
        /// 2:1 both ways, each sample twice and each row twice.
        case h2v2Plain
        /// Integral factors: each sample `h` times (``replicate(_:width:factor:_:)``), each row
        /// `v` times (the caller repeats rows).
        case integer(h: Int, v: Int)
    }

    /// libjpeg-turbo's choice (`jinit_upsampler`), in its order:
    /// 1. `h == maxH && v == maxV`: full size;
    /// 2. `2h == maxH && v == maxV`: `h2v1Fancy` if `fancy` and `downsampledWidth > 2`, else `h2v1Plain`;
    /// 3. `h == maxH && 2v == maxV && fancy`: `h1v2Fancy` (without `fancy` this falls to rule 5);
    /// 4. `2h == maxH && 2v == maxV`: `h2v2Fancy` if `fancy` and `downsampledWidth > 2`, else `h2v2Plain`;
    /// 5. `maxH % h == 0 && maxV % v == 0`: `integer(h: maxH / h, v: maxV / v)`;
    /// 6. otherwise nil: libjpeg refuses the image (`JERR_FRACT_SAMPLE_NOTIMPL`).
    ///
    /// `h` and `v` are libjpeg's `h_in_group`/`v_in_group`: the sampling factors times the
    /// component's IDCT size over the image's minimum IDCT size (just the sampling factors when
    /// not scaling; see ``JPEGIDCT/componentScaledSize(minScaledSize:h:v:maxH:maxV:)``). `fancy`
    /// is `do_fancy_upsampling && min_DCT_scaled_size > 1`: libjpeg turns fancy upsampling off
    /// at scale 1/8. Nil too for factors below 1.
    static func method(h: Int, v: Int, maxH: Int, maxV: Int, downsampledWidth: Int, fancy: Bool) -> Method? {
        guard h > 0, v > 0, maxH > 0, maxV > 0 else { return nil }
        if h == maxH && v == maxV { return .fullSize }
        if h &* 2 == maxH && v == maxV { return fancy && downsampledWidth > 2 ? .h2v1Fancy : .h2v1Plain }
        if h == maxH && v &* 2 == maxV && fancy { return .h1v2Fancy }
        if h &* 2 == maxH && v &* 2 == maxV { return fancy && downsampledWidth > 2 ? .h2v2Fancy : .h2v2Plain }
        if maxH % h == 0 && maxV % v == 0 { return .integer(h: maxH / h, v: maxV / v) }
        return nil
    }

    /// `h2v1_fancy_upsample`, scalar twin of ``h2v1Fancy(_:width:_:)``: for input sample `s[i]`
    /// the outputs are `out[2i] = (3·s[i] + s[i−1] + 1) >> 2` and
    /// `out[2i+1] = (3·s[i] + s[i+1] + 2) >> 2`, with `s[−1] = s[0]` and `s[width] = s[width−1]`
    /// (so the first and last outputs are the end samples themselves). `width` ≥ 1.
    static func h2v1FancyScalar(_ input: UnsafePointer<UInt8>, width: Int, _ output: UnsafeMutablePointer<UInt8>) {
        h2v1FancyColumns(input, from: 0, to: width, width: width, output)
    }

    /// The scalar h2v1 kernel for input columns `start..<end` of a row of `width` samples.
    @inline(__always)
    static func h2v1FancyColumns(_ input: UnsafePointer<UInt8>, from start: Int, to end: Int, width: Int,
                                 _ output: UnsafeMutablePointer<UInt8>) {
        var i = start
        while i < end {
            let three = UInt16(input[i]) &* 3
            let left = UInt16(input[i > 0 ? i &- 1 : 0])
            let right = UInt16(input[i &+ 1 < width ? i &+ 1 : i])
            output[2 &* i] = UInt8(truncatingIfNeeded: (three &+ left &+ 1) &>> 2)
            output[2 &* i &+ 1] = UInt8(truncatingIfNeeded: (three &+ right &+ 2) &>> 2)
            i &+= 1
        }
    }

    /// `h2v2_fancy_upsample` for one output row, scalar twin of ``h2v2Fancy(near:far:width:_:)``:
    /// with the column sums `t[i] = 3·near[i] + far[i]` (`t[−1] = t[0]`, `t[width] = t[width−1]`),
    /// `out[2i] = (3·t[i] + t[i−1] + 8) >> 4` and `out[2i+1] = (3·t[i] + t[i+1] + 7) >> 4`. The
    /// biases depend on the column, not on which of the two output rows this is.
    static func h2v2FancyScalar(near: UnsafePointer<UInt8>, far: UnsafePointer<UInt8>, width: Int,
                                _ output: UnsafeMutablePointer<UInt8>) {
        h2v2FancyColumns(near: near, far: far, from: 0, to: width, width: width, output)
    }

    @inline(__always)
    static func h2v2FancyColumns(near: UnsafePointer<UInt8>, far: UnsafePointer<UInt8>, from start: Int, to end: Int,
                                 width: Int, _ output: UnsafeMutablePointer<UInt8>) {
        @inline(__always) func sum(_ i: Int) -> UInt16 { UInt16(near[i]) &* 3 &+ UInt16(far[i]) }
        var i = start
        while i < end {
            let three = sum(i) &* 3
            let left = sum(i > 0 ? i &- 1 : 0), right = sum(i &+ 1 < width ? i &+ 1 : i)
            output[2 &* i] = UInt8(truncatingIfNeeded: (three &+ left &+ 8) &>> 4)
            output[2 &* i &+ 1] = UInt8(truncatingIfNeeded: (three &+ right &+ 7) &>> 4)
            i &+= 1
        }
    }

    /// `h1v2_fancy_upsample` (present in libjpeg-turbo 2.1.5; C only on x86-64) for one output
    /// row, scalar twin of ``h1v2Fancy(near:far:lower:width:_:)``:
    /// `out[i] = (3·near[i] + far[i] + bias) >> 2`, bias 1 for the upper output row of a pair
    /// (`far` is the input row above) and 2 for the lower one (`far` is the row below).
    static func h1v2FancyScalar(near: UnsafePointer<UInt8>, far: UnsafePointer<UInt8>, lower: Bool, width: Int,
                                _ output: UnsafeMutablePointer<UInt8>) {
        h1v2FancyColumns(near: near, far: far, bias: lower ? 2 : 1, from: 0, to: width, output)
    }

    @inline(__always)
    static func h1v2FancyColumns(near: UnsafePointer<UInt8>, far: UnsafePointer<UInt8>, bias: UInt16,
                                 from start: Int, to end: Int, _ output: UnsafeMutablePointer<UInt8>) {
        var i = start
        while i < end {
            let value = UInt16(near[i]) &* 3 &+ UInt16(far[i]) &+ bias
            output[i] = UInt8(truncatingIfNeeded: value &>> 2)
            i &+= 1
        }
    }

    /// Scalar twin of ``replicate(_:width:factor:_:)``.
    static func replicateScalar(_ input: UnsafePointer<UInt8>, width: Int, factor: Int, _ output: UnsafeMutablePointer<UInt8>) {
        replicateColumns(input, from: 0, to: width, factor: factor, output)
    }

    @inline(__always)
    static func replicateColumns(_ input: UnsafePointer<UInt8>, from start: Int, to end: Int, factor: Int,
                                 _ output: UnsafeMutablePointer<UInt8>) {
        var i = start
        while i < end {
            (output + i &* factor).update(repeating: input[i], count: factor)
            i &+= 1
        }
    }
}
