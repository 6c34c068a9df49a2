/// A device link sampled on a regular grid (three or four inputs, `points` per input),
/// holding encoded sRGB in [0, 1] at each node; pixels are read by tetrahedral interpolation
/// over the last three inputs and, for four inputs, linear interpolation along the first
/// (LittleCMS's `Eval4Inputs`): 8-bit RGB pixels through tables laid out as LittleCMS's 8-bit
/// ones (``ColorGrid8``), 16-bit RGB and 8-bit CMYK pixels straight from the float grid.
struct ColorGridKernel: Sendable {
    let dimensions: Int
    let points: Int
    /// Three outputs per node: what 16-bit pixels and CMYK pixels are read from. Three inputs:
    /// the first input slowest. Four: the first input (cyan, read by linear interpolation)
    /// fastest and the other three slowest first (``inkStrides``), so that the two nodes a
    /// pixel reads at each corner of its tetrahedron, one on each side along cyan, are
    /// neighbours in memory (a grid of 17⁴ nodes is a megabyte). One float of padding follows
    /// the last node, so that reading a node's three outputs as a four-lane vector
    /// (``convertInkSIMD(_:count:)``) stays inside.
    let nodes: [Float]
    /// What 8-bit pixels of three inputs are read from: the grid sampled through LittleCMS's
    /// 8-bit prelinearisation (``ColorPrelinearization``) when there is one, else the plain
    /// grid; nil for four inputs.
    let grid8: ColorGrid8?
    /// For four inputs, each 8-bit code's cell and fraction into it (every input alike).
    let cell8: [Int]
    let fraction8: [Float]

    /// Samples `linear` (device values in [0, 1] to linear sRGB) at every node.
    init(dimensions: Int, points: Int, _ linear: ([Double]) -> Vector3) {
        self.dimensions = dimensions
        self.points = points
        func encoded(_ device: [Double]) -> [Double] {
            let v = linear(device)
            return [ICCMath.sRGBEncode(v.x), ICCMath.sRGBEncode(v.y), ICCMath.sRGBEncode(v.z)]
        }
        let plain = dimensions == 4
            ? Self.sample(dimensions: 4, points: points) { d in encoded([d[3], d[0], d[1], d[2]]) }
            : Self.sample(dimensions: dimensions, points: points, encoded)
        nodes = plain.map(Float.init) + [0]
        if dimensions == 3, let curves = ColorPrelinearization.curves(encoded) {
            let inverses = ColorPrelinearization.inverses(curves)
            let prelinearized = Self.sample(dimensions: 3, points: points) { d in
                encoded((0..<3).map { t in
                    Double(ColorPrelinearization.evaluate(inverses[t], at: ColorPrelinearization.quantize(d[t] * 65535))) / 65535
                })
            }
            grid8 = ColorGrid8(points: points, nodes: prelinearized, inputs: ColorPrelinearization.inputs8(curves))
        } else if dimensions == 3 {
            grid8 = ColorGrid8(points: points, nodes: plain, inputs: [[Int]](repeating: (0..<256).map { $0 * 257 }, count: 3))
        } else {
            grid8 = nil
        }
        let cells = (0..<256).map { v in min(v * (points - 1) / 255, points - 2) }
        cell8 = cells
        fraction8 = (0..<256).map { v in Float(Double(v) / 255 * Double(points - 1) - Double(cells[v])) }
    }

    /// `encoded` at every node of a grid, first input slowest.
    private static func sample(dimensions: Int, points: Int, _ encoded: ([Double]) -> [Double]) -> [Double] {
        var total = 1
        for _ in 0..<dimensions { total *= points }
        var nodes = [Double](repeating: 0, count: total * 3)
        var device = [Double](repeating: 0, count: dimensions)
        for n in 0..<total {
            var rest = n
            for d in stride(from: dimensions - 1, through: 0, by: -1) {
                device[d] = Double(rest % points) / Double(points - 1)
                rest /= points
            }
            let v = encoded(device)
            nodes[3 * n] = v[0]
            nodes[3 * n + 1] = v[1]
            nodes[3 * n + 2] = v[2]
        }
        return nodes
    }

    /// Node strides of a four-input grid: cyan's, then those of the three inputs the
    /// tetrahedron spans (magenta, yellow, black).
    var inkStrides: (cyan: Int, s0: Int, s1: Int, s2: Int) {
        (3, 3 &* points &* points &* points, 3 &* points &* points, 3 &* points)
    }

