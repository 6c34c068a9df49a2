@testable import JPEGCodec
import Foundation
import Testing

/// The IDCTs against independent references: a floating-point IDCT written from T.81 A.3.3,
/// and libjpeg-turbo's C code (`jidctint.c`, `jidctred.c`) modelled in 64-bit arithmetic as it is
/// written, without the SIMD code's 16-bit limits. Where the inputs stay inside those limits the
/// SIMD arithmetic this library follows must agree with the C code exactly.
struct JPEGKernelReferenceTests {
    typealias F = JPEGKernelFixtures

    /// T.81 A.3.3: s(y,x) = 1/4 Σu Σv C(u) C(v) S(v,u) cos((2x+1)uπ/16) cos((2y+1)vπ/16),
    /// C(0) = 1/√2, then level-shifted, rounded and clamped.
    static func floatingIDCT(_ c: [Int16], _ q: [Int16]) -> [UInt8] {
        func cosine(_ x: Int, _ u: Int) -> Double {
            let scale: Double = u == 0 ? 1 / 2.0.squareRoot() : 1
            return scale * cos(Double((2 * x + 1) * u) * Double.pi / 16)
        }
        let basis: [[Double]] = (0..<8).map { x in (0..<8).map { u in cosine(x, u) } }
        return (0..<64).map { i in
            let (y, x) = (i / 8, i % 8)
            var sum = 0.0
            for v in 0..<8 {
                for u in 0..<8 {
                    let coefficient = Double(Int(c[v * 8 + u]) * Int(q[v * 8 + u]))
                    sum += basis[y][v] * basis[x][u] * coefficient
                }
            }
            let sample: Double = (sum / 4 + 128).rounded()
            return UInt8(min(max(sample, 0), 255))
        }
    }

    /// ISLOW is accurate to ±1 of the true IDCT (it passes IEEE 1180) on the values real
    /// images have: dequantized coefficients of a few hundred.
    @Test func withinOneOfFloatingPointIDCT() {
        var g = F.Generator(seed: 0xF10A7)
        var worst = 0
        for n in 0..<400 {
            let q = [Int16](repeating: Int16(g.int(1...4)), count: 64)
            let c: [Int16] = (0..<64).map { i in i == 0 || g.chance(n % 2 == 0 ? 15 : 60) ? Int16(g.int(-300...300) / Int(q[0])) : 0 }
            let exact = Self.floatingIDCT(c, q), islow = F.idct(c, q)
            worst = max(worst, zip(exact, islow).map { abs(Int($0) - Int($1)) }.max()!)
        }
        #expect(worst <= 1)
    }

    @Test func agreesWithJidctintWhereNoLimitIsReached() {
        var compared = 0
        for (c, q) in F.variedBlocks(count: 3000, seed: 0xC0DE) + Self.moderateBlocks(count: 2000) {
            guard let reference = Self.jidctint(c, q) else { continue }
            compared += 1
            #expect(F.idct(c, q) == reference, "\(c) × \(q)")
        }
        #expect(compared > 2200)
    }

    @Test(arguments: [4, 2, 1])
    func reducedAgreesWithJidctredWhereNoLimitIsReached(size: Int) {
        var compared = 0
        for (c, q) in F.variedBlocks(count: 3000, seed: 0x5CA1E) + Self.moderateBlocks(count: 2000) {
            guard let reference = Self.jidctred(size, c, q) else { continue }
            compared += 1
            #expect(F.reduced(size, c, q) == reference, "\(size)×\(size): \(c) × \(q)")
        }
        #expect(compared > 2200)
    }

    static func moderateBlocks(count: Int) -> [([Int16], [Int16])] {
        var g = F.Generator(seed: 0x0DE7)
        return (0..<count).map { _ in
            let q: [Int16] = (0..<64).map { _ in Int16(g.int(1...40)) }
            let c: [Int16] = (0..<64).map { i in i == 0 ? Int16(g.int(-60...60)) : g.chance(30) ? Int16(g.int(-20...20)) : 0 }
            return (c, q)
        }
    }

