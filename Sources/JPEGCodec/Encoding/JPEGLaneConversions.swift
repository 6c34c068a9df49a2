/// Lane conversions for the encoder's SIMD kernels, written lane by lane: LLVM turns each into
/// the vector instructions (punpck/psrad to widen, pand/packs to narrow) and they are always
/// inlined, where the standard library's generic `init(truncatingIfNeeded:)` can stay a call
/// inside a large kernel, which also hides from LLVM that a product's operands are 16-bit
/// values (so it cannot use pmaddwd/pmullw).
extension SIMD8 where Scalar == Int32 {
    /// Sign-extends each lane.
    @inline(__always)
    init(widening w: SIMD8<Int16>) {
        self.init()
        for i in 0..<8 { self[i] = Int32(w[i]) }
    }

    /// Reinterprets each lane's bits.
    @inline(__always)
    init(bitPattern w: SIMD8<UInt32>) {
        self.init()
        for i in 0..<8 { self[i] = Int32(bitPattern: w[i]) }
    }
}

extension SIMD8 where Scalar == Int16 {
    /// Keeps the low 16 bits of each lane.
    @inline(__always)
    init(narrowing w: SIMD8<Int32>) {
        self.init()
        for i in 0..<8 { self[i] = Int16(truncatingIfNeeded: w[i]) }
    }

    /// Zero-extends each byte.
    @inline(__always)
    init(widening w: SIMD8<UInt8>) {
        self.init()
        for i in 0..<8 { self[i] = Int16(w[i]) }
    }
}

extension SIMD8 where Scalar == UInt16 {
    /// Keeps the low 16 bits of each lane.
    @inline(__always)
    init(narrowing w: SIMD8<Int32>) {
        self.init()
        for i in 0..<8 { self[i] = UInt16(truncatingIfNeeded: w[i]) }
    }
}

extension SIMD8 where Scalar == UInt32 {
    /// Zero-extends each lane.
    @inline(__always)
    init(widening w: SIMD8<UInt16>) {
        self.init()
        for i in 0..<8 { self[i] = UInt32(w[i]) }
    }
}

extension SIMD16 where Scalar == UInt16 {
    /// Keeps the low 16 bits of each lane.
    @inline(__always)
    init(narrowing w: SIMD16<UInt32>) {
        self.init()
        for i in 0..<16 { self[i] = UInt16(truncatingIfNeeded: w[i]) }
    }
}

extension SIMD16 where Scalar == UInt8 {
    /// Keeps the low 8 bits of each lane.
    @inline(__always)
    init(narrowing w: SIMD16<UInt16>) {
        self.init()
        for i in 0..<16 { self[i] = UInt8(truncatingIfNeeded: w[i]) }
    }
}

extension SIMD32 where Scalar == UInt16 {
    /// Zero-extends each byte.
    @inline(__always)
    init(widening w: SIMD32<UInt8>) {
        self.init()
        for i in 0..<32 { self[i] = UInt16(w[i]) }
    }
}

extension SIMD16 where Scalar == UInt16 {
    /// Sixteen 16-bit words loaded from memory as little-endian values (a byte swap of each
    /// lane on a big-endian machine, nothing on a little-endian one).
    @inline(__always)
    init(littleEndianWords w: SIMD16<UInt16>) {
        #if _endian(little)
        self = w
        #else
        self.init()
        for i in 0..<16 { self[i] = UInt16(littleEndian: w[i]) }
        #endif
    }
}
