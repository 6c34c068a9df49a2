import CodecCore

extension VP8LTransform {
    /// RFC 9649 4.1: the prediction of mode 0 (and of the unused modes 14 and 15, as libwebp
    /// decodes them): opaque black.
    static let black: UInt32 = 0xFF00_0000

    /// RFC 9649 4.1, the inverse predictor transform of one row, in place: every pixel adds the
    /// prediction from its already restored neighbours L (left), T (top), TL and TR. The top
    /// row predicts from L (its first pixel from black); the first column from T; the others
    /// use their block's mode, the green byte of the transform image. The TR of the last column
    /// is the first pixel of the current row (the pixel after TL's row ends, in memory order).
    func addPredictions(row y: Int, line: UnsafeMutablePointer<UInt32>, modes: UnsafeBufferPointer<UInt32>) {
        if y == 0 {
            line[0] = Self.addPixels(line[0], Self.black)
            Self.addRun(mode: 1, line, from: 1, to: width, width: width)
            return
        }
        line[0] = Self.addPixels(line[0], line[-width])
        let blockRow = (y >> bits) * blocksPerRow
        let blockSize = 1 << bits
        var x = 1
        var block = 0
        while x < width {
            let end = min(width, (block + 1) * blockSize)
            let mode = Int((modes[blockRow + block] &>> 8) & 0xF)
            Self.addRun(mode: mode, line, from: x, to: end, width: width)
            x = end
            block += 1
        }
    }

    /// Adds mode `mode`'s predictions to `line[start..<end]`: in SSE2 on x86-64 in optimised
    /// builds (`VP8LTransformSSE2.addRun`), else in scalar code.
    @inline(__always)
    static func addRun(mode: Int, _ line: UnsafeMutablePointer<UInt32>, from start: Int, to end: Int, width: Int) {
        #if arch(x86_64)
        if VectorKernels.arePreferred {
            VP8LTransformSSE2.addRun(mode: mode, line, from: start, to: end, width: width)
            return
        }
        #endif
        addRunScalar(mode: mode, line, from: start, to: end, width: width)
    }

    /// Adds mode `mode`'s predictions to `line[start..<end]` (the documented hot loop: one
    /// loop per mode; the left neighbour is carried in a register, since reading it back from
    /// memory right after storing it stalls the load).
    static func addRunScalar(mode: Int, _ line: UnsafeMutablePointer<UInt32>, from start: Int, to end: Int, width: Int) {
        let top = line - width
        var x = start
        var left = line[start &- 1]
        switch mode {
        case 1:
            while x < end { left = addPixels(line[x], left); line[x] = left; x &+= 1 }
        case 2:
            while x < end { line[x] = addPixels(line[x], top[x]); x &+= 1 }
        case 3:
            while x < end { line[x] = addPixels(line[x], top[x &+ 1]); x &+= 1 }
        case 4:
            while x < end { line[x] = addPixels(line[x], top[x &- 1]); x &+= 1 }
        case 5:
            while x < end {
                left = addPixels(line[x], average2(average2(left, top[x &+ 1]), top[x]))
                line[x] = left
                x &+= 1
            }
        case 6:
            while x < end { left = addPixels(line[x], average2(left, top[x &- 1])); line[x] = left; x &+= 1 }
        case 7:
            while x < end { left = addPixels(line[x], average2(left, top[x])); line[x] = left; x &+= 1 }
        case 8:
            while x < end { line[x] = addPixels(line[x], average2(top[x &- 1], top[x])); x &+= 1 }
        case 9:
            while x < end { line[x] = addPixels(line[x], average2(top[x], top[x &+ 1])); x &+= 1 }
        case 10:
            while x < end {
                let prediction = average2(average2(left, top[x &- 1]), average2(top[x], top[x &+ 1]))
                left = addPixels(line[x], prediction)
                line[x] = left
                x &+= 1
            }
        case 11:
            while x < end {
                left = addPixels(line[x], selectSIMD(left, top[x], top[x &- 1]))
                line[x] = left
                x &+= 1
            }
        case 12:
            while x < end {
                left = addPixels(line[x], clampAddSubtractFullSIMD(left, top[x], top[x &- 1]))
                line[x] = left
                x &+= 1
            }
        case 13:
            while x < end {
                left = addPixels(line[x], clampAddSubtractHalfSIMD(average2(left, top[x]), top[x &- 1]))
                line[x] = left
                x &+= 1
            }
        default:
            while x < end { line[x] = addPixels(line[x], black); x &+= 1 }
        }
    }

    /// RFC 9649 4.1, `Average2`: the truncated mean of each component.
    @inline(__always)
    static func average2(_ a: UInt32, _ b: UInt32) -> UInt32 {
        (((a ^ b) & 0xFEFE_FEFE) &>> 1) &+ (a & b)
    }

    /// RFC 9649 4.1, `Select`: L or T, whichever is closer (Manhattan distance over the four
    /// components) to the gradient estimate L + T − TL; T on a tie.
    @inline(__always)
    static func select(_ left: UInt32, _ top: UInt32, _ topLeft: UInt32) -> UInt32 {
        // Distance of the estimate to L is Σ|T − TL|, to T is Σ|L − TL|.
        let toLeft = manhattan(top, topLeft)
        let toTop = manhattan(left, topLeft)
        return toLeft < toTop ? left : top
    }

    @inline(__always)
    static func manhattan(_ a: UInt32, _ b: UInt32) -> Int {
        var sum = 0
        var shift: UInt32 = 0
        while shift < 32 {
            sum &+= abs(Int((a &>> shift) & 0xFF) &- Int((b &>> shift) & 0xFF))
            shift &+= 8
        }
        return sum
    }

    /// RFC 9649 4.1, `ClampAddSubtractFull`: a + b − c per component, clamped to 0…255.
    @inline(__always)
    static func clampAddSubtractFull(_ a: UInt32, _ b: UInt32, _ c: UInt32) -> UInt32 {
        var out: UInt32 = 0
        var shift: UInt32 = 0
        while shift < 32 {
            let value = Int((a &>> shift) & 0xFF) &+ Int((b &>> shift) & 0xFF) &- Int((c &>> shift) & 0xFF)
            out |= UInt32(clamp255(value)) &<< shift
            shift &+= 8
        }
        return out
    }

    /// RFC 9649 4.1, `ClampAddSubtractHalf`: a + (a − b) / 2 per component (the division
    /// truncating toward zero), clamped to 0…255.
    @inline(__always)
    static func clampAddSubtractHalf(_ a: UInt32, _ b: UInt32) -> UInt32 {
        var out: UInt32 = 0
        var shift: UInt32 = 0
        while shift < 32 {
            let ac = Int((a &>> shift) & 0xFF)
            let value = ac &+ (ac &- Int((b &>> shift) & 0xFF)) / 2
            out |= UInt32(clamp255(value)) &<< shift
            shift &+= 8
        }
        return out
    }

    @inline(__always)
    static func clamp255(_ v: Int) -> Int {
        v < 0 ? 0 : v > 255 ? 255 : v
    }
}
