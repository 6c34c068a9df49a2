/// The row kernels the encoder calls: the SIMD versions in optimised builds, the scalar twins
/// they are tested against otherwise.
extension JPEGColorEncoding {
    @inline(__always)
    static func yccRow(_ rgb: UnsafePointer<UInt8>, stride: Int, count: Int,
                       _ y: UnsafeMutablePointer<UInt8>, _ cb: UnsafeMutablePointer<UInt8>, _ cr: UnsafeMutablePointer<UInt8>) {
        ycc(rgb, stride: stride, count: count, y, cb, cr)
    }

    @inline(__always)
    static func grayRow(_ rgb: UnsafePointer<UInt8>, stride: Int, count: Int, _ y: UnsafeMutablePointer<UInt8>) {
        gray(rgb, stride: stride, count: count, y)
    }
}

extension JPEGDownsampling {
    @inline(__always)
    static func h2v1Row(_ input: UnsafePointer<UInt8>, _ output: UnsafeMutablePointer<UInt8>, columns: Int) {
        h2v1(input, output, columns: columns)
    }

    @inline(__always)
    static func h2v2Row(_ row0: UnsafePointer<UInt8>, _ row1: UnsafePointer<UInt8>, _ output: UnsafeMutablePointer<UInt8>, columns: Int) {
        h2v2(row0, row1, output, columns: columns)
    }
}

extension JPEGForwardDCT {
    @inline(__always)
    static func transformBlock(_ samples: UnsafePointer<UInt8>, stride: Int, _ out: UnsafeMutablePointer<Int32>) {
        transform(samples, stride: stride, out)
    }
}
