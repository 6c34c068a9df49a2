/// The inverse DCT and WHT of RFC 6386 14.3 in Swift SIMD types, the twins of
/// ``VP8Transform/inverseDCT(_:_:)`` and ``VP8Transform/inverseWHT(_:_:)`` (same 32-bit
/// arithmetic, so the same output for every input): the vertical pass on the four rows as
/// vectors of four columns, a transpose, the horizontal pass on the four columns of that, and
/// a transpose back to rows (`VP8TransformTests` holds each equal to its twin).
enum VP8TransformSIMD {
    typealias Lanes = SIMD4<Int32>

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

    /// The Y2 block's inverse WHT: its 16 outputs, truncated to 16 bits, become the DC
    /// coefficients of the 16 luma blocks (`output[16 * k]`, k in raster order).
    static func inverseWHT(_ input: UnsafePointer<Int16>, _ output: UnsafeMutablePointer<Int16>) {
        let raw = UnsafeRawPointer(input)
        func row(_ r: Int) -> Lanes { Lanes(truncatingIfNeeded: raw.loadUnaligned(fromByteOffset: 8 * r, as: SIMD4<Int16>.self)) }
        let i0 = row(0), i1 = row(1), i2 = row(2), i3 = row(3)
        // Vertical pass: lane i is column i.
        let a0 = i0 &+ i3, a1 = i1 &+ i2, a2 = i1 &- i2, a3 = i0 &- i3
        let (x0, x1, x2, x3) = transpose(a0 &+ a1, a3 &+ a2, a0 &- a1, a3 &- a2)
        // Horizontal pass: lane i is output row i.
        let rounded = x0 &+ 3
        let b0 = rounded &+ x3, b1 = x1 &+ x2, b2 = x1 &- x2, b3 = rounded &- x3
        // Lane r of column c's vector is the output of row r, column c: luma block 4 r + c.
        @inline(__always) func store(_ column: Lanes, _ c: Int) {
            for r in 0..<4 { output[64 &* r &+ 16 &* c] = Int16(truncatingIfNeeded: column[r]) }
        }
        store((b0 &+ b1) &>> 3, 0)
        store((b3 &+ b2) &>> 3, 1)
        store((b0 &- b1) &>> 3, 2)
        store((b3 &- b2) &>> 3, 3)
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