    /// The tetrahedron of a cube that holds the point at fractions `f` along axes of node
    /// strides `s` (``ColorGrid8/path(_:_:_:_:_:_:)``, without branches: the fractions
    /// are non-negative, so their bit patterns order as they do): the first and second
    /// corners' offsets from the lowest, and the fractions in order of decreasing size (ties
    /// in the order of the axes).
    @inline(__always)
    static func tetrahedronPath(_ s0: Int, _ s1: Int, _ s2: Int, _ f0: Float, _ f1: Float, _ f2: Float)
        -> (first: Int, second: Int, fa: Float, fb: Float, fc: Float) {
        let p = ColorGrid8.path(s0, s1, s2, Int(f0.bitPattern), Int(f1.bitPattern), Int(f2.bitPattern))
        @inline(__always) func fraction(_ bits: Int) -> Float { Float(bitPattern: UInt32(truncatingIfNeeded: bits)) }
        return (p.first, p.second, fraction(p.fa), fraction(p.fb), fraction(p.fc))
    }

    /// Tetrahedral interpolation in the cube at `base` with neighbour strides `s` and
    /// fractions `f` (the last three inputs): from the lowest corner, along the axes in
    /// order of decreasing fraction.
    @inline(__always)
    private static func tetrahedral(_ g: UnsafePointer<Float>, _ base: Int, _ s0: Int, _ s1: Int, _ s2: Int,
                                    _ f0: Float, _ f1: Float, _ f2: Float) -> (Float, Float, Float) {
        let (first, second, fa, fb, fc) = tetrahedronPath(s0, s1, s2, f0, f1, f2)
        let p0 = base, p1 = p0 &+ first, p2 = p0 &+ second, p3 = p0 &+ s0 &+ s1 &+ s2
        func channel(_ k: Int) -> Float {
            let v0 = g[p0 &+ k], v1 = g[p1 &+ k], v2 = g[p2 &+ k], v3 = g[p3 &+ k]
            return v0 + fa * (v1 - v0) + fb * (v2 - v1) + fc * (v3 - v2)
        }
        return (channel(0), channel(1), channel(2))
    }

    /// Three-input grids over RGBA8 rows (``ColorGrid8``); `src` and `dst` may be the same.
    func apply8(_ src: UnsafePointer<UInt8>, _ dst: UnsafeMutablePointer<UInt8>, count: Int) {
        guard let grid8 else {
            if UnsafePointer(dst) != src { dst.update(from: src, count: count &* 4) }
            return
        }
        grid8.apply8(src, dst, count: count)
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
        let s2 = 3, s1 = 3 &* points, s0 = s1 &* points
        nodes.withUnsafeBufferPointer { g in
            for i in stride(from: 0, to: count &* 4, by: 4) {
                let r = split(p[i]), gr = split(p[i + 1]), b = split(p[i + 2])
                let base = r.0 &* s0 &+ gr.0 &* s1 &+ b.0 &* s2
                let v = Self.tetrahedral(g.baseAddress!, base, s0, s1, s2, r.1, gr.1, b.1)
                p[i] = UInt16(v.0 * 65535 + 0.5)
                p[i + 1] = UInt16(v.1 * 65535 + 0.5)
                p[i + 2] = UInt16(v.2 * 65535 + 0.5)
            }
        }
    }

    /// Four-input (interleaved CMYK ink) pixels to opaque RGBA8, in place: in four-lane
    /// vectors in optimised builds (``convertInkSIMD(_:count:)``), else in scalars.
    func convertInk(_ p: UnsafeMutablePointer<UInt8>, count: Int) {
        if VectorKernels.arePreferred {
            convertInkSIMD(p, count: count)
        } else {
            convertInkScalar(p, count: count)
        }
    }

    /// The scalar twin of ``convertInkSIMD(_:count:)``: tetrahedral over the last three
    /// inputs, linear along the first.
    func convertInkScalar(_ p: UnsafeMutablePointer<UInt8>, count: Int) {
        let (sk, s0, s1, s2) = inkStrides
        nodes.withUnsafeBufferPointer { grid in
            cell8.withUnsafeBufferPointer { cell in
                fraction8.withUnsafeBufferPointer { frac in
                    let g = grid.baseAddress!
                    for i in stride(from: 0, to: count &* 4, by: 4) {
                        let a = Int(p[i]), b = Int(p[i &+ 1]), d = Int(p[i &+ 2]), e = Int(p[i &+ 3])
                        let base = cell[a] &* sk &+ cell[b] &* s0 &+ cell[d] &* s1 &+ cell[e] &* s2
                        var v = Self.tetrahedral(g, base, s0, s1, s2, frac[b], frac[d], frac[e])
                        let f = frac[a]
                        if f > 0 {
                            let hi = Self.tetrahedral(g, base &+ sk, s0, s1, s2, frac[b], frac[d], frac[e])
                            v = (v.0 + (hi.0 - v.0) * f, v.1 + (hi.1 - v.1) * f, v.2 + (hi.2 - v.2) * f)
                        }
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
