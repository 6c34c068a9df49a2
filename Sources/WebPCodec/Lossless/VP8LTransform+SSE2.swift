#if arch(x86_64)
import _Builtin_intrinsics.intel

/// The inverse predictor (RFC 9649 4.1) and colour (RFC 9649 4.2) transforms in SSE2, the
/// x86-64 baseline, through clang's built-in intrinsics (`_Builtin_intrinsics.intel`: no flags,
/// no native library). Other architectures, and unoptimised builds, run the scalar twins in
/// VP8LTransform+Predictor.swift and VP8LTransform+Color.swift; `VP8LTransformSSE2Tests` holds
/// them equal on random rows. A pixel's bytes sit in a register in memory order (blue, green,
/// red, alpha); the clang headers' immediate-operand shuffles are macros Swift cannot import,
/// so lanes move with shifts and unpacks only.
enum VP8LTransformSSE2 {
    @inline(__always)
    static func load4(_ p: UnsafePointer<UInt32>) -> __m128i {
        _mm_loadu_si128(UnsafeRawPointer(p).assumingMemoryBound(to: __m128i.self))
    }

    @inline(__always)
    static func store4(_ v: __m128i, _ p: UnsafeMutablePointer<UInt32>) {
        _mm_storeu_si128(UnsafeMutableRawPointer(p).assumingMemoryBound(to: __m128i.self), v)
    }

    @inline(__always)
    static func load1(_ pixel: UInt32) -> __m128i {
        _mm_cvtsi32_si128(Int32(bitPattern: pixel))
    }

    @inline(__always)
    static func pixel(_ v: __m128i) -> UInt32 {
        UInt32(bitPattern: _mm_cvtsi128_si32(v))
    }

    /// RFC 9649 4.2: the inverse colour transform of `line[start..<end]`, one block's run, with
    /// the block's `element`; 4 pixels per step. `ColorTransformDelta(t, c) = (t * c) >> 5` is
    /// a `pmulhw` of c in a 16-bit lane's high byte (c · 256, sign-extended) by t · 8.
    static func inverseCrossColor(_ line: UnsafeMutablePointer<UInt32>, from start: Int, to end: Int, element: UInt32) {
        let greenToRed = Int32(Int8(truncatingIfNeeded: element)) &* 8
        let greenToBlue = Int32(Int8(truncatingIfNeeded: element &>> 8)) &* 8
        let redToBlue = Int32(Int8(truncatingIfNeeded: element &>> 16)) &* 8
        // Per pixel, the 16-bit lanes are (blue, green) and (red, alpha): the multipliers for
        // the deltas added to blue and to red sit in the matching lanes.
        let greenMultipliers = _mm_set1_epi32(greenToRed &<< 16 | greenToBlue & 0xFFFF)
        let redMultiplier = _mm_set1_epi32(redToBlue &<< 16)
        let alphaGreenMask = _mm_set1_epi32(Int32(bitPattern: 0xFF00_FF00))
        let greenMask = _mm_set1_epi32(0xFF00)
        var x = start
        while x &+ 4 <= end {
            let argb = load4(line + x)
            let green = _mm_and_si128(argb, greenMask)
            // Green · 256 in both 16-bit lanes of every pixel.
            let greens = _mm_or_si128(green, _mm_slli_epi32(green, 16))
            // Red and blue (low bytes of the lanes) plus their green deltas.
            let first = _mm_add_epi8(argb, _mm_mulhi_epi16(greens, greenMultipliers))
            // The new red and blue moved to the lanes' high bytes.
            let redBlue = _mm_slli_epi16(first, 8)
            // The red-to-blue delta, moved from the red lane's low byte to blue's high byte.
            let blueDelta = _mm_srli_epi32(_mm_mulhi_epi16(redBlue, redMultiplier), 8)
            let restored = _mm_srli_epi16(_mm_add_epi8(redBlue, blueDelta), 8)
            store4(_mm_or_si128(restored, _mm_and_si128(argb, alphaGreenMask)), line + x)
            x &+= 4
        }
        VP8LTransform.inverseCrossColor(line, from: x, to: end, element: element)
    }

