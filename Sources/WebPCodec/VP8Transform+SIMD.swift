/// The inverse DCT of RFC 6386 14.3 in Swift SIMD types, the twin of
/// ``VP8Transform/inverseDCT(_:_:)`` (same 32-bit arithmetic, so the same output for every
/// input): the vertical pass on the four rows as vectors of four columns, a transpose, the
/// horizontal pass on the four columns of that, and a transpose back to add rows to the
/// prediction.
enum VP8TransformSIMD {
    typealias Lanes = SIMD4<Int32>

    /// Debug builds run the scalar twin (generic SIMD code is many times slower there); the
    /// twin test runs this in every build.
    #if DEBUG
    static let isPreferred = false
    #else
    static let isPreferred = true
    #endif

    @inline(__always) static func mul1(_ a: Lanes) -> Lanes { ((a &* 20091) &>> 16) &+ a }
    @inline(__always) static func mul2(_ a: Lanes) -> Lanes { (a &* 35468) &>> 16 }

    @inline(__always)
    static func transpose(_ r0: Lanes, _ r1: Lanes, _ r2: Lanes, _ r3: Lanes) -> (Lanes, Lanes, Lanes, Lanes) {
        (Lanes(r0[0], r1[0], r2[0], r3[0]), Lanes(r0[1], r1[1], r2[1], r3[1]),
         Lanes(r0[2], r1[2], r2[2], r3[2]), Lanes(r0[3], r1[3], r2[3], r3[3]))
    }

    /// One 4×4 block of dequantised coefficients (raster order) added to the prediction at
    /// `dst` (row stride ``VP8Prediction/stride``).
    static func inverseDCT(_ input: UnsafePointer<Int16>, _ dst: UnsafeMutablePointer<UInt8>) {
        let raw = UnsafeRawPointer(input)
        func row(_ r: Int) -> Lanes { Lanes(truncatingIfNeeded: raw.loadUnaligned(fromByteOffset: 8 * r, as: SIMD4<Int16>.self)) }
        let i0 = row(0), i1 = row(1), i2 = row(2), i3 = row(3)
        // Vertical pass: lane i is column i.
        let a = i0 &+ i2, b = i0 &- i2
        let c = mul2(i1) &- mul1(i3), d = mul1(i1) &+ mul2(i3)
        // Lane i of x_k is the scalar code's t[4 k + i].
        let (x0, x1, x2, x3) = transpose(a &+ d, b &+ c, b &- c, a &- d)
        // Horizontal pass: lane i is output row i.
        let dc = x0 &+ 4
        let e = dc &+ x2, f = dc &- x2
        let g = mul2(x1) &- mul1(x3), h = mul1(x1) &+ mul2(x3)
        let (o0, o1, o2, o3) = transpose(e &+ h, f &+ g, f &- g, e &- h)
        add(o0, dst)
        add(o1, dst + VP8Prediction.stride)
        add(o2, dst + 2 * VP8Prediction.stride)
        add(o3, dst + 3 * VP8Prediction.stride)
    }

    /// Adds `residue >> 3` to four samples, clamped to 0...255.
    @inline(__always)
    static func add(_ residue: Lanes, _ dst: UnsafeMutablePointer<UInt8>) {
        let raw = UnsafeMutableRawPointer(dst)
        let p = Lanes(truncatingIfNeeded: raw.loadUnaligned(as: SIMD4<UInt8>.self))
        let s = (p &+ (residue &>> 3)).clamped(lowerBound: .zero, upperBound: Lanes(repeating: 255))
        raw.storeBytes(of: SIMD4<UInt8>(truncatingIfNeeded: s), as: SIMD4<UInt8>.self)
    }
}
