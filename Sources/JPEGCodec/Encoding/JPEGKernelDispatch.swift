/// The kernels the encoder calls: the SIMD versions where there are, else the scalar ones; each
/// SIMD kernel's scalar twin is what `JPEGEncoderKernelTests` holds it equal to.
extension JPEGColorEncoding {
    @inline(__always)
    static func yccRow(_ rgb: UnsafePointer<UInt8>, stride: Int, count: Int,
                       _ y: UnsafeMutablePointer<UInt8>, _ cb: UnsafeMutablePointer<UInt8>, _ cr: UnsafeMutablePointer<UInt8>) {
        yccSIMD(rgb, stride: stride, count: count, y, cb, cr)
    }

    @inline(__always)
    static func grayRow(_ rgb: UnsafePointer<UInt8>, stride: Int, count: Int, _ y: UnsafeMutablePointer<UInt8>) {
        graySIMD(rgb, stride: stride, count: count, y)
    }
}

extension JPEGDownsampling {
    @inline(__always)
    static func h2v1Row(_ input: UnsafePointer<UInt8>, _ output: UnsafeMutablePointer<UInt8>, columns: Int) {
        h2v1SIMD(input, output, columns: columns)
    }

    @inline(__always)
    static func h2v2Row(_ row0: UnsafePointer<UInt8>, _ row1: UnsafePointer<UInt8>, _ output: UnsafeMutablePointer<UInt8>, columns: Int) {
        h2v2SIMD(row0, row1, output, columns: columns)
    }
}

extension JPEGForwardDCT {
    @inline(__always)
    static func transformBlock(_ samples: UnsafePointer<UInt8>, stride: Int) -> Block {
        transformSIMD(samples, stride: stride)
    }
}
