/// A device link grid for 8-bit pixels, evaluated in integers as LittleCMS 2 evaluates its
/// 8-bit transforms: nodes of 16 bits, and per input channel and 8-bit code a table giving the
/// cell's offset in the grid, the offset to the next node along that input (0 at the top), and
/// the 16-bit fraction into the cell. No float and no division per pixel; the results are 16-bit
/// and are narrowed as LittleCMS narrows them (`FROM_16_TO_8`).
///
/// Three inputs follow `PrelinEval8` (cmsopt.c: the tables are made through the
/// prelinearisation curves, ``ColorPrelinearization``); four follow `Eval4Inputs` and
/// `TetrahedralInterp16` (cmsintrp.c: tetrahedral over the last three, linear along the first).
struct ColorGridInteger8: Sendable {
    let dimensions: Int
    /// Three 16-bit outputs per node, first input slowest.
    let nodes: [UInt16]
    /// Per input (`dimensions` × 256): the lower node's offset, the step to the next node, and
    /// the fraction (0..<65536) into the cell.
    let offsets: [Int32]
    let steps: [Int32]
    let rests: [Int32]

    /// `nodes` (values in [0, 1], 3 per node) quantized to 16 bits; `inputs` gives, per input,
    /// the 16-bit value each 8-bit code stands for on the grid's axis.
    init(dimensions: Int, points: Int, nodes: [Double], inputs: [[Int]]) {
        self.dimensions = dimensions
        self.nodes = nodes.map { UInt16(ColorPrelinearization.quantize($0 * 65535)) }
        var offsets: [Int32] = [], steps: [Int32] = [], rests: [Int32] = []
        var strides = [Int](repeating: 3, count: dimensions)
        for d in stride(from: dimensions - 2, through: 0, by: -1) { strides[d] = strides[d + 1] * points }
        for d in 0..<dimensions {
            for v in 0..<256 {
                let fixed = Self.toFixedDomain(inputs[d][v] * (points - 1))
                let rest = fixed & 0xFFFF
                offsets.append(Int32((fixed >> 16) * strides[d]))
                steps.append(rest == 0 ? 0 : Int32(strides[d]))
                rests.append(Int32(rest))
            }
        }
        self.offsets = offsets
        self.steps = steps
        self.rests = rests
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

    /// The three corners after the lowest, in order of decreasing fraction (ties in any order:
    /// the sum is the same), with their fractions: offsets of the path's steps.
    @inline(__always)
    private static func path(_ sx: Int, _ sy: Int, _ sz: Int, _ rx: Int, _ ry: Int, _ rz: Int)
        -> (Int, Int, Int, Int, Int, Int) {
        if rx >= ry {
            if ry >= rz { return (sx, sy, sz, rx, ry, rz) }
            if rx >= rz { return (sx, sz, sy, rx, rz, ry) }
            return (sz, sx, sy, rz, rx, ry)
        }
        if rx >= rz { return (sy, sx, sz, ry, rx, rz) }
        if ry >= rz { return (sy, sz, sx, ry, rz, rx) }
        return (sz, sy, sx, rz, ry, rx)
    }

    /// Three-input RGBA8 pixels from `src` to `dst` (alpha copied; they may be the same).
    func apply8(_ src: UnsafePointer<UInt8>, _ dst: UnsafeMutablePointer<UInt8>, count: Int) {
        nodes.withUnsafeBufferPointer { nodeBuffer in
            offsets.withUnsafeBufferPointer { offsetBuffer in
                steps.withUnsafeBufferPointer { stepBuffer in
                    rests.withUnsafeBufferPointer { restBuffer in
                        let g = nodeBuffer.baseAddress!, o = offsetBuffer.baseAddress!
                        let s = stepBuffer.baseAddress!, f = restBuffer.baseAddress!
                        let input = UnsafeRawPointer(src), output = UnsafeMutableRawPointer(dst)
                        for i in 0..<count {
                            let pixel = UInt32(littleEndian: input.loadUnaligned(fromByteOffset: i &* 4, as: UInt32.self))
                            let r = Int(pixel & 0xFF), gr = 256 &+ Int(pixel >> 8 & 0xFF), b = 512 &+ Int(pixel >> 16 & 0xFF)
                            let base = Int(o[r]) &+ Int(o[gr]) &+ Int(o[b])
                            let (a, c, d, fa, fc, fd) = Self.path(Int(s[r]), Int(s[gr]), Int(s[b]), Int(f[r]), Int(f[gr]), Int(f[b]))
                            let p1 = base &+ a, p2 = p1 &+ c, p3 = p2 &+ d
                            /// `PrelinEval8`'s rounding of channel `k`.
                            @inline(__always) func channel(_ k: Int) -> UInt32 {
                                let v0 = Int(g[base &+ k]), v1 = Int(g[p1 &+ k]), v2 = Int(g[p2 &+ k]), v3 = Int(g[p3 &+ k])
                                let rest = (v1 &- v0) &* fa &+ (v2 &- v1) &* fc &+ (v3 &- v2) &* fd &+ 0x8001
                                return Self.narrow((v0 &+ ((rest &+ (rest >> 16)) >> 16)) & 0xFFFF)
                            }
                            let out = channel(0) | channel(1) << 8 | channel(2) << 16 | pixel & 0xFF00_0000
                            output.storeBytes(of: out.littleEndian, toByteOffset: i &* 4, as: UInt32.self)
                        }
                    }
                }
            }
        }
    }

    /// Four-input (interleaved CMYK ink) pixels to opaque RGBA8, in place.
    func convertInk(_ p: UnsafeMutablePointer<UInt8>, count: Int) {
        nodes.withUnsafeBufferPointer { nodeBuffer in
            offsets.withUnsafeBufferPointer { offsetBuffer in
                steps.withUnsafeBufferPointer { stepBuffer in
                    rests.withUnsafeBufferPointer { restBuffer in
                        let g = nodeBuffer.baseAddress!, o = offsetBuffer.baseAddress!
                        let s = stepBuffer.baseAddress!, f = restBuffer.baseAddress!
                        let raw = UnsafeMutableRawPointer(p)
                        for i in 0..<count {
                            let pixel = UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: i &* 4, as: UInt32.self))
                            let k = Int(pixel & 0xFF), x = 256 &+ Int(pixel >> 8 & 0xFF)
                            let y = 512 &+ Int(pixel >> 16 & 0xFF), z = 768 &+ Int(pixel >> 24)
                            let low = Int(o[k]) &+ Int(o[x]) &+ Int(o[y]) &+ Int(o[z])
                            let (a, c, d, fa, fc, fd) = Self.path(Int(s[x]), Int(s[y]), Int(s[z]), Int(f[x]), Int(f[y]), Int(f[z]))
                            let rk = Int(f[k]), high = low &+ Int(s[k])
                            /// `TetrahedralInterp16`'s value of channel `c` in the cube at `base`.
                            @inline(__always) func tetrahedral(_ base: Int, _ ch: Int) -> Int {
                                let p1 = base &+ a, p2 = p1 &+ c, p3 = p2 &+ d
                                let v0 = Int(g[base &+ ch]), v1 = Int(g[p1 &+ ch]), v2 = Int(g[p2 &+ ch]), v3 = Int(g[p3 &+ ch])
                                let rest = (v1 &- v0) &* fa &+ (v2 &- v1) &* fc &+ (v3 &- v2) &* fd
                                return (v0 &+ ((Self.toFixedDomain(rest) &+ 0x8000) >> 16)) & 0xFFFF
                            }
                            /// `Eval4Inputs`: linear between the two cubes along the first input.
                            @inline(__always) func channel(_ ch: Int) -> UInt32 {
                                let lo = tetrahedral(low, ch)
                                guard rk != 0 else { return Self.narrow(lo) }
                                let hi = tetrahedral(high, ch)
                                return Self.narrow((lo &+ (((hi &- lo) &* rk &+ 0x8000) >> 16)) & 0xFFFF)
                            }
                            let out = channel(0) | channel(1) << 8 | channel(2) << 16 | 0xFF00_0000
                            raw.storeBytes(of: out.littleEndian, toByteOffset: i &* 4, as: UInt32.self)
                        }
                    }
                }
            }
        }
    }
}