    static func fits16(_ v: Int64) -> Bool { v >= -32768 && v <= 32767 }

    /// The C range limit: `IDCT_range_limit[x & RANGE_MASK]`.
    static func rangeLimited(_ x: Int64) -> UInt8 {
        let i = Int(x & 1023)
        return i < 128 ? UInt8(i + 128) : i < 512 ? 255 : i < 896 ? 0 : UInt8(i - 896)
    }

    static func descale(_ x: Int64, _ n: Int64) -> Int64 { (x + (1 << (n - 1))) >> n }

    /// The C code's `int` workspace keeps the low 32 bits.
    static func int(_ x: Int64) -> Int64 { Int64(Int32(truncatingIfNeeded: x)) }

    /// `jpeg_idct_islow` as jidctint.c writes it, or nil when the SIMD code would differ: a
    /// dequantized value, a 16-bit sum (x0 ± x4, x7 + x3, x5 + x1), a pass-1 result or the
    /// shortcut's `<< 2` beyond 16 bits, or an output beyond −512…511.
    static func jidctint(_ c: [Int16], _ q: [Int16], ignoringLimits: Bool = false) -> [UInt8]? {
        var ws = [Int64](repeating: 0, count: 64), ok = true
        func pass(_ d: [Int64], _ shift: Int64) -> [Int64] {
            ok = ok && fits16(d[0] + d[4]) && fits16(d[0] - d[4]) && fits16(d[7] + d[3]) && fits16(d[5] + d[1])
            var z2 = d[2], z3 = d[6]
            var z1 = (z2 + z3) * 4433
            let tmp2e = z1 + z3 * -15137, tmp3e = z1 + z2 * 6270
            z2 = d[0]; z3 = d[4]
            let tmp0e = (z2 + z3) << 13, tmp1e = (z2 - z3) << 13
            let tmp10 = tmp0e + tmp3e, tmp13 = tmp0e - tmp3e, tmp11 = tmp1e + tmp2e, tmp12 = tmp1e - tmp2e
            var tmp0 = d[7], tmp1 = d[5], tmp2 = d[3], tmp3 = d[1]
            z1 = tmp0 + tmp3; z2 = tmp1 + tmp2; z3 = tmp0 + tmp2
            var z4 = tmp1 + tmp3
            let z5 = (z3 + z4) * 9633
            tmp0 *= 2446; tmp1 *= 16819; tmp2 *= 25172; tmp3 *= 12299
            z1 *= -7373; z2 *= -20995; z3 *= -16069; z4 *= -3196
            z3 += z5; z4 += z5
            tmp0 += z1 + z3; tmp1 += z2 + z4; tmp2 += z2 + z3; tmp3 += z1 + z4
            return [tmp10 + tmp3, tmp11 + tmp2, tmp12 + tmp1, tmp13 + tmp0,
                    tmp13 - tmp0, tmp12 - tmp1, tmp11 - tmp2, tmp10 - tmp3].map { descale($0, shift) }
        }
        let d = (0..<64).map { Int64(c[$0]) * Int64(q[$0]) }
        ok = d.allSatisfy(fits16)
        for u in 0..<8 {
            let column = (0..<8).map { d[$0 * 8 + u] }
            let out = (1..<8).allSatisfy({ c[$0 * 8 + u] == 0 }) ? [Int64](repeating: column[0] << 2, count: 8) : pass(column, 11)
            for y in 0..<8 { ws[y * 8 + u] = int(out[y]); ok = ok && fits16(out[y]) }
        }
        var samples = [UInt8](repeating: 0, count: 64)
        for y in 0..<8 {
            let row = Array(ws[y * 8..<y * 8 + 8])
            let out = row[1...].allSatisfy({ $0 == 0 }) ? [Int64](repeating: descale(row[0], 5), count: 8) : pass(row, 18)
            for x in 0..<8 { samples[y * 8 + x] = rangeLimited(out[x]); ok = ok && out[x] >= -512 && out[x] <= 511 }
        }
        return ok || ignoringLimits ? samples : nil
    }

