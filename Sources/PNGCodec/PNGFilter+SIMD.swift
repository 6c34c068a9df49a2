/// The Paeth filter (PNG 3rd edition §9.4) one pixel at a time with the channels in SIMD lanes,
/// for 3- and 4-byte pixels (8-bit RGB and RGBA), the hot case for photographs. Each pixel
/// depends on the one to its left, so the lanes carry channels, not pixels (as libpng's SSE2
/// code does). ``PNGFilter/paeth(_:_:count:stride:)`` is the scalar twin a test holds equal.
extension PNGFilter {
    /// Reads four bytes as lanes; the row buffers carry padding so the last 3-byte pixel's
    /// fourth byte is in bounds.
    @inline(__always)
    static func lanes(_ p: UnsafePointer<UInt8>) -> SIMD4<Int16> {
        SIMD4<Int16>(truncatingIfNeeded: UnsafeRawPointer(p).loadUnaligned(as: SIMD4<UInt8>.self))
    }

    @inline(__always)
    static func magnitude(_ v: SIMD4<Int16>) -> SIMD4<Int16> {
        v.replacing(with: 0 &- v, where: v .< 0)
    }

    /// Paeth reconstruction of `count` bytes (a multiple of `stride`, which is 3 or 4).
    @inline(__always)
    static func paethSIMD(_ row: UnsafeMutablePointer<UInt8>, _ prev: UnsafePointer<UInt8>, count: Int, stride: Int) {
        var a = SIMD4<Int16>(repeating: 0), c = SIMD4<Int16>(repeating: 0)
        var i = 0
        while i < count {
            let b = lanes(prev + i)
            let pa = magnitude(b &- c), pb = magnitude(a &- c), pc = magnitude(a &+ b &- c &- c)
            var predicted = c
            predicted.replace(with: b, where: pb .<= pc)
            predicted.replace(with: a, where: (pa .<= pb) .& (pa .<= pc))
            let out = SIMD4<UInt8>(truncatingIfNeeded: lanes(row + i) &+ predicted)
            if stride == 4 {
                UnsafeMutableRawPointer(row + i).storeBytes(of: out, as: SIMD4<UInt8>.self)
            } else {
                row[i] = out[0]
                row[i &+ 1] = out[1]
                row[i &+ 2] = out[2]
            }
            a = SIMD4<Int16>(truncatingIfNeeded: out)
            c = b
            i &+= stride
        }
    }
}
