/// Whole-buffer conversions between the working format and the output layouts.
public enum PixelConversion {
    /// 16-bit samples to 8-bit by keeping the high byte (`v >> 8`), as the canonical hash does.
    public static func narrowRGBA16(_ wide: [UInt8]) -> [UInt8] {
        let count = wide.count / 2
        return [UInt8](unsafeUninitializedCapacity: count) { out, initialized in
            wide.withUnsafeBytes { raw in
                let src = raw.bindMemory(to: UInt16.self)
                for i in 0..<count { out[i] = UInt8(truncatingIfNeeded: src[i] &>> 8) }
            }
            initialized = count
        }
    }

    public static func swapRedBlue(_ pixels: inout [UInt8]) {
        pixels.withUnsafeMutableBufferPointer { p in
            var i = 0
            while i + 3 < p.count {
                p.swapAt(i, i + 2)
                i &+= 4
            }
        }
    }

    /// `c × a / 255`, rounded to nearest.
    @inline(__always)
    static func mul255(_ c: UInt32, _ a: UInt32) -> UInt8 {
        let t = c &* a &+ 128
        return UInt8(truncatingIfNeeded: (t &+ (t &>> 8)) &>> 8)
    }

    public static func premultiplyRGBA8(_ pixels: inout [UInt8]) {
        pixels.withUnsafeMutableBufferPointer { p in
            var i = 0
            while i + 3 < p.count {
                let a = UInt32(p[i + 3])
                if a != 255 {
                    p[i] = mul255(UInt32(p[i]), a)
                    p[i + 1] = mul255(UInt32(p[i + 1]), a)
                    p[i + 2] = mul255(UInt32(p[i + 2]), a)
                }
                i &+= 4
            }
        }
    }

    public static func unpremultiplyRGBA8(_ pixels: inout [UInt8]) {
        pixels.withUnsafeMutableBufferPointer { p in
            var i = 0
            while i + 3 < p.count {
                let a = UInt32(p[i + 3])
                if a != 255 && a != 0 {
                    for c in 0..<3 { p[i + c] = UInt8(min(255, (UInt32(p[i + c]) * 255 + a / 2) / a)) }
                }
                i &+= 4
            }
        }
    }

    public static func premultiplyRGBA16(_ pixels: inout [UInt8]) {
        pixels.withUnsafeMutableBytes { raw in
            let p = raw.bindMemory(to: UInt16.self)
            var i = 0
            while i + 3 < p.count {
                let a = UInt32(p[i + 3])
                if a != 65535 {
                    for c in 0..<3 { p[i + c] = UInt16((UInt32(p[i + c]) * a + 32767) / 65535) }
                }
                i &+= 4
            }
        }
    }

    public static func unpremultiplyRGBA16(_ pixels: inout [UInt8]) {
        pixels.withUnsafeMutableBytes { raw in
            let p = raw.bindMemory(to: UInt16.self)
            var i = 0
            while i + 3 < p.count {
                let a = UInt32(p[i + 3])
                if a != 65535 && a != 0 {
                    for c in 0..<3 { p[i + c] = UInt16(min(65535, (UInt32(p[i + c]) * 65535 + a / 2) / a)) }
                }
                i &+= 4
            }
        }
    }
}
