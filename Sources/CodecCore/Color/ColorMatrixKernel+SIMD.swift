extension ColorMatrixKernel {
    /// Converts `count` RGBA8 pixels from `src` to `dst` (they may be the same), eight at a
    /// time: the linearising reads and the encoding reads stay scalar (table lookups), the
    /// matrix runs on `SIMD8<Float>`, and the table index is clamped and rounded in vectors.
    /// ``apply8Scalar(_:_:from:count:)`` is its twin, and does the last pixels.
    func apply8(_ src: UnsafePointer<UInt8>, _ dst: UnsafeMutablePointer<UInt8>, count: Int) {
        let done = linear8.withUnsafeBufferPointer { lin in
            SRGBEncoding.table8.withUnsafeBufferPointer { enc in
                let l = lin.baseAddress!, e = enc.baseAddress!
                let c = coefficients
                let (m0, m1, m2) = (SIMD8<Float>(repeating: c[0]), SIMD8<Float>(repeating: c[1]), SIMD8<Float>(repeating: c[2]))
                let (m3, m4, m5) = (SIMD8<Float>(repeating: c[3]), SIMD8<Float>(repeating: c[4]), SIMD8<Float>(repeating: c[5]))
                let (m6, m7, m8) = (SIMD8<Float>(repeating: c[6]), SIMD8<Float>(repeating: c[7]), SIMD8<Float>(repeating: c[8]))
                let (o0, o1, o2) = (SIMD8<Float>(repeating: c[9]), SIMD8<Float>(repeating: c[10]), SIMD8<Float>(repeating: c[11]))
                let scale = SIMD8<Float>(repeating: Float(SRGBEncoding.steps8)), half = SIMD8<Float>(repeating: 0.5)
                let zero = SIMD8<Float>(repeating: 0), top = SIMD8<Float>(repeating: Float(SRGBEncoding.steps8))
                var r = SIMD8<Float>(), g = SIMD8<Float>(), b = SIMD8<Float>()
                var px = 0
                while px &+ 8 <= count {
                    let base = px &* 4
                    for k in 0..<8 {
                        let o = base &+ k &* 4
                        r[k] = l[Int(src[o])]
                        g[k] = l[256 &+ Int(src[o &+ 1])]
                        b[k] = l[512 &+ Int(src[o &+ 2])]
                    }
                    func index(_ v: SIMD8<Float>) -> SIMD8<Int32> {
                        SIMD8<Int32>((v * scale + half).clamped(lowerBound: zero, upperBound: top), rounding: .down)
                    }
                    let x = index(m0 * r + m1 * g + m2 * b + o0)
                    let y = index(m3 * r + m4 * g + m5 * b + o1)
                    let z = index(m6 * r + m7 * g + m8 * b + o2)
                    for k in 0..<8 {
                        let o = base &+ k &* 4
                        dst[o] = e[Int(x[k])]
                        dst[o &+ 1] = e[Int(y[k])]
                        dst[o &+ 2] = e[Int(z[k])]
                        dst[o &+ 3] = src[o &+ 3]
                    }
                    px &+= 8
                }
                return px
            }
        }
        apply8Scalar(src, dst, from: done, count: count)
    }
}
