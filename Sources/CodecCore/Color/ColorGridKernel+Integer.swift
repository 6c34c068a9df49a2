/// A three-input device link grid for 8-bit pixels, evaluated in integers as LittleCMS 2's
/// `PrelinEval8` (cmsopt.c) evaluates its 8-bit RGB transforms: nodes of 16 bits, and per input
/// channel and 8-bit code the cell's offset in the grid, the step to the next node along that
/// input (0 at the top) and the 16-bit fraction into the cell, made through the
/// prelinearisation curves (``ColorPrelinearization``). No float and no division per pixel;
/// the results are 16-bit and are narrowed as LittleCMS narrows them (`FROM_16_TO_8`).
///
/// CMYK grids stay in floats (``ColorGridKernel/convertInk(_:count:)``): the same evaluation
/// for four inputs (`Eval4Inputs` over `TetrahedralInterp16`, with its division per output)
/// measured 1.8× slower than the float one (1.4× without the division).
///
/// Both tables are packed so that a pixel makes few reads: a node's three outputs are one
/// 64-bit word (bits 0, 16 and 32), and an input's entry is one 64-bit word (fraction in bits
/// 0–15, step in 16–31, offset from 32, both counted in nodes).
struct ColorGridInteger8: Sendable {
    /// The three 16-bit outputs of each node, first input slowest.
    let nodes: [UInt64]
    /// Per input (3 × 256): fraction, step and offset, packed.
    let entries: [UInt64]

    /// `nodes` (values in [0, 1], 3 per node) quantized to 16 bits; `inputs` gives, per input,
    /// the 16-bit value each 8-bit code stands for on the grid's axis.
    init(points: Int, nodes: [Double], inputs: [[Int]]) {
        let dimensions = 3
        self.nodes = (0..<nodes.count / 3).map { n in
            (0..<3).reduce(UInt64(0)) { word, c in word | UInt64(ColorPrelinearization.quantize(nodes[3 * n + c] * 65535)) << (16 * c) }
        }
        var strides = [Int](repeating: 1, count: dimensions)
        for d in stride(from: dimensions - 2, through: 0, by: -1) { strides[d] = strides[d + 1] * points }
        entries = (0..<dimensions).flatMap { d in
            (0..<256).map { v in
                let fixed = Self.toFixedDomain(inputs[d][v] * (points - 1))
                let rest = fixed & 0xFFFF, step = rest == 0 ? 0 : strides[d]
                return UInt64(rest) | UInt64(step) << 16 | UInt64((fixed >> 16) * strides[d]) << 32
            }
        }
    }

    /// LittleCMS's `_cmsToFixedDomain`: 0...0xFFFF·n to 16.16 fixed point (0xFFFF becomes 1.0).
    @inline(__always)
    static func toFixedDomain(_ a: Int) -> Int {
        a &+ (a &+ 0x7FFF) / 0xFFFF
    }

    /// LittleCMS's `FROM_16_TO_8`.
    @inline(__always)
    static func narrow(_ v: Int) -> UInt32 {
        UInt32(truncatingIfNeeded: (v &* 65281 &+ 8_388_608) >> 24) & 0xFF
    }

    /// The tetrahedron holding fractions `rx`, `ry`, `rz` (steps `sx`, `sy`, `sz`): its path
    /// from the lowest corner goes along the input of the largest fraction, then the middle,
    /// then the smallest. Returned: the first corner's and the second corner's offsets from the
    /// lowest, and the three fractions in that order. Without branches (selects only): a
    /// photo's fractions order themselves at random, which a branch would mispredict. The
    /// largest is the first of equals and the smallest the last, so they differ; equal
    /// fractions give the same sum whichever way the path goes.
    @inline(__always)
    static func path(_ sx: Int, _ sy: Int, _ sz: Int, _ rx: Int, _ ry: Int, _ rz: Int)
        -> (first: Int, second: Int, fa: Int, fb: Int, fc: Int) {
        var fa = rx, sa = sx
        sa = ry > fa ? sy : sa
        fa = ry > fa ? ry : fa
        sa = rz > fa ? sz : sa
        fa = rz > fa ? rz : fa
        var fc = rz, sc = sz
        sc = ry < fc ? sy : sc
        fc = ry < fc ? ry : fc
        sc = rx < fc ? sx : sc
        fc = rx < fc ? rx : fc
        return (sa, sx &+ sy &+ sz &- sc, fa, rx &+ ry &+ rz &- fa &- fc, fc)
    }

