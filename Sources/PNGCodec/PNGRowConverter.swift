import CodecCore

/// Turns one reconstructed scanline into RGBA pixels (PNG 3rd edition §13.12, §13.13): palette
/// lookup, sample scaling to 8 bits, tRNS applied as alpha. 8-bit output keeps the high byte
/// of 16-bit samples; 16-bit output (for 16-bit sources only) keeps them whole.
struct PNGRowConverter {
    let header: PNGHeader
    /// 256 RGBA8 entries: PLTE with tRNS alpha, opaque black past the palette's end.
    let palette: [UInt8]
    /// The tRNS colour key in sample values (grey in all three), for colour types 0 and 2.
    let key: (UInt16, UInt16, UInt16)?
    /// Write 8-byte RGBA16 pixels in native byte order instead of RGBA8.
    let sixteenBit: Bool

    var outputBytesPerPixel: Int { sixteenBit ? 8 : 4 }

    /// A converter for `header`'s image with its PLTE and tRNS payloads: the palette with tRNS
    /// alpha (§11.3.2.1), and the colour key for types 0 and 2.
    init(header: PNGHeader, plte: [UInt8], trns: [UInt8], sixteenBit: Bool) {
        var table = [UInt8](repeating: 0, count: 1024)
        for i in 0..<256 { table[i * 4 + 3] = 255 }
        for i in 0..<(plte.count / 3) {
            table[i * 4] = plte[i * 3]
            table[i * 4 + 1] = plte[i * 3 + 1]
            table[i * 4 + 2] = plte[i * 3 + 2]
            if header.colorType == .indexed && i < trns.count { table[i * 4 + 3] = trns[i] }
        }
        var key: (UInt16, UInt16, UInt16)?
        func sample(_ i: Int) -> UInt16 { UInt16(trns[i]) << 8 | UInt16(trns[i + 1]) }
        if header.colorType == .greyscale && trns.count == 2 { key = (sample(0), sample(0), sample(0)) }
        if header.colorType == .truecolor && trns.count == 6 { key = (sample(0), sample(2), sample(4)) }
        self.header = header
        palette = table
        self.key = key
        self.sixteenBit = sixteenBit
    }

    /// Converts `count` pixels of `src` into `dst`, writing one pixel every `step` pixels.
    func convert(_ src: UnsafePointer<UInt8>, count: Int, into dst: UnsafeMutablePointer<UInt8>, step: Int) {
        if sixteenBit {
            convertWide(src, count: count, into: UnsafeMutableRawPointer(dst).assumingMemoryBound(to: UInt16.self), step: step * 4)
            return
        }
        let ds = step &* 4
        switch (header.colorType, header.bitDepth) {
        case (.indexed, _):
            palette.withUnsafeBufferPointer { table in
                let pal = UnsafeRawPointer(table.baseAddress!)
                forEachPackedSample(src, count: count, depth: header.bitDepth) { i, v in
                    (dst + i &* ds).withMemoryRebound(to: UInt32.self, capacity: 1) {
                        $0.pointee = pal.loadUnaligned(fromByteOffset: Int(v) &* 4, as: UInt32.self)
                    }
                }
            }
        case (.greyscale, 16):
            for i in 0..<count {
                let v = UInt16(src[i &* 2]) &<< 8 | UInt16(src[i &* 2 &+ 1])
                store(dst + i &* ds, src[i &* 2], src[i &* 2], src[i &* 2], key?.0 == v ? 0 : 255)
            }
        case (.greyscale, let depth):
            let scale = UInt8(255 / ((1 << depth) - 1))
            let keyValue = key.map { Int($0.0) } ?? -1
            forEachPackedSample(src, count: count, depth: depth) { i, v in
                let g = v &* scale
                store(dst + i &* ds, g, g, g, Int(v) == keyValue ? 0 : 255)
            }
        case (.truecolor, 8) where key == nil:
            Self.opaqueRGB(src, count: count, into: dst, step: ds)
        case (.truecolor, 8):
            let k = key.map { (UInt8(truncatingIfNeeded: $0.0), UInt8(truncatingIfNeeded: $0.1), UInt8(truncatingIfNeeded: $0.2), $0.0 < 256 && $0.1 < 256 && $0.2 < 256) }
            for i in 0..<count {
                let p = src + i &* 3
                var a: UInt8 = 255
                if let k, k.3, p[0] == k.0, p[1] == k.1, p[2] == k.2 { a = 0 }
                store(dst + i &* ds, p[0], p[1], p[2], a)
            }
        case (.truecolor, _):
            for i in 0..<count {
                let p = src + i &* 6
                var a: UInt8 = 255
                if let key, UInt16(p[0]) << 8 | UInt16(p[1]) == key.0, UInt16(p[2]) << 8 | UInt16(p[3]) == key.1,
                   UInt16(p[4]) << 8 | UInt16(p[5]) == key.2 { a = 0 }
                store(dst + i &* ds, p[0], p[2], p[4], a)
            }
        case (.greyscaleAlpha, 8):
            for i in 0..<count { store(dst + i &* ds, src[i &* 2], src[i &* 2], src[i &* 2], src[i &* 2 &+ 1]) }
        case (.greyscaleAlpha, _):
            for i in 0..<count { store(dst + i &* ds, src[i &* 4], src[i &* 4], src[i &* 4], src[i &* 4 &+ 2]) }
        case (.truecolorAlpha, 8):
            if step == 1 {
                dst.update(from: src, count: count &* 4)
            } else {
                for i in 0..<count { (dst + i &* ds).update(from: src + i &* 4, count: 4) }
            }
        case (.truecolorAlpha, _):
            for i in 0..<count {
                let p = src + i &* 8
                store(dst + i &* ds, p[0], p[2], p[4], p[6])
            }
        }
    }