    /// RFC 9649 4.1: adds mode `mode`'s predictions to `line[start..<end]` as
    /// `VP8LTransform.addRunScalar` does. Modes without a left neighbour take 4 pixels per
    /// step; the others one pixel per step, the left neighbour kept in a register.
    static func addRun(mode: Int, _ line: UnsafeMutablePointer<UInt32>, from start: Int, to end: Int, width: Int) {
        let top = UnsafePointer(line - width)
        switch mode {
        case 1: addLeft(line, from: start, to: end)
        case 2: addTop(line, top: top, from: start, to: end)
        case 3: addTop(line, top: top + 1, from: start, to: end)
        case 4: addTop(line, top: top - 1, from: start, to: end)
        case 5, 6, 7, 10: addAverageLeft(mode: mode, line, top: top, from: start, to: end)
        case 8: addAverageTop(line, top: top, offset: -1, from: start, to: end)
        case 9: addAverageTop(line, top: top, offset: 1, from: start, to: end)
        case 11: addSelect(line, top: top, from: start, to: end)
        case 12: addClampFull(line, top: top, from: start, to: end)
        case 13: addClampHalf(line, top: top, from: start, to: end)
        default: addTop(line, top: nil, from: start, to: end)
        }
    }

    /// RFC 9649 4.1, `Average2` of every byte: `pavgb` rounds up, so the halves of odd sums
    /// are taken back.
    @inline(__always)
    static func average2(_ a: __m128i, _ b: __m128i) -> __m128i {
        _mm_sub_epi8(_mm_avg_epu8(a, b), _mm_and_si128(_mm_xor_si128(a, b), _mm_set1_epi8(1)))
    }

    /// Modes 2, 3 and 4 (T, TR, TL: `predictors` is the top row shifted by 0, 1 or −1), and
    /// with `predictors` nil the opaque black of modes 0, 14 and 15.
    static func addTop(_ line: UnsafeMutablePointer<UInt32>, top predictors: UnsafePointer<UInt32>?,
                       from start: Int, to end: Int) {
        var x = start
        let black = _mm_set1_epi32(Int32(bitPattern: VP8LTransform.black))
        while x &+ 4 <= end {
            let prediction = predictors.map { load4($0 + x) } ?? black
            store4(_mm_add_epi8(load4(line + x), prediction), line + x)
            x &+= 4
        }
        while x < end {
            line[x] = VP8LTransform.addPixels(line[x], predictors?[x] ?? VP8LTransform.black)
            x &+= 1
        }
    }

    /// Modes 8 and 9: `Average2` of T and TL (`offset` −1) or TR (`offset` 1).
    static func addAverageTop(_ line: UnsafeMutablePointer<UInt32>, top: UnsafePointer<UInt32>, offset: Int,
                              from start: Int, to end: Int) {
        var x = start
        while x &+ 4 <= end {
            let mean = average2(load4(top + x), load4(top + (x &+ offset)))
            store4(_mm_add_epi8(load4(line + x), mean), line + x)
            x &+= 4
        }
        while x < end {
            line[x] = VP8LTransform.addPixels(line[x], VP8LTransform.average2(top[x], top[x &+ offset]))
            x &+= 1
        }
    }

    /// Mode 1 (L): a running sum of the residuals, 4 pixels per step (a prefix sum in two
    /// shifted additions, then the previous pixel added to all four).
    static func addLeft(_ line: UnsafeMutablePointer<UInt32>, from start: Int, to end: Int) {
        var x = start
        var left = _mm_set1_epi32(Int32(bitPattern: line[start &- 1]))
        let zero = _mm_setzero_si128()
        while x &+ 4 <= end {
            let residuals = load4(line + x)
            // a, a + b, c, c + d.
            let pairs = _mm_add_epi8(residuals, _mm_slli_epi64(residuals, 32))
            // a, a + b, a + b + c, a + b + c + d.
            let sums = _mm_add_epi8(pairs, _mm_unpackhi_epi64(zero, _mm_unpacklo_epi32(pairs, pairs)))
            let out = _mm_add_epi8(sums, left)
            store4(out, line + x)
            let high = _mm_unpackhi_epi32(out, out)
            left = _mm_unpackhi_epi64(high, high)
            x &+= 4
        }
        var previous = line[x &- 1]
        while x < end {
            previous = VP8LTransform.addPixels(line[x], previous)
            line[x] = previous
            x &+= 1
        }
    }

