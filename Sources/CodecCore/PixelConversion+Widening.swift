extension PixelConversion {
    /// RGB8 to RGBA8 with alpha 255, `count` pixels, eight (three 64-bit words in, four out) at
    /// a time: each output word is two pixels, the six bytes of the pair moved apart by one
    /// shift; the last pixels one by one. Held equal to the byte loop by `PixelConversionWideningTests`.
    package static func widenRGB(_ rgb: UnsafePointer<UInt8>, _ rgba: UnsafeMutablePointer<UInt8>, count: Int) {
        let source = UnsafeRawPointer(rgb), target = UnsafeMutableRawPointer(rgba)
        let opaque: UInt64 = 0xFF00_0000_FF00_0000, first: UInt64 = 0xFF_FFFF, second: UInt64 = 0xFF_FFFF_0000_0000
        /// The pixels at bytes 0–2 and 3–5 of `w` as two RGBA words.
        @inline(__always)
        func pair(_ w: UInt64) -> UInt64 { (w & first | (w &<< 8) & second | opaque).littleEndian }
        var x = 0
        while x &+ 8 <= count {
            let a = UInt64(littleEndian: source.loadUnaligned(fromByteOffset: x &* 3, as: UInt64.self))
            let b = UInt64(littleEndian: source.loadUnaligned(fromByteOffset: x &* 3 &+ 8, as: UInt64.self))
            let c = UInt64(littleEndian: source.loadUnaligned(fromByteOffset: x &* 3 &+ 16, as: UInt64.self))
            let p = target + x &* 4
            p.storeBytes(of: pair(a), toByteOffset: 0, as: UInt64.self)
            p.storeBytes(of: pair(a &>> 48 | b &<< 16), toByteOffset: 8, as: UInt64.self)
            p.storeBytes(of: pair(b &>> 32 | c &<< 32), toByteOffset: 16, as: UInt64.self)
            p.storeBytes(of: pair(c &>> 16), toByteOffset: 24, as: UInt64.self)
            x &+= 8
        }
        widenRGBBytes(rgb + x &* 3, rgba + x &* 4, count: count &- x)
    }

    /// The same, a byte at a time (the twin, and the tail).
    package static func widenRGBBytes(_ rgb: UnsafePointer<UInt8>, _ rgba: UnsafeMutablePointer<UInt8>, count: Int) {
        for x in 0..<max(count, 0) {
            (rgba[x &* 4], rgba[x &* 4 &+ 1], rgba[x &* 4 &+ 2], rgba[x &* 4 &+ 3]) = (rgb[x &* 3], rgb[x &* 3 &+ 1], rgb[x &* 3 &+ 2], 255)
        }
    }
}
