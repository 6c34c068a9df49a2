extension VP8LTransform {
    // SIMD twins of the per-component predictors of RFC 9649 4.1 (VP8LTransform+Predictor.swift
    // has the scalar ones; VP8LTransformTests holds them equal on random pixels). A pixel's four
    // bytes become lanes in memory order (blue, green, red, alpha on a little-endian machine);
    // the predictors treat every component alike, so the order does not matter.

    @inline(__always)
    static func lanes(_ pixel: UInt32) -> SIMD4<Int16> {
        SIMD4<Int16>(truncatingIfNeeded: unsafeBitCast(pixel, to: SIMD4<UInt8>.self))
    }

    @inline(__always)
    static func pixel(_ lanes: SIMD4<Int16>) -> UInt32 {
        unsafeBitCast(SIMD4<UInt8>(truncatingIfNeeded: lanes), to: UInt32.self)
    }

    /// `select(_:_:_:)` in SIMD lanes.
    @inline(__always)
    static func selectSIMD(_ left: UInt32, _ top: UInt32, _ topLeft: UInt32) -> UInt32 {
        let l = lanes(left), t = lanes(top), tl = lanes(topLeft)
        let dt = t &- tl, dl = l &- tl
        let absT = dt.replacing(with: 0 &- dt, where: dt .< 0)
        let absL = dl.replacing(with: 0 &- dl, where: dl .< 0)
        return absT.wrappedSum() < absL.wrappedSum() ? left : top
    }

    /// `clampAddSubtractFull(_:_:_:)` in SIMD lanes.
    @inline(__always)
    static func clampAddSubtractFullSIMD(_ a: UInt32, _ b: UInt32, _ c: UInt32) -> UInt32 {
        let sum = lanes(a) &+ lanes(b) &- lanes(c)
        return pixel(sum.clamped(lowerBound: SIMD4(repeating: 0), upperBound: SIMD4(repeating: 255)))
    }

    /// `clampAddSubtractHalf(_:_:)` in SIMD lanes (the halving truncates toward zero).
    @inline(__always)
    static func clampAddSubtractHalfSIMD(_ a: UInt32, _ b: UInt32) -> UInt32 {
        let la = lanes(a)
        let d = la &- lanes(b)
        // Truncating division by 2: add 1 to negative values before the arithmetic shift.
        let half = (d &+ (d &>> 15 & 1)) &>> 1
        return pixel((la &+ half).clamped(lowerBound: SIMD4(repeating: 0), upperBound: SIMD4(repeating: 255)))
    }
}