    /// Modes 5, 6, 7 and 10, the averages with L: `Average2(Average2(L, TR), T)`,
    /// `Average2(L, TL)`, `Average2(L, T)` and `Average2(Average2(L, TL), Average2(T, TR))`.
    static func addAverageLeft(mode: Int, _ line: UnsafeMutablePointer<UInt32>, top: UnsafePointer<UInt32>,
                               from start: Int, to end: Int) {
        var left = load1(line[start &- 1])
        var x = start
        while x < end {
            let prediction: __m128i
            switch mode {
            case 5: prediction = average2(average2(left, load1(top[x &+ 1])), load1(top[x]))
            case 6: prediction = average2(left, load1(top[x &- 1]))
            case 7: prediction = average2(left, load1(top[x]))
            default:
                prediction = average2(average2(left, load1(top[x &- 1])), average2(load1(top[x]), load1(top[x &+ 1])))
            }
            left = _mm_add_epi8(load1(line[x]), prediction)
            line[x] = pixel(left)
            x &+= 1
        }
    }

    /// Mode 11, `Select`: L when Σ|T − TL| < Σ|L − TL| (`psadbw`), else T.
    static func addSelect(_ line: UnsafeMutablePointer<UInt32>, top: UnsafePointer<UInt32>, from start: Int, to end: Int) {
        var left = load1(line[start &- 1])
        var x = start
        while x < end {
            let t = load1(top[x]), tl = load1(top[x &- 1])
            let toLeft = _mm_sad_epu8(t, tl)
            let useLeft = _mm_cmpgt_epi32(_mm_sad_epu8(left, tl), toLeft)
            let prediction = _mm_or_si128(_mm_and_si128(useLeft, left), _mm_andnot_si128(useLeft, t))
            left = _mm_add_epi8(load1(line[x]), prediction)
            line[x] = pixel(left)
            x &+= 1
        }
    }

    /// Mode 12, `ClampAddSubtractFull(L, T, TL)` in 16-bit lanes, clamped by `packuswb`.
    static func addClampFull(_ line: UnsafeMutablePointer<UInt32>, top: UnsafePointer<UInt32>, from start: Int, to end: Int) {
        let zero = _mm_setzero_si128()
        var left = _mm_unpacklo_epi8(load1(line[start &- 1]), zero)
        var x = start
        while x < end {
            let gradient = _mm_sub_epi16(_mm_unpacklo_epi8(load1(top[x]), zero), _mm_unpacklo_epi8(load1(top[x &- 1]), zero))
            let prediction = _mm_packus_epi16(_mm_add_epi16(left, gradient), zero)
            let out = _mm_add_epi8(load1(line[x]), prediction)
            line[x] = pixel(out)
            left = _mm_unpacklo_epi8(out, zero)
            x &+= 1
        }
    }

    /// Mode 13, `ClampAddSubtractHalf(Average2(L, T), TL)` in 16-bit lanes: the halving of
    /// a − TL truncates toward zero (1 added to negative differences before the arithmetic
    /// shift), `packuswb` clamps.
    static func addClampHalf(_ line: UnsafeMutablePointer<UInt32>, top: UnsafePointer<UInt32>, from start: Int, to end: Int) {
        let zero = _mm_setzero_si128()
        var left = _mm_unpacklo_epi8(load1(line[start &- 1]), zero)
        var x = start
        while x < end {
            let t = _mm_unpacklo_epi8(load1(top[x]), zero)
            let tl = _mm_unpacklo_epi8(load1(top[x &- 1]), zero)
            let mean = _mm_srli_epi16(_mm_add_epi16(left, t), 1)
            // cmpgt gives −1 where the difference is negative: subtracting it adds 1.
            let difference = _mm_sub_epi16(_mm_sub_epi16(mean, tl), _mm_cmpgt_epi16(tl, mean))
            let prediction = _mm_packus_epi16(_mm_add_epi16(mean, _mm_srai_epi16(difference, 1)), zero)
            let out = _mm_add_epi8(load1(line[x]), prediction)
            line[x] = pixel(out)
            left = _mm_unpacklo_epi8(out, zero)
            x &+= 1
        }
    }
}
#endif
