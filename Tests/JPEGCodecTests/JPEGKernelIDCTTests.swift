@testable import JPEGCodec
import Testing

/// Seeded inputs and the pointer plumbing shared by the JPEGKernel tests.
enum JPEGKernelFixtures {
    /// xorshift64: the same sequence on every run and platform.
    struct Generator {
        var state: UInt64
        init(seed: UInt64) { state = seed | 1 }
        mutating func next() -> UInt64 {
            state ^= state << 13; state ^= state >> 7; state ^= state << 17
            return state
        }
        mutating func int(_ range: ClosedRange<Int>) -> Int {
            range.lowerBound + Int(next() % UInt64(range.upperBound - range.lowerBound + 1))
        }
        mutating func chance(_ percent: Int) -> Bool { int(0...99) < percent }
        mutating func bytes(_ count: Int) -> [UInt8] { (0..<count).map { _ in UInt8(truncatingIfNeeded: next()) } }
    }

    enum IDCT { case simd, scalar }

    static func idct(_ coefficients: [Int16], _ quantization: [Int16], _ kind: IDCT = .simd) -> [UInt8] {
        var output = [UInt8](repeating: 0xAA, count: 64)
        coefficients.withUnsafeBufferPointer { c in
            quantization.withUnsafeBufferPointer { q in
                output.withUnsafeMutableBufferPointer { o in
                    switch kind {
                    case .simd: JPEGIDCT.islow(c.baseAddress!, q.baseAddress!, o.baseAddress!, stride: 8)
                    case .scalar: JPEGIDCT.islowScalar(c.baseAddress!, q.baseAddress!, o.baseAddress!, stride: 8)
                    }
                }
            }
        }
        return output
    }

    /// `size`×`size` samples from ``JPEGIDCT/reduced(size:_:_:_:stride:)``, rows packed.
    static func reduced(_ size: Int, _ coefficients: [Int16], _ quantization: [Int16]) -> [UInt8] {
        var output = [UInt8](repeating: 0xAA, count: size * size)
        coefficients.withUnsafeBufferPointer { c in
            quantization.withUnsafeBufferPointer { q in
                output.withUnsafeMutableBufferPointer { o in
                    JPEGIDCT.reduced(size: size, c.baseAddress!, q.baseAddress!, o.baseAddress!, stride: size)
                }
            }
        }
        return output
    }

    /// A block with the given natural-order (index, value) entries, zero elsewhere.
    static func block(_ entries: [(Int, Int16)]) -> [Int16] {
        var block = [Int16](repeating: 0, count: 64)
        for (index, value) in entries { block[index] = value }
        return block
    }

    /// Random blocks of the kinds the IDCT treats differently, extreme values included.
    static func variedBlocks(count: Int, seed: UInt64) -> [(coefficients: [Int16], quantization: [Int16])] {
        var g = Generator(seed: seed)
        func anyInt16() -> Int16 { Int16(truncatingIfNeeded: g.next()) }
        return (0..<count).map { n in
            var c = [Int16](repeating: 0, count: 64)
            let q: [Int16] = (0..<64).map { _ in n % 3 == 0 ? anyInt16() : Int16(g.int(1...255)) }
            switch n % 6 {
            case 0: for i in 0..<64 where g.chance(50) { c[i] = anyInt16() }             // extreme
            case 1: for i in 0..<64 where g.chance(25) { c[i] = Int16(g.int(-60...60)) } // realistic
                c[0] = Int16(g.int(-1024...1023))
            case 2: c[0] = anyInt16()                                                     // DC only
            case 3: for i in 0..<8 { c[i] = g.chance(60) ? anyInt16() : 0 }               // first row only
            case 4: c[g.int(0...63)] = [Int16.min, Int16.max, -1, 1, anyInt16()][g.int(0...4)] // one coefficient
            default: break                                                                // all zero
            }
            return (c, q)
        }
    }
}

/// The 8×8 ISLOW IDCT: the SIMD version against its scalar twin, and both against values
/// derived by hand from T.81 A.3.3 and libjpeg-turbo's arithmetic.
struct JPEGKernelIDCTTests {
    typealias F = JPEGKernelFixtures

    @Test func simdEqualsScalarTwin() {
        for (n, (c, q)) in F.variedBlocks(count: 3000, seed: 0x1DC7).enumerated() {
            #expect(F.idct(c, q, .simd) == F.idct(c, q, .scalar), "block \(n): \(c) × \(q)")
        }
    }

    /// Every single coefficient at every position with the extreme values and quantizers.
    @Test func simdEqualsScalarTwinOnSingleCoefficients() {
        for index in 0..<64 {
            for value: Int16 in [.min, -32767, -1024, -1, 1, 1023, .max] {
                for quantizer: Int16 in [1, 255, .max, .min] {
                    let c = F.block([(index, value)]), q = [Int16](repeating: quantizer, count: 64)
                    #expect(F.idct(c, q, .simd) == F.idct(c, q, .scalar), "c[\(index)] = \(value), q = \(quantizer)")
                }
            }
        }
    }

