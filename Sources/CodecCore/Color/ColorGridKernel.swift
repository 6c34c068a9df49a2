/// A device link sampled on a regular grid (three or four inputs, `points` per input),
/// holding encoded sRGB in [0, 1] at each node; pixels are read by tetrahedral interpolation
/// over the last three inputs and, for four inputs, linear interpolation along the first
/// (LittleCMS's `Eval4Inputs`).
struct ColorGridKernel: Sendable {
    let dimensions: Int
    let points: Int
    /// Three outputs per node, first input slowest.
    let nodes: [Float]
    /// For each 8-bit code, the cell below it and the fraction into the cell.
    let cell8: [Int]
    let fraction8: [Float]

    /// For three inputs, LittleCMS's 8-bit prelinearisation (``ColorPrelinearization``) and the
    /// grid sampled through it; 8-bit pixels use these, 16-bit ones the plain grid.
    let prelinearization: ColorPrelinearization?
    let prelinearizedNodes: [Float]

    /// Samples `linear` (device values in [0, 1] to linear sRGB) at every node.
    init(dimensions: Int, points: Int, _ linear: ([Double]) -> Vector3) {
        self.dimensions = dimensions
        self.points = points
        func encoded(_ device: [Double]) -> [Double] {
            let v = linear(device)
            return [ICCMath.sRGBEncode(v.x), ICCMath.sRGBEncode(v.y), ICCMath.sRGBEncode(v.z)]
        }
        nodes = Self.sample(dimensions: dimensions, points: points, encoded)
        if dimensions == 3, let curves = ColorPrelinearization.curves(encoded) {
            let inverses = ColorPrelinearization.inverses(curves)
            prelinearization = ColorPrelinearization(curves: curves, gridPoints: points)
            prelinearizedNodes = Self.sample(dimensions: 3, points: points) { d in
                encoded((0..<3).map { t in
                    Double(ColorPrelinearization.evaluate(inverses[t], at: ColorPrelinearization.quantize(d[t] * 65535))) / 65535
                })
            }
        } else {
            prelinearization = nil
            prelinearizedNodes = []
        }
        var cell8 = [Int](repeating: 0, count: 256)
        var fraction8 = [Float](repeating: 0, count: 256)
        for v in 0..<256 {
            let x = Double(v) / 255 * Double(points - 1)
            let i = min(Int(x), points - 2)
            cell8[v] = i
            fraction8[v] = Float(x - Double(i))
        }
        self.cell8 = cell8
        self.fraction8 = fraction8
    }

    /// `encoded` at every node of a grid, first input slowest.
    private static func sample(dimensions: Int, points: Int, _ encoded: ([Double]) -> [Double]) -> [Float] {
        var total = 1
        for _ in 0..<dimensions { total *= points }
        var nodes = [Float](repeating: 0, count: total * 3)
        var device = [Double](repeating: 0, count: dimensions)
        for n in 0..<total {
            var rest = n
            for d in stride(from: dimensions - 1, through: 0, by: -1) {
                device[d] = Double(rest % points) / Double(points - 1)
                rest /= points
            }
            let v = encoded(device)
            nodes[3 * n] = Float(v[0])
            nodes[3 * n + 1] = Float(v[1])
            nodes[3 * n + 2] = Float(v[2])
        }
        return nodes
    }

    /// Tetrahedral interpolation in the cube at `base` with neighbour strides `s` and
    /// fractions `f` (the last three inputs): from the lowest corner, along the axes in
    /// order of decreasing fraction.
    @inline(__always)
    private static func tetrahedral(_ g: UnsafePointer<Float>, _ base: Int, _ s0: Int, _ s1: Int, _ s2: Int,
                                    _ f0: Float, _ f1: Float, _ f2: Float) -> (Float, Float, Float) {
        let (a, b, c, fa, fb, fc): (Int, Int, Int, Float, Float, Float)
        if f0 >= f1 {
            if f1 >= f2 { (a, b, c, fa, fb, fc) = (s0, s1, s2, f0, f1, f2) }
            else if f0 >= f2 { (a, b, c, fa, fb, fc) = (s0, s2, s1, f0, f2, f1) }
            else { (a, b, c, fa, fb, fc) = (s2, s0, s1, f2, f0, f1) }
        } else {
            if f0 >= f2 { (a, b, c, fa, fb, fc) = (s1, s0, s2, f1, f0, f2) }
            else if f1 >= f2 { (a, b, c, fa, fb, fc) = (s1, s2, s0, f1, f2, f0) }
            else { (a, b, c, fa, fb, fc) = (s2, s1, s0, f2, f1, f0) }
        }
        let p0 = base, p1 = p0 &+ a, p2 = p1 &+ b, p3 = p2 &+ c
        func channel(_ k: Int) -> Float {
            let v0 = g[p0 &+ k], v1 = g[p1 &+ k], v2 = g[p2 &+ k], v3 = g[p3 &+ k]
            return v0 + fa * (v1 - v0) + fb * (v2 - v1) + fc * (v3 - v2)
        }
        return (channel(0), channel(1), channel(2))
    }