    /// 8-bit RGB without a colour key to RGBA8, four pixels (three 32-bit words) at a time;
    /// `step` is the byte distance between output pixels.
    private static func opaqueRGB(_ src: UnsafePointer<UInt8>, count: Int, into dst: UnsafeMutablePointer<UInt8>, step: Int) {
        let opaque: UInt32 = 0xFF00_0000
        let source = UnsafeRawPointer(src), out = UnsafeMutableRawPointer(dst)
        var i = 0
        while i &+ 4 <= count {
            let s = source + i &* 3
            let w0 = UInt32(littleEndian: s.loadUnaligned(as: UInt32.self))
            let w1 = UInt32(littleEndian: s.loadUnaligned(fromByteOffset: 4, as: UInt32.self))
            let w2 = UInt32(littleEndian: s.loadUnaligned(fromByteOffset: 8, as: UInt32.self))
            let d = out + i &* step
            d.storeBytes(of: (w0 | opaque).littleEndian, as: UInt32.self)
            d.storeBytes(of: (w0 &>> 24 | w1 &<< 8 | opaque).littleEndian, toByteOffset: step, as: UInt32.self)
            d.storeBytes(of: (w1 &>> 16 | w2 &<< 16 | opaque).littleEndian, toByteOffset: 2 &* step, as: UInt32.self)
            d.storeBytes(of: (w2 &>> 8 | opaque).littleEndian, toByteOffset: 3 &* step, as: UInt32.self)
            i &+= 4
        }
        while i < count {
            let p = src + i &* 3, d = dst + i &* step
            d[0] = p[0]
            d[1] = p[1]
            d[2] = p[2]
            d[3] = 255
            i &+= 1
        }
    }

    @inline(__always)
    private func store(_ d: UnsafeMutablePointer<UInt8>, _ r: UInt8, _ g: UInt8, _ b: UInt8, _ a: UInt8) {
        d[0] = r
        d[1] = g
        d[2] = b
        d[3] = a
    }

    /// Calls `body(i, sample)` for `count` samples of `depth` ≤ 8 bits packed MSB first (§7.2).
    @inline(__always)
    private func forEachPackedSample(_ src: UnsafePointer<UInt8>, count: Int, depth: Int,
                                     _ body: (Int, UInt8) -> Void) {
        if depth == 8 {
            for i in 0..<count { body(i, src[i]) }
            return
        }
        let perByte = 8 / depth, mask = UInt8((1 << depth) - 1)
        for i in 0..<count {
            let byte = src[i / perByte]
            let shift = 8 - depth * (i % perByte + 1)
            body(i, (byte &>> UInt8(shift)) & mask)
        }
    }

    /// 16-bit sources to RGBA16 (`step` counts UInt16s between pixels).
    private func convertWide(_ src: UnsafePointer<UInt8>, count: Int, into dst: UnsafeMutablePointer<UInt16>, step: Int) {
        @inline(__always) func sample(_ i: Int) -> UInt16 { UInt16(src[i &* 2]) &<< 8 | UInt16(src[i &* 2 &+ 1]) }
        let channels = header.colorType.channels
        for i in 0..<count {
            let d = dst + i &* step, s = i &* channels
            switch header.colorType {
            case .greyscale:
                let g = sample(s)
                d[0] = g; d[1] = g; d[2] = g; d[3] = key?.0 == g ? 0 : 0xFFFF
            case .greyscaleAlpha:
                let g = sample(s)
                d[0] = g; d[1] = g; d[2] = g; d[3] = sample(s &+ 1)
            case .truecolor:
                let r = sample(s), g = sample(s &+ 1), b = sample(s &+ 2)
                d[0] = r; d[1] = g; d[2] = b
                d[3] = key.map { $0.0 == r && $0.1 == g && $0.2 == b } == true ? 0 : 0xFFFF
            case .truecolorAlpha:
                d[0] = sample(s); d[1] = sample(s &+ 1); d[2] = sample(s &+ 2); d[3] = sample(s &+ 3)
            case .indexed:
                return
            }
        }
    }
}
