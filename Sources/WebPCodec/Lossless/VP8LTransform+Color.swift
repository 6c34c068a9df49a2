import CodecCore

extension VP8LTransform {
    /// RFC 9649 4.3, the inverse of subtract green: green is added to red and blue, modulo 256.
    static func addGreen(_ pixels: UnsafeMutablePointer<UInt32>, count: Int) {
        var i = 0
        while i < count {
            let argb = pixels[i]
            let green = (argb &>> 8) & 0xFF
            let redBlue = ((argb & 0x00FF_00FF) &+ (green &<< 16 | green)) & 0x00FF_00FF
            pixels[i] = (argb & 0xFF00_FF00) | redBlue
            i &+= 1
        }
    }

    /// RFC 9649 4.2, `ColorTransformDelta`: signed 8-bit multiplier times signed 8-bit colour,
    /// shifted right by 5 (arithmetic).
    @inline(__always)
    static func colorTransformDelta(_ multiplier: Int, _ color: UInt32) -> Int {
        (multiplier &* Int(Int8(truncatingIfNeeded: color))) &>> 5
    }

    /// RFC 9649 4.2, the inverse colour transform of one row. Each block's element holds
    /// `green_to_red` in its blue byte, `green_to_blue` in its green byte and `red_to_blue` in
    /// its red byte; red is restored first, and blue uses the restored red.
    func inverseCrossColor(row y: Int, line: UnsafeMutablePointer<UInt32>, elements: UnsafeBufferPointer<UInt32>) {
        let blockRow = (y >> bits) * blocksPerRow
        let blockSize = 1 << bits
        var x = 0
        while x < width {
            let element = elements[blockRow + (x >> bits)]
            let end = min(width, x + blockSize)
            #if arch(x86_64)
            if VectorKernels.arePreferred {
                VP8LTransformSSE2.inverseCrossColor(line, from: x, to: end, element: element)
                x = end
                continue
            }
            #endif
            Self.inverseCrossColor(line, from: x, to: end, element: element)
            x = end
        }
    }

    /// The inverse colour transform of `line[start..<end]`, one block's run, with the block's
    /// `element` (the scalar twin of `VP8LTransformSSE2.inverseCrossColor`).
    static func inverseCrossColor(_ line: UnsafeMutablePointer<UInt32>, from start: Int, to end: Int, element: UInt32) {
        let greenToRed = Int(Int8(truncatingIfNeeded: element))
        let greenToBlue = Int(Int8(truncatingIfNeeded: element &>> 8))
        let redToBlue = Int(Int8(truncatingIfNeeded: element &>> 16))
        var x = start
        while x < end {
            let argb = line[x]
            let green = argb &>> 8
            let red = (Int(argb &>> 16 & 0xFF) &+ colorTransformDelta(greenToRed, green)) & 0xFF
            var blue = Int(argb & 0xFF) &+ colorTransformDelta(greenToBlue, green)
            blue = (blue &+ colorTransformDelta(redToBlue, UInt32(red))) & 0xFF
            line[x] = (argb & 0xFF00_FF00) | UInt32(red) << 16 | UInt32(blue)
            x &+= 1
        }
    }

    /// RFC 9649 4.4, the inverse of colour indexing for one row (`source` → `line`): each index (the green byte,
    /// or with bundling `8 >> bits` bits of it, lowest first) looks up the colour table.
    func expandIndices(source: UnsafePointer<UInt32>, line: UnsafeMutablePointer<UInt32>,
                       palette: UnsafeBufferPointer<UInt32>) {
        guard let colors = palette.baseAddress else { return }
        if bits == 0 {
            for x in 0..<width { line[x] = colors[Int((source[x] &>> 8) & 0xFF)] }
            return
        }
        let bitsPerIndex = UInt32(8 >> bits)
        let indexMask = (UInt32(1) << bitsPerIndex) &- 1
        let perPixelMask = (1 << bits) - 1
        var packed: UInt32 = 0
        for x in 0..<width {
            if x & perPixelMask == 0 { packed = (source[x >> bits] &>> 8) & 0xFF }
            line[x] = colors[Int(packed & indexMask)]
            packed &>>= bitsPerIndex
        }
    }
}
