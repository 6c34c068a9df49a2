/// The Adler-32 checksum of a zlib stream's data (RFC 1950 §8.2, §9): s1 = 1 + the sum of the
/// bytes, s2 = the sum of the successive s1, both modulo 65521, as `s2 << 16 | s1`.
///
/// Computed sixteen bytes at a time in vector lanes: for a block of n bytes, s2 grows by
/// n · s1 + Σ (n − i) · dᵢ; the bytes of chunk k (sixteen each) weigh 16 · (chunks after k)
/// plus 16 − j for byte j of the chunk, so each lane keeps the sum of its bytes, the running
/// sum of those sums (the chunks after) and the bytes times 16 − j, and the block ends with
/// three horizontal sums and the two remainders. ``scalarUpdate(_:)`` is the twin a test holds
/// equal, and equal to zlib's.
struct Adler32 {
    private(set) var value: UInt32 = 1

    static let modulus: UInt32 = 65521
    /// Bytes between reductions: a multiple of 16 that keeps every lane below 2^32.
    static let blockBytes = 5536

    /// Adds `bytes` to the checksum.
    mutating func update(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard var p = bytes.baseAddress else { return }
        var s1 = value & 0xFFFF, s2 = value >> 16
        var left = bytes.count
        let weightsLow = SIMD8<UInt16>(16, 15, 14, 13, 12, 11, 10, 9), weightsHigh = SIMD8<UInt16>(8, 7, 6, 5, 4, 3, 2, 1)
        while left >= 16 {
            let n = min(left, Self.blockBytes) & ~15
            var sums = SIMD8<UInt32>(), running = SIMD8<UInt32>(), weighted = SIMD8<UInt32>()
            let end = p + n
            var q = p
            while q < end {
                let d = UnsafeRawPointer(q).loadUnaligned(as: SIMD16<UInt8>.self)
                let low = SIMD8<UInt16>(truncatingIfNeeded: d.lowHalf), high = SIMD8<UInt16>(truncatingIfNeeded: d.highHalf)
                running &+= sums
                sums &+= SIMD8<UInt32>(truncatingIfNeeded: low &+ high)
                weighted &+= SIMD8<UInt32>(truncatingIfNeeded: low &* weightsLow &+ high &* weightsHigh)
                q += 16
            }
            let s2Block = UInt64(s2) &+ UInt64(n) &* UInt64(s1) &+ 16 &* UInt64(running.wrappedSum())
                &+ UInt64(weighted.wrappedSum())
            s1 = UInt32((UInt64(s1) &+ UInt64(sums.wrappedSum())) % UInt64(Self.modulus))
            s2 = UInt32(s2Block % UInt64(Self.modulus))
            p = end
            left -= n
        }
        value = s2 << 16 | s1
        scalarUpdate(UnsafeBufferPointer(start: p, count: left))
    }

    /// RFC 1950 §9 byte by byte.
    mutating func scalarUpdate(_ bytes: UnsafeBufferPointer<UInt8>) {
        var s1 = value & 0xFFFF, s2 = value >> 16
        for b in bytes {
            s1 = (s1 + UInt32(b)) % Self.modulus
            s2 = (s2 + s1) % Self.modulus
        }
        value = s2 << 16 | s1
    }
}
