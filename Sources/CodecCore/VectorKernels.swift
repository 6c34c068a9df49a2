/// Whether decodes run the vector kernels (SSE2 intrinsics, the standard library's `SIMD`
/// types): in optimised builds. In unoptimised ones an intrinsic is a call and generic `SIMD`
/// code is many times slower than scalar code, so debug builds run each kernel's scalar twin;
/// the twin tests run both in every build and hold them to the same bytes.
package enum VectorKernels {
    #if DEBUG
    package static let arePreferred = false
    #else
    package static let arePreferred = true
    #endif
}
