/// Downsampling of one component as libjpeg's `jcsample.c` does it (no smoothing): h2v1 and
/// h2v2 average pairs and quads with a bias that alternates from column to column (0,1 and
/// 1,2) so that rounding does not drift one way; other integer ratios (1×2, 3×1, 4×2, …) take
/// `int_downsample`'s rounded mean. The input row was already widened by repeating its last
/// sample (`expand_right_edge`) to `outputColumns · hExpand`. The SIMD twins are in
/// `JPEGDownsampling+SIMD.swift`.
enum JPEGDownsampling {
    /// `h2v1_downsample`: out[i] = (in[2i] + in[2i+1] + bias) >> 1, bias 0, 1, 0, 1, ….
    static func h2v1(_ input: UnsafePointer<UInt8>, _ output: UnsafeMutablePointer<UInt8>, columns: Int) {
        var bias: UInt32 = 0
        for i in 0..<columns {
            output[i] = UInt8(truncatingIfNeeded: (UInt32(input[2 &* i]) &+ UInt32(input[2 &* i &+ 1]) &+ bias) &>> 1)
            bias ^= 1
        }
    }

    /// `h2v2_downsample`: the mean of a 2×2 quad, bias 1, 2, 1, 2, ….
    static func h2v2(_ row0: UnsafePointer<UInt8>, _ row1: UnsafePointer<UInt8>, _ output: UnsafeMutablePointer<UInt8>, columns: Int) {
        var bias: UInt32 = 1
        for i in 0..<columns {
            let j = 2 &* i
            let sum = UInt32(row0[j]) &+ UInt32(row0[j &+ 1]) &+ UInt32(row1[j]) &+ UInt32(row1[j &+ 1])
            output[i] = UInt8(truncatingIfNeeded: (sum &+ bias) &>> 2)
            bias ^= 3
        }
    }

    /// `int_downsample`: the mean of hExpand × vExpand samples, rounded half up.
    static func generic(_ rows: [UnsafePointer<UInt8>], hExpand: Int, _ output: UnsafeMutablePointer<UInt8>, columns: Int) {
        let count = UInt32(hExpand * rows.count)
        for i in 0..<columns {
            var sum: UInt32 = 0
            for row in rows {
                for x in 0..<hExpand { sum &+= UInt32(row[i &* hExpand &+ x]) }
            }
            output[i] = UInt8(truncatingIfNeeded: (sum &+ count / 2) / count)
        }
    }
}
