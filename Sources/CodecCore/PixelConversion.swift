/// Whole-buffer conversions between the working format and the output layouts.
package enum PixelConversion {
    /// 16-bit samples to 8-bit by keeping the high byte (`v >> 8`), as the canonical hash does.
    package static func narrowRGBA16(_ wide: [UInt8]) -> [UInt8] {
        let count = wide.count / 2
        return [UInt8](unsafeUninitializedCapacity: count) { out, initialized in
            wide.withUnsafeBytes { raw in
                let src = raw.bindMemory(to: UInt16.self)
                for i in 0..<count { out[i] = UInt8(truncatingIfNeeded: src[i] &>> 8) }
            }
            initialized = count
        }
    }

    package static func swapRedBlue(_ pixels: inout [UInt8]) {
        pixels.withUnsafeMutableBufferPointer { p in
            var i = 0
            while i + 3 < p.count {
                p.swapAt(i, i + 2)
                i &+= 4
            }
        }
    }

    package static func premultiplyRGBA8(_ pixels: inout [UInt8]) { premultiply(&pixels, UInt8.self) }
    package static func unpremultiplyRGBA8(_ pixels: inout [UInt8]) { unpremultiply(&pixels, UInt8.self) }
    package static func premultiplyRGBA16(_ pixels: inout [UInt8]) { premultiply(&pixels, UInt16.self) }
    package static func unpremultiplyRGBA16(_ pixels: inout [UInt8]) { unpremultiply(&pixels, UInt16.self) }

    /// `c × a / max`, rounded to nearest, for samples of type `T`.
    private static func premultiply<T: FixedWidthInteger & UnsignedInteger>(_ pixels: inout [UInt8], _: T.Type) {
        let top = UInt64(T.max)
        pixels.withUnsafeMutableBytes { raw in
            let p = raw.bindMemory(to: T.self)
            for i in stride(from: 0, to: p.count - 3, by: 4) {
                let a = UInt64(p[i + 3])
                guard a != top else { continue }
                for c in 0..<3 { p[i + c] = T(truncatingIfNeeded: (UInt64(p[i + c]) * a + top / 2) / top) }
            }
        }
    }

    /// `c × max / a`, rounded to nearest and clamped; alpha-0 pixels are left as they are.
    private static func unpremultiply<T: FixedWidthInteger & UnsignedInteger>(_ pixels: inout [UInt8], _: T.Type) {
        let top = UInt64(T.max)
        pixels.withUnsafeMutableBytes { raw in
            let p = raw.bindMemory(to: T.self)
            for i in stride(from: 0, to: p.count - 3, by: 4) {
                let a = UInt64(p[i + 3])
                guard a != top && a != 0 else { continue }
                for c in 0..<3 { p[i + c] = T(truncatingIfNeeded: min(top, (UInt64(p[i + c]) * top + a / 2) / a)) }
            }
        }
    }
}
