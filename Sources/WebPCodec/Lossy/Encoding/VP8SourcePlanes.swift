/// The source image as VP8 codes it (RFC 6386 2, 9.1): Y′CbCr 4:2:0 with BT.601 studio range
/// (the inverse of the conversion the decoder's output does), each plane padded to whole
/// macroblocks by repeating the last column and row. Chroma is converted from the mean of each
/// 2×2 block of RGB.
struct VP8SourcePlanes {
    let mbWidth: Int, mbHeight: Int
    var y: [UInt8], u: [UInt8], v: [UInt8]
    var yStride: Int { mbWidth * 16 }
    var uvStride: Int { mbWidth * 8 }

    /// From ARGB pixels (alpha in the top byte, ignored).
    init(argb: [UInt32], width: Int, height: Int) {
        mbWidth = (width + 15) >> 4
        mbHeight = (height + 15) >> 4
        let ys = mbWidth * 16, uvs = mbWidth * 8
        y = [UInt8](repeating: 0, count: ys * mbHeight * 16)
        u = [UInt8](repeating: 0, count: uvs * mbHeight * 8)
        v = u
        argb.withUnsafeBufferPointer { px in
        y.withUnsafeMutableBufferPointer { yp in
        u.withUnsafeMutableBufferPointer { up in
        v.withUnsafeMutableBufferPointer { vp in
            for j in 0..<(mbHeight * 16) {
                let row = px.baseAddress! + min(j, height - 1) * width
                let out = yp.baseAddress! + j * ys
                for i in 0..<ys {
                    let p = row[min(i, width - 1)]
                    let r = Int32((p >> 16) & 0xFF), g = Int32((p >> 8) & 0xFF), b = Int32(p & 0xFF)
                    out[i] = UInt8(truncatingIfNeeded: (16829 &* r &+ 33039 &* g &+ 6416 &* b &+ (16 << 16) &+ (1 << 15)) &>> 16)
                }
            }
            for j in 0..<(mbHeight * 8) {
                let r0 = px.baseAddress! + min(2 * j, height - 1) * width
                let r1 = px.baseAddress! + min(2 * j + 1, height - 1) * width
                for i in 0..<uvs {
                    let x0 = min(2 * i, width - 1), x1 = min(2 * i + 1, width - 1)
                    let (ra, ga, ba) = Self.channels(r0[x0]), (rb, gb, bb) = Self.channels(r0[x1])
                    let (rc, gc, bc) = Self.channels(r1[x0]), (rd, gd, bd) = Self.channels(r1[x1])
                    let r = ra &+ rb &+ rc &+ rd, g = ga &+ gb &+ gc &+ gd, b = ba &+ bb &+ bc &+ bd
                    // Sums of four: shift by 18 instead of 16.
                    let cb = (-9714 &* r &- 19070 &* g &+ 28784 &* b &+ (128 << 18) &+ (1 << 17)) &>> 18
                    let cr = (28784 &* r &- 24103 &* g &- 4681 &* b &+ (128 << 18) &+ (1 << 17)) &>> 18
                    up[j * uvs + i] = UInt8(clamping: cb)
                    vp[j * uvs + i] = UInt8(clamping: cr)
                }
            }
        }}}}
    }

    @inline(__always)
    static func channels(_ p: UInt32) -> (Int32, Int32, Int32) {
        (Int32((p >> 16) & 0xFF), Int32((p >> 8) & 0xFF), Int32(p & 0xFF))
    }

    /// Copies macroblock (`mbX`, `mbY`) into a work area of the decoder's layout.
    func load(into w: UnsafeMutablePointer<UInt8>, mbX: Int, mbY: Int) {
        let ys = yStride, uvs = uvStride
        y.withUnsafeBufferPointer { yp in
            let src = yp.baseAddress! + mbY * 16 * ys + mbX * 16
            for j in 0..<16 { (w + VP8RowWriter.yWork + 32 * j).update(from: src + j * ys, count: 16) }
        }
        for (plane, offset) in [(u, VP8RowWriter.uWork), (v, VP8RowWriter.vWork)] {
            plane.withUnsafeBufferPointer { pp in
                let src = pp.baseAddress! + mbY * 8 * uvs + mbX * 8
                for j in 0..<8 { (w + offset + 32 * j).update(from: src + j * uvs, count: 8) }
            }
        }
    }
}