    /// Output `k` (0, 1, 2) of a node.
    @inline(__always)
    static func output(_ node: UInt64, _ k: Int) -> Int {
        Int(truncatingIfNeeded: node >> (16 &* UInt64(k)) & 0xFFFF)
    }

    /// Three-input RGBA8 pixels from `src` to `dst` (alpha copied; they may be the same): in
    /// SSE2 on x86-64 in optimised builds (``ColorGridInteger8SSE2``), else in scalars.
    func apply8(_ src: UnsafePointer<UInt8>, _ dst: UnsafeMutablePointer<UInt8>, count: Int) {
        #if arch(x86_64)
        if ColorGridInteger8SSE2.isPreferred {
            ColorGridInteger8SSE2.apply8(self, src, dst, count: count)
            return
        }
        #endif
        applyScalar8(src, dst, count: count)
    }

    /// The cell of `pixel`: the lowest corner's node index, the path's first and second
    /// corner offsets and the three fractions in path order (``path(_:_:_:_:_:_:)``).
    @inline(__always)
    static func cell(_ pixel: UInt32, _ e: UnsafePointer<UInt64>)
        -> (base: Int, first: Int, second: Int, last: Int, fa: Int, fb: Int, fc: Int) {
        let ex = e[Int(pixel & 0xFF)], ey = e[256 &+ Int(pixel >> 8 & 0xFF)], ez = e[512 &+ Int(pixel >> 16 & 0xFF)]
        let sx = Int(ex >> 16 & 0xFFFF), sy = Int(ey >> 16 & 0xFFFF), sz = Int(ez >> 16 & 0xFFFF)
        let (first, second, fa, fb, fc) = path(sx, sy, sz, Int(ex & 0xFFFF), Int(ey & 0xFFFF), Int(ez & 0xFFFF))
        let base = Int(ex >> 32) &+ Int(ey >> 32) &+ Int(ez >> 32)
        return (base, first, second, sx &+ sy &+ sz, fa, fb, fc)
    }

    /// The scalar kernel: the sums in 32-bit `Int32` that wraps, as LittleCMS's `int` (a
    /// hostile grid's steep cells can pass 2³¹; real ones stay far below).
    func applyScalar8(_ src: UnsafePointer<UInt8>, _ dst: UnsafeMutablePointer<UInt8>, count: Int) {
        nodes.withUnsafeBufferPointer { nodeBuffer in
            entries.withUnsafeBufferPointer { entryBuffer in
                let g = nodeBuffer.baseAddress!, e = entryBuffer.baseAddress!
                let input = UnsafeRawPointer(src), output = UnsafeMutableRawPointer(dst)
                for i in 0..<count {
                    let pixel = UInt32(littleEndian: input.loadUnaligned(fromByteOffset: i &* 4, as: UInt32.self))
                    let c = Self.cell(pixel, e)
                    let n0 = g[c.base], n1 = g[c.base &+ c.first], n2 = g[c.base &+ c.second], n3 = g[c.base &+ c.last]
                    let fa = Int32(c.fa), fb = Int32(c.fb), fc = Int32(c.fc)
                    /// `PrelinEval8`'s rounding of output `k`.
                    @inline(__always) func channel(_ k: Int) -> UInt32 {
                        let v0 = Int32(Self.output(n0, k)), v1 = Int32(Self.output(n1, k))
                        let v2 = Int32(Self.output(n2, k)), v3 = Int32(Self.output(n3, k))
                        let rest = (v1 &- v0) &* fa &+ (v2 &- v1) &* fb &+ (v3 &- v2) &* fc &+ 0x8001
                        return Self.narrow(Int((v0 &+ ((rest &+ (rest >> 16)) >> 16)) & 0xFFFF))
                    }
                    let out = channel(0) | channel(1) << 8 | channel(2) << 16 | pixel & 0xFF00_0000
                    output.storeBytes(of: out.littleEndian, toByteOffset: i &* 4, as: UInt32.self)
                }
            }
        }
    }
}
