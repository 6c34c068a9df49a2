/// RGB → YCbCr and RGB → Y on eight pixels at a time: the same fixed-point sums as the scalar
/// twins in `JPEGColorEncoding.swift`, in `SIMD8<Int32>` lanes; the tail of a row goes to the
/// scalar code.
extension JPEGColorEncoding {
    typealias Lanes = SIMD8<Int32>

    @inline(__always)
    private static func channel(_ p: UnsafePointer<UInt8>, _ stride: Int) -> Lanes {
        Lanes(Int32(p[0]), Int32(p[stride]), Int32(p[2 &* stride]), Int32(p[3 &* stride]),
              Int32(p[4 &* stride]), Int32(p[5 &* stride]), Int32(p[6 &* stride]), Int32(p[7 &* stride]))
    }

    @inline(__always)
    private static func store(_ v: Lanes, _ out: UnsafeMutablePointer<UInt8>) {
        UnsafeMutableRawPointer(out).storeBytes(of: SIMD8<UInt8>(truncatingIfNeeded: v &>> 16), as: SIMD8<UInt8>.self)
    }

    static func yccSIMD(_ rgb: UnsafePointer<UInt8>, stride: Int, count: Int,
                        _ y: UnsafeMutablePointer<UInt8>, _ cb: UnsafeMutablePointer<UInt8>, _ cr: UnsafeMutablePointer<UInt8>) {
        var i = 0
        while i &+ 8 <= count {
            let p = rgb + i &* stride
            let r = channel(p, stride), g = channel(p + 1, stride), b = channel(p + 2, stride)
            store(yR &* r &+ yG &* g &+ yB &* b &+ yRounding, y + i)
            store(half &* b &- cbR &* r &- cbG &* g &+ chromaRounding, cb + i)
            store(half &* r &- crG &* g &- crB &* b &+ chromaRounding, cr + i)
            i &+= 8
        }
        if i < count { ycc(rgb + i &* stride, stride: stride, count: count &- i, y + i, cb + i, cr + i) }
    }

    static func graySIMD(_ rgb: UnsafePointer<UInt8>, stride: Int, count: Int, _ y: UnsafeMutablePointer<UInt8>) {
        var i = 0
        while i &+ 8 <= count {
            let p = rgb + i &* stride
            store(yR &* channel(p, stride) &+ yG &* channel(p + 1, stride) &+ yB &* channel(p + 2, stride) &+ yRounding, y + i)
            i &+= 8
        }
        if i < count { gray(rgb + i &* stride, stride: stride, count: count &- i, y + i) }
    }
}