    /// A DC-only block is flat at 128 + DESCALE(d·q, 3): pass 1 gives `(d·q) << 2`, pass 2
    /// `(that·2^13 + 2^17) >> 18`, so `floor((d·q + 4) / 8)`, ties rounding up; then clamped.
    @Test(arguments: [
        (0, 1, 128), (3, 1, 128), (4, 1, 129), (-4, 1, 128), (-5, 1, 127), (-12, 1, 127), (-13, 1, 126),
        (10, 16, 148), (-63, 16, 2), (-64, 16, 0), (127, 8, 255), (1000, 1, 253), (1024, 1, 255), (-1025, 1, 0),
    ] as [(Int16, Int16, UInt8)])
    func dcOnlyBlockIsFlatAndRoundsHalfUp(dc: Int16, quantizer: Int16, expected: UInt8) {
        let output = F.idct(F.block([(0, dc)]), [Int16](repeating: quantizer, count: 64))
        #expect(output == [UInt8](repeating: expected, count: 64))
        #expect(F.idct(F.block([(0, dc)]), [Int16](repeating: quantizer, count: 64), .scalar) == output)
    }

    /// The same rule over a sweep of DC values and quantizers, wherever `4·d·q` fits in 16 bits.
    @Test func dcOnlyBlocksFollowTheDescaleRule() {
        for quantizer: Int16 in [1, 2, 3, 7, 16, 99] {
            for dc in stride(from: -8191 / Int(quantizer), through: 8191 / Int(quantizer), by: 7) {
                let product = dc * Int(quantizer)
                let floorDiv = (product + 4) >= 0 ? (product + 4) / 8 : -((-(product + 4) + 7) / 8)
                let expected = UInt8(min(max(128 + floorDiv, 0), 255))
                let output = F.idct(F.block([(0, Int16(dc))]), [Int16](repeating: quantizer, count: 64))
                #expect(output.allSatisfy { $0 == expected }, "dc \(dc), q \(quantizer)")
            }
        }
    }

    /// Beyond 16 bits libjpeg-turbo's SIMD code wraps: the dequantized DC `d·q` and the
    /// shortcut's `<< 2` are 16-bit (`pmullw`, `psllw`). 8192 << 2 = 32768 wraps to −32768, giving
    /// −1024 after pass 2, clamped to 0 (the C code would give 128 through its range-limit wrap).
    @Test func dcShortcutWrapsIn16Bits() {
        #expect(F.idct(F.block([(0, 8192)]), [Int16](repeating: 1, count: 64)) == [UInt8](repeating: 0, count: 64))
        // 2048·4 is the same product.
        #expect(F.idct(F.block([(0, 2048)]), [Int16](repeating: 4, count: 64)) == [UInt8](repeating: 0, count: 64))
        // 16384·4 = 65536 wraps to 0: a flat 128.
        #expect(F.idct(F.block([(0, 16384)]), [Int16](repeating: 4, count: 64)) == [UInt8](repeating: 128, count: 64))
        // 8191·1: 32764 stays, (32764 + 16) >> 5 = 1024, clamped to 255.
        #expect(F.idct(F.block([(0, 8191)]), [Int16](repeating: 1, count: 64)) == [UInt8](repeating: 255, count: 64))
    }

    /// A horizontal-only block (coefficient row 0) has identical rows; a vertical-only block
    /// (coefficient column 0) identical columns; both are symmetric the way cosines are:
    /// u = 1 is odd about the block's centre, u = 2 even.
    @Test func separableBlocksHaveTheExpectedSymmetry() {
        let q = [Int16](repeating: 1, count: 64)
        let horizontal = F.idct(F.block([(1, 100)]), q)
        for y in 1..<8 { #expect(Array(horizontal[y * 8..<y * 8 + 8]) == Array(horizontal[0..<8])) }
        for x in 0..<4 { #expect(abs(Int(horizontal[x]) + Int(horizontal[7 - x]) - 256) <= 1) }
        #expect(zip(horizontal[0..<7], horizontal[1..<8]).allSatisfy { $0 > $1 })
        let vertical = F.idct(F.block([(16, 100)]), q)
        for y in 0..<8 {
            #expect(Set(vertical[y * 8..<y * 8 + 8]).count == 1)
            #expect(vertical[y * 8] == vertical[(7 - y) * 8])
        }
    }

    /// libjpeg's range-limit table (`prepare_range_limit_table`, indexed with `& RANGE_MASK`)
    /// rebuilt literally, against ``JPEGIDCT/rangeLimit(_:)`` over several wraps.
    @Test func rangeLimitMatchesLibjpegTable() {
        var table = [UInt8](repeating: 0, count: 5 * 256 + 128)     // sample_range_limit - 256
        for i in 0...255 { table[256 + i] = UInt8(i) }
        for i in 128..<512 { table[256 + 128 + i] = 255 }
        for i in 0..<128 { table[256 + 128 + 1024 - 128 + i] = UInt8(i) }
        for x in -3000...3000 {
            #expect(JPEGIDCT.rangeLimit(Int32(x)) == table[256 + 128 + (x & 1023)], "x = \(x)")
        }
        #expect([0, 127, 128, 511, 512, -128, -129, -512, -513, 1024].map { JPEGIDCT.rangeLimit($0) }
            == [128, 255, 255, 255, 0, 0, 0, 0, 255, 128])
    }
}
