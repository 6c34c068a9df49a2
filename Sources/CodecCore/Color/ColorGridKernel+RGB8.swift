/// A three-input device link grid for 8-bit pixels, laid out as LittleCMS 2's `PrelinEval8`
/// (cmsopt.c) lays out its 8-bit RGB transforms: nodes quantized to 16 bits, and per input
/// channel and 8-bit code the cell's offset in the grid, the step to the next node along that
/// input (0 at the top) and the 16-bit fraction into the cell, made through the
/// prelinearisation curves (``ColorPrelinearization``). No division per pixel.
///
/// The interpolation is in floats: each node's three outputs are one four-lane vector, scaled
/// so that the sum of the four corners weighted by the tetrahedron's integer weights (which add
/// up to 2¹⁶) is the 8-bit code plus one half, truncated. LittleCMS rounds the sum to 16 bits
/// and then to 8 (`FROM_16_TO_8`); this rounds once, so a sample may differ from it by one
/// where the exact value lies within a sixteenth-bit step of a code's boundary. The float form
/// is shorter than the integer one: a pixel's work is a chain of dependent steps (table reads,
/// the tetrahedron, node reads, the sum, the codes), and fewer instructions a pixel let the core
/// overlap more pixels' chains.
///
/// CMYK grids have their own float kernel (``ColorGridKernel/convertInk(_:count:)``).
///
/// The tables are packed so that a pixel makes few reads: a node is one 16-byte vector, and an
/// input's entry is one 64-bit word (fraction in bits 0–15, step in 16–31, offset from 32, both
/// counted in bytes of the node array).
struct ColorGrid8: Sendable {
    /// Bytes of a node: three outputs and one unused lane.
    static let nodeBytes = 16
    /// The three outputs of each node, first input slowest, as `code · 2⁻¹⁶ + 2⁻¹⁷` (code the
    /// 16-bit output scaled to [0, 255]); the fourth lane is 0.
    let nodes: [SIMD4<Float>]
    /// Per input (3 × 256): fraction, step and offset, packed.
    let entries: [UInt64]

    /// `nodes` (values in [0, 1], 3 per node) quantized to 16 bits; `inputs` gives, per input,
    /// the 16-bit value each 8-bit code stands for on the grid's axis.
    init(points: Int, nodes: [Double], inputs: [[Int]]) {
        let dimensions = 3
        let scale = 255.0 / 65535.0 / 65536.0, bias = 0.5 / 65536.0
        self.nodes = (0..<nodes.count / 3).map { n in
            func lane(_ c: Int) -> Float {
                Float(Double(ColorPrelinearization.quantize(nodes[3 * n + c] * 65535)) * scale + bias)
            }
            return SIMD4(lane(0), lane(1), lane(2), 0)
        }
        var strides = [Int](repeating: Self.nodeBytes, count: dimensions)
        for d in stride(from: dimensions - 2, through: 0, by: -1) { strides[d] = strides[d + 1] * points }
        precondition(strides[0] < 1 << 16, "a step must fit its 16-bit field")
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

    /// The tetrahedron of the pixel with codes `r`, `g`, `b`: the byte offsets of its four
    /// corners (lowest first, along the path) and their weights, in units of 2⁻¹⁶ (they add up to
    /// 2¹⁶): `1 − fa`, `fa − fb`, `fb − fc`, `fc`.
    @inline(__always)
    static func tetrahedron(_ e: UnsafePointer<UInt64>, _ r: UInt8, _ g: UInt8, _ b: UInt8)
        -> (n0: Int, n1: Int, n2: Int, n3: Int, w0: Int, w1: Int, w2: Int, w3: Int) {
        let raw = UnsafeRawPointer(e)
        @inline(__always) func field<T: FixedWidthInteger>(_ index: Int, _ byte: Int, _: T.Type) -> Int {
            Int(T(littleEndian: raw.load(fromByteOffset: index &* 8 &+ byte, as: T.self)))
        }
        let x = Int(r), y = 256 &+ Int(g), z = 512 &+ Int(b)
        let sx = field(x, 2, UInt16.self), sy = field(y, 2, UInt16.self), sz = field(z, 2, UInt16.self)
        let p = path(sx, sy, sz, field(x, 0, UInt16.self), field(y, 0, UInt16.self), field(z, 0, UInt16.self))
        let base = field(x, 4, UInt32.self) &+ field(y, 4, UInt32.self) &+ field(z, 4, UInt32.self)
        return (base, base &+ p.first, base &+ p.second, base &+ sx &+ sy &+ sz,
                0x10000 &- p.fa, p.fa &- p.fb, p.fb &- p.fc, p.fc)
    }

    /// Three-input RGBA8 pixels from `src` to `dst` (alpha copied; they may be the same): four
    /// at a time in SSE2 on x86-64 in optimised builds (``ColorGrid8SSE2``), else one at a time
    /// in scalars (``applyScalar8(_:_:count:)``), the same bytes.
    func apply8(_ src: UnsafePointer<UInt8>, _ dst: UnsafeMutablePointer<UInt8>, count: Int) {
        #if arch(x86_64)
        if VectorKernels.arePreferred {
            let done = ColorGrid8SSE2.apply8(self, src, dst, count: count)
            applyScalar8(src + 4 &* done, dst + 4 &* done, count: count &- done)
            return
        }
        #endif
        applyScalar8(src, dst, count: count)
    }

    /// The scalar kernel: per output, `(v₀·w₀ + v₁·w₁) + (v₂·w₂ + v₃·w₃)` in floats, truncated
    /// (the vector kernel's operations lane by lane, in the same order).
    func applyScalar8(_ src: UnsafePointer<UInt8>, _ dst: UnsafeMutablePointer<UInt8>, count: Int) {
        nodes.withUnsafeBytes { nodeBytes in
            entries.withUnsafeBufferPointer { entryBuffer in
                let g = nodeBytes.baseAddress!, e = entryBuffer.baseAddress!
                for i in 0..<count {
                    let p = src + 4 &* i, q = dst + 4 &* i
                    let t = Self.tetrahedron(e, p[0], p[1], p[2])
                    let w0 = Float(t.w0), w1 = Float(t.w1), w2 = Float(t.w2), w3 = Float(t.w3)
                    @inline(__always) func channel(_ k: Int) -> UInt8 {
                        @inline(__always) func node(_ n: Int) -> Float { g.load(fromByteOffset: n &+ 4 &* k, as: Float.self) }
                        let v = (node(t.n0) * w0 + node(t.n1) * w1) + (node(t.n2) * w2 + node(t.n3) * w3)
                        return UInt8(min(max(Int(v), 0), 255))
                    }
                    let r = channel(0), gr = channel(1), b = channel(2)
                    q[3] = p[3]
                    q[0] = r
                    q[1] = gr
                    q[2] = b
                }
            }
        }
    }
}