    /// The encoded sRGB of one device point given as cells and fractions per input.
    @inline(__always)
    private func sample(_ g: UnsafePointer<Float>, _ cells: (Int, Int, Int, Int), _ f: (Float, Float, Float, Float)) -> (Float, Float, Float) {
        let s2 = 3, s1 = 3 &* points, s0 = s1 &* points
        if dimensions == 3 {
            let base = cells.0 &* s0 &+ cells.1 &* s1 &+ cells.2 &* s2
            return Self.tetrahedral(g, base, s0, s1, s2, f.0, f.1, f.2)
        }
        let sk = s0 &* points
        let base = cells.0 &* sk &+ cells.1 &* s0 &+ cells.2 &* s1 &+ cells.3 &* s2
        let lo = Self.tetrahedral(g, base, s0, s1, s2, f.1, f.2, f.3)
        guard f.0 > 0 else { return lo }
        let hi = Self.tetrahedral(g, base &+ sk, s0, s1, s2, f.1, f.2, f.3)
        return (lo.0 + (hi.0 - lo.0) * f.0, lo.1 + (hi.1 - lo.1) * f.0, lo.2 + (hi.2 - lo.2) * f.0)
    }

    /// Three-input grids over RGBA8 rows, in place: through the prelinearisation when there is one.
    func apply8(_ src: UnsafePointer<UInt8>, _ dst: UnsafeMutablePointer<UInt8>, count: Int) {
        guard dimensions == 3 else {
            if UnsafePointer(dst) != src { dst.update(from: src, count: count &* 4) }
            return
        }
        let (cells, fractions, grid) = prelinearization.map { ($0.cell8, $0.fraction8, prelinearizedNodes) }
            ?? (cell8 + cell8 + cell8, fraction8 + fraction8 + fraction8, nodes)
        grid.withUnsafeBufferPointer { g in
            cells.withUnsafeBufferPointer { cell in
                fractions.withUnsafeBufferPointer { frac in
                    for i in stride(from: 0, to: count &* 4, by: 4) {
                        let r = Int(src[i]), gr = 256 &+ Int(src[i &+ 1]), b = 512 &+ Int(src[i &+ 2])
                        let v = sample(g.baseAddress!, (cell[r], cell[gr], cell[b], 0), (frac[r], frac[gr], frac[b], 0))
                        dst[i &+ 3] = src[i &+ 3]
                        dst[i] = UInt8(v.0 * 255 + 0.5)
                        dst[i &+ 1] = UInt8(v.1 * 255 + 0.5)
                        dst[i &+ 2] = UInt8(v.2 * 255 + 0.5)
                    }
                }
            }
        }
    }

    /// Three-input grids over RGBA16 rows, in place.
    func apply16(_ p: UnsafeMutablePointer<UInt16>, count: Int) {
        guard dimensions == 3 else { return }
        let scale = Float(points - 1) / 65535
        func split(_ v: UInt16) -> (Int, Float) {
            let x = Float(v) * scale
            let i = min(Int(x), points - 2)
            return (i, x - Float(i))
        }
        nodes.withUnsafeBufferPointer { g in
            for i in stride(from: 0, to: count &* 4, by: 4) {
                let r = split(p[i]), gr = split(p[i + 1]), b = split(p[i + 2])
                let v = sample(g.baseAddress!, (r.0, gr.0, b.0, 0), (r.1, gr.1, b.1, 0))
                p[i] = UInt16(v.0 * 65535 + 0.5)
                p[i + 1] = UInt16(v.1 * 65535 + 0.5)
                p[i + 2] = UInt16(v.2 * 65535 + 0.5)
            }
        }
    }

    /// Four-input (interleaved CMYK ink) pixels to opaque RGBA8, in place.
    func convertInk(_ p: UnsafeMutablePointer<UInt8>, count: Int) {
        nodes.withUnsafeBufferPointer { g in
            cell8.withUnsafeBufferPointer { cell in
                fraction8.withUnsafeBufferPointer { frac in
                    for i in stride(from: 0, to: count &* 4, by: 4) {
                        let a = Int(p[i]), b = Int(p[i &+ 1]), d = Int(p[i &+ 2]), e = Int(p[i &+ 3])
                        let v = sample(g.baseAddress!, (cell[a], cell[b], cell[d], cell[e]), (frac[a], frac[b], frac[d], frac[e]))
                        p[i] = UInt8(v.0 * 255 + 0.5)
                        p[i &+ 1] = UInt8(v.1 * 255 + 0.5)
                        p[i &+ 2] = UInt8(v.2 * 255 + 0.5)
                        p[i &+ 3] = 255
                    }
                }
            }
        }
    }
}