    /// `jpeg_idct_4x4`, `jpeg_idct_2x2` and `jpeg_idct_1x1` as jidctred.c writes them (with
    /// their column and row shortcuts), or nil when the SIMD code (4×4, 2×2) would differ.
    static func jidctred(_ size: Int, _ c: [Int16], _ q: [Int16], ignoringLimits: Bool = false) -> [UInt8]? {
        let d = (0..<64).map { Int64(c[$0]) * Int64(q[$0]) }
        if size == 1 { return [rangeLimited(descale(d[0], 3))] }
        var ok = d.allSatisfy(fits16)
        let fitsInt32 = { (v: Int64) in v >= -(1 << 31) && v < (1 << 31) }
        // One 1-D transform of `x` (frequency order), before descaling.
        func transform(_ x: [Int64]) -> [Int64] {
            if size == 4 {
                let tmp0 = x[0] << 14, tmp2 = x[2] * 15137 + x[6] * -6270
                let tmp10 = tmp0 + tmp2, tmp12 = tmp0 - tmp2
                let odd0 = x[7] * -1730 + x[5] * 11893 + x[3] * -17799 + x[1] * 8697
                let odd2 = x[7] * -4176 + x[5] * -4926 + x[3] * 7373 + x[1] * 20995
                return checked([tmp10 + odd2, tmp12 + odd0, tmp12 - odd0, tmp10 - odd2])
            }
            let tmp10 = x[0] << 15, odd = x[7] * -5906 + x[5] * 6967 + x[3] * -10426 + x[1] * 29692
            return checked([tmp10 + odd, tmp10 - odd])
        }
        // The SIMD code's 32-bit sums wrap; that is harmless as long as each output (plus the
        // descale bias, at most 2^19) fits.
        func checked(_ out: [Int64]) -> [Int64] {
            ok = ok && out.allSatisfy { fitsInt32($0) && fitsInt32($0 + (1 << 19)) }
            return out
        }
        let used = size == 4 ? [1, 2, 3, 5, 6, 7] : [1, 3, 5, 7]
        var ws = [[Int64]](repeating: [Int64](repeating: 0, count: 8), count: size)
        for u in 0..<8 where size == 4 ? u != 4 : [0, 1, 3, 5, 7].contains(u) {
            let column = (0..<8).map { d[$0 * 8 + u] }
            let shortcut = used.allSatisfy { c[$0 * 8 + u] == 0 }
            let out = shortcut ? [Int64](repeating: column[0] << 2, count: size) : transform(column).map { descale($0, size == 4 ? 12 : 13) }
            for y in 0..<size {
                ws[y][u] = int(out[y])
                // The SIMD code saturates pass-1 results to 16 bits, except the 2×2's column 0,
                // which it shifts left by 15 in 32 bits.
                ok = ok && (fits16(out[y]) || (size == 2 && u == 0)) && fitsInt32(out[y] << 15)
            }
            if shortcut && size == 4 { ok = ok && fits16(column[0] << 2) }
        }
        var samples = [UInt8]()
        for row in ws {
            ok = ok && (size == 4 ? row : [row[1], row[3], row[5], row[7]]).allSatisfy(fits16)
            let shortcut = used.allSatisfy { row[$0] == 0 }
            let out = shortcut ? [Int64](repeating: descale(row[0], 5), count: size) : transform(row).map { descale($0, size == 4 ? 19 : 20) }
            ok = ok && out.allSatisfy { $0 >= -512 && $0 <= 511 }
            samples += out.map(rangeLimited)
        }
        return ok || ignoringLimits ? samples : nil
    }
}
