/// Turns rows of RGBA pixels into scanline samples of a ``PNGPixelLayout`` (PNG 3rd edition
/// §7.2: samples big-endian, pixels below 8 bits packed from the most significant bit).
enum PNGRowPacker {
    /// 16-bit RGBA (native order) to RGBA8 packed little-endian, keeping the high bytes.
    static func narrow(_ s: UnsafePointer<UInt16>, into out: UnsafeMutablePointer<UInt32>, count: Int) {
        for i in 0..<count {
            let j = i &* 4
            out[i] = UInt32(s[j] >> 8) | UInt32(s[j &+ 1] >> 8) << 8 | UInt32(s[j &+ 2] >> 8) << 16
                | UInt32(s[j &+ 3] >> 8) << 24
        }
    }

    /// RGBA8 to 16-bit RGBA (native order), each sample × 257.
    static func widen(_ p: UnsafePointer<UInt32>, into out: UnsafeMutablePointer<UInt16>, count: Int) {
        for i in 0..<count {
            let v = p[i], j = i &* 4
            out[j] = UInt16(v & 0xFF) &* 257
            out[j &+ 1] = UInt16((v >> 8) & 0xFF) &* 257
            out[j &+ 2] = UInt16((v >> 16) & 0xFF) &* 257
            out[j &+ 3] = UInt16(v >> 24) &* 257
        }
    }

    /// Packs `count` RGBA8 pixels into `out` (``PNGPixelLayout/rowBytes(pixels:)`` bytes) for
    /// a layout of 8 bits or fewer; `palette` maps colours to indices for indexed colour.
    static func pack8(_ px: UnsafePointer<UInt32>, count: Int, layout: PNGPixelLayout, palette: PNGColorTable,
                      into out: UnsafeMutablePointer<UInt8>) {
        switch layout.colorType {
        case .truecolorAlpha:
            UnsafeMutableRawPointer(out).copyMemory(from: px, byteCount: count &* 4)
        case .truecolor:
            for i in 0..<count {
                let v = px[i], o = i &* 3
                out[o] = UInt8(truncatingIfNeeded: v)
                out[o &+ 1] = UInt8(truncatingIfNeeded: v >> 8)
                out[o &+ 2] = UInt8(truncatingIfNeeded: v >> 16)
            }
        case .greyscaleAlpha:
            for i in 0..<count {
                let v = px[i]
                out[i &* 2] = UInt8(truncatingIfNeeded: v)
                out[i &* 2 &+ 1] = UInt8(truncatingIfNeeded: v >> 24)
            }
        case .greyscale:
            if layout.bitDepth == 8 {
                for i in 0..<count { out[i] = UInt8(truncatingIfNeeded: px[i]) }
            } else {
                let step = UInt32(255 / ((1 << layout.bitDepth) - 1))
                packBits(count: count, depth: layout.bitDepth, into: out) { (px[$0] & 0xFF) / step }
            }
        case .indexed:
            var last = px[0] ^ 1, lastIndex: UInt32 = 0
            packBits(count: count, depth: layout.bitDepth, into: out) { i in
                let v = px[i]
                if v != last {
                    last = v
                    lastIndex = UInt32(palette.index(of: v) ?? 0)
                }
                return lastIndex
            }
        }
    }

    /// Writes `count` values of `depth` bits (1, 2, 4 or 8), the first in the high bits.
    @inline(__always)
    private static func packBits(count: Int, depth: Int, into out: UnsafeMutablePointer<UInt8>,
                                 _ value: (Int) -> UInt32) {
        if depth == 8 {
            for i in 0..<count { out[i] = UInt8(truncatingIfNeeded: value(i)) }
            return
        }
        let perByte = 8 / depth
        var i = 0, o = 0
        while i < count {
            var byte: UInt32 = 0
            var k = 0
            while k < perByte {
                byte <<= UInt32(depth)
                if i < count { byte |= value(i) }
                i &+= 1
                k &+= 1
            }
            out[o] = UInt8(truncatingIfNeeded: byte)
            o &+= 1
        }
    }

    /// Packs `count` RGBA16 pixels (native order) into `out` for a 16-bit layout, big-endian.
    static func pack16(_ s: UnsafePointer<UInt16>, count: Int, layout: PNGPixelLayout,
                       into out: UnsafeMutablePointer<UInt8>) {
        let channels: [Int]
        switch layout.colorType {
        case .truecolorAlpha: channels = [0, 1, 2, 3]
        case .truecolor: channels = [0, 1, 2]
        case .greyscaleAlpha: channels = [0, 3]
        case .greyscale, .indexed: channels = [0]
        }
        channels.withUnsafeBufferPointer { ch in
            var o = 0
            for i in 0..<count {
                for c in ch {
                    let v = s[i &* 4 &+ c]
                    out[o] = UInt8(truncatingIfNeeded: v >> 8)
                    out[o &+ 1] = UInt8(truncatingIfNeeded: v)
                    o &+= 2
                }
            }
        }
    }
}
