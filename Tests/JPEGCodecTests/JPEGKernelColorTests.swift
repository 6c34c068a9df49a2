@testable import JPEGCodec
import Testing

/// Colour conversion: pixels computed by hand from `jdcolor.c`'s fixed-point formula and from
/// Pillow's CMYK conversion, libjpeg's tables rebuilt literally, and the SIMD kernels against
/// their scalar twins.
struct JPEGKernelColorTests {
    typealias C = JPEGColorConverter
    enum Kind: Sendable { case simd, scalar }

    static func ycc(_ y: [UInt8], _ cb: [UInt8], _ cr: [UInt8], _ kind: Kind = .simd) -> [UInt8] {
        var out = [UInt8](repeating: 0xEE, count: 4 * y.count + 16)
        y.withUnsafeBufferPointer { y in cb.withUnsafeBufferPointer { cb in cr.withUnsafeBufferPointer { cr in
            out.withUnsafeMutableBufferPointer { o in
                (kind == .simd ? C.yccToRGBA : C.yccToRGBAScalar)(y.baseAddress!, cb.baseAddress!, cr.baseAddress!, y.count, o.baseAddress!)
            }
        }}}
        #expect(out[(4 * y.count)...].allSatisfy { $0 == 0xEE })
        return Array(out[..<(4 * y.count)])
    }

    static func fourPlanes(_ a: [UInt8], _ b: [UInt8], _ c: [UInt8], _ k: [UInt8], ycck: Bool, _ kind: Kind = .simd) -> [UInt8] {
        var out = [UInt8](repeating: 0xEE, count: 4 * a.count)
        a.withUnsafeBufferPointer { a in b.withUnsafeBufferPointer { b in c.withUnsafeBufferPointer { c in k.withUnsafeBufferPointer { k in
            out.withUnsafeMutableBufferPointer { o in
                let convert = ycck ? (kind == .simd ? C.ycckToRGBA : C.ycckToRGBAScalar) : (kind == .simd ? C.cmykToRGBA : C.cmykToRGBAScalar)
                convert(a.baseAddress!, b.baseAddress!, c.baseAddress!, k.baseAddress!, a.count, o.baseAddress!)
            }
        }}}}
        return out
    }

    static func repeated(_ pixel: [UInt8], _ times: Int) -> [UInt8] { (0..<times).flatMap { _ in pixel } }

    /// With x = Cb − 128, z = Cr − 128: R = Y + ((91881·z + 2^15) >> 16),
    /// G = Y + ((−22554·x − 46802·z + 2^15) >> 16), B = Y + ((116130·x + 2^15) >> 16), clamped.
    /// E.g. (100, 200, 50): x = 72, z = −78; R = 100 + floor(−7133950 / 65536) = 100 − 109 → 0,
    /// G = 100 + floor(2059436 / 65536) = 131, B = 100 + floor(8394128 / 65536) = 228.
    @Test(arguments: [
        ((128, 128, 128), (128, 128, 128)), ((0, 128, 128), (0, 0, 0)), ((255, 128, 128), (255, 255, 255)),
        ((100, 200, 50), (0, 131, 228)), ((76, 85, 255), (254, 0, 0)), ((150, 44, 21), (0, 255, 1)),
        ((29, 255, 107), (0, 0, 254)), ((128, 129, 129), (129, 127, 130)), ((128, 127, 127), (127, 129, 126)),
    ] as [((UInt8, UInt8, UInt8), (UInt8, UInt8, UInt8))])
    func yccPixelsWorkedByHand(ycc: (UInt8, UInt8, UInt8), rgb: (UInt8, UInt8, UInt8)) {
        // 17 copies so that both the 16-pixel loop and the tail see the pixel.
        let out = Self.ycc([UInt8](repeating: ycc.0, count: 17), [UInt8](repeating: ycc.1, count: 17), [UInt8](repeating: ycc.2, count: 17))
        #expect(out == [UInt8](Self.repeated([rgb.0, rgb.1, rgb.2, 255], 17)))
    }

    /// `build_ycc_rgb_table` and `ycc_rgb_convert` rebuilt literally (tables of
    /// `RIGHT_SHIFT(FIX(1.402)·x + ONE_HALF, 16)` etc., with ONE_HALF folded into `Cb_g_tab`),
    /// against both conversions for every (Cb, Cr) and a spread of Y.
    @Test(arguments: [Kind.simd, .scalar])
    func matchesLibjpegTablesForEveryChromaPair(kind: Kind) {
        func fix(_ x: Double) -> Int { Int(x * 65536 + 0.5) }
        let crR = (0...255).map { (fix(1.402) * ($0 - 128) + 32768) >> 16 }
        let cbB = (0...255).map { (fix(1.772) * ($0 - 128) + 32768) >> 16 }
        let crG = (0...255).map { -fix(0.71414) * ($0 - 128) }
        let cbG = (0...255).map { -fix(0.34414) * ($0 - 128) + 32768 }
        let cb = (0..<65536).map { UInt8($0 >> 8) }, cr = (0..<65536).map { UInt8($0 & 255) }
        for luma: UInt8 in [0, 1, 64, 128, 200, 254, 255] {
            let out = Self.ycc([UInt8](repeating: luma, count: 65536), cb, cr, kind)
            var expected = [UInt8](), y = Int(luma)
            expected.reserveCapacity(4 * 65536)
            for i in 0..<65536 {
                let (b, r) = (Int(cb[i]), Int(cr[i]))
                for v in [y + crR[r], y + ((cbG[b] + crG[r]) >> 16), y + cbB[b]] { expected.append(UInt8(min(max(v, 0), 255))) }
                expected.append(255)
            }
            #expect(out == expected, "Y = \(luma)")
        }
    }

    @Test func yccSIMDEqualsScalarTwin() {
        var g = JPEGKernelFixtures.Generator(seed: 0xC01)
        for count in Array(0...40) + [1000] {
            let y = g.bytes(count), cb = g.bytes(count), cr = g.bytes(count)
            #expect(Self.ycc(y, cb, cr) == Self.ycc(y, cb, cr, .scalar), "count \(count)")
        }
    }

    @Test func grayAndRGBAreCopied() {
        var g = JPEGKernelFixtures.Generator(seed: 0x6A)
        for count in [0, 1, 15, 16, 17, 100] {
            let r = g.bytes(count), gg = g.bytes(count), b = g.bytes(count)
            var gray = [UInt8](repeating: 0, count: 4 * count), grayScalar = gray, rgb = gray, rgbScalar = gray
            r.withUnsafeBufferPointer { r in gg.withUnsafeBufferPointer { gp in b.withUnsafeBufferPointer { b in
                gray.withUnsafeMutableBufferPointer { C.grayToRGBA(r.baseAddress!, count: count, $0.baseAddress!) }
                grayScalar.withUnsafeMutableBufferPointer { C.grayToRGBAScalar(r.baseAddress!, count: count, $0.baseAddress!) }
                rgb.withUnsafeMutableBufferPointer { C.rgbToRGBA(r: r.baseAddress!, g: gp.baseAddress!, b: b.baseAddress!, count: count, $0.baseAddress!) }
                rgbScalar.withUnsafeMutableBufferPointer { C.rgbToRGBAScalar(r: r.baseAddress!, g: gp.baseAddress!, b: b.baseAddress!, count: count, $0.baseAddress!) }
            }}}
            #expect(gray == r.flatMap { [$0, $0, $0, 255] } && grayScalar == gray)
            #expect(rgb == (0..<count).flatMap { [r[$0], gg[$0], b[$0], 255] } && rgbScalar == rgb)
        }
    }

    /// Pillow: R = K − MULDIV255(255 − C, K) on the stored (Adobe-inverted) samples, with
    /// MULDIV255(a, b) = (t + (t >> 8)) >> 8, t = a·b + 128. E.g. C = 128, K = 200:
    /// t = 127·200 + 128 = 25528, (25528 + 99) >> 8 = 100, R = 100.
    @Test(arguments: [
        ((255, 255, 255, 255), (255, 255, 255)), ((255, 255, 255, 0), (0, 0, 0)), ((0, 255, 255, 255), (0, 255, 255)),
        ((128, 64, 255, 200), (100, 50, 200)),
    ] as [((UInt8, UInt8, UInt8, UInt8), (UInt8, UInt8, UInt8))])
    func cmykPixelsWorkedByHand(cmyk: (UInt8, UInt8, UInt8, UInt8), rgb: (UInt8, UInt8, UInt8)) {
        func plane(_ v: UInt8) -> [UInt8] { [UInt8](repeating: v, count: 17) }
        let out = Self.fourPlanes(plane(cmyk.0), plane(cmyk.1), plane(cmyk.2), plane(cmyk.3), ycck: false)
        #expect(out == Self.repeated([rgb.0, rgb.1, rgb.2, 255], 17))
    }

    /// YCCK: the YCbCr formula, then R = K − MULDIV255(R', K): (0, 128, 128) is R' = 0, so
    /// white under K = 255; (100, 200, 50) is (0, 131, 228), so with K = 180
    /// (180, 180 − 92, 180 − 161).
    @Test(arguments: [
        ((0, 128, 128, 255), (255, 255, 255)), ((255, 128, 128, 255), (0, 0, 0)), ((0, 128, 128, 0), (0, 0, 0)),
        ((100, 200, 50, 180), (180, 88, 19)),
    ] as [((UInt8, UInt8, UInt8, UInt8), (UInt8, UInt8, UInt8))])
    func ycckPixelsWorkedByHand(ycck: (UInt8, UInt8, UInt8, UInt8), rgb: (UInt8, UInt8, UInt8)) {
        func plane(_ v: UInt8) -> [UInt8] { [UInt8](repeating: v, count: 17) }
        let out = Self.fourPlanes(plane(ycck.0), plane(ycck.1), plane(ycck.2), plane(ycck.3), ycck: true)
        #expect(out == Self.repeated([rgb.0, rgb.1, rgb.2, 255], 17))
    }

    /// MULDIV255 is a·b/255 rounded to nearest for every pair.
    @Test func mulDiv255RoundsToNearest() {
        for a in 0...255 {
            for b in 0...255 {
                #expect(Int(C.mulDiv255(UInt8(a), UInt8(b))) == (2 * a * b + 255) / 510, "\(a)·\(b)")
            }
        }
    }

    @Test func cmykAndYcckSIMDEqualScalarTwins() {
        var g = JPEGKernelFixtures.Generator(seed: 0xC3)
        for count in Array(0...40) + [4096] {
            let a = g.bytes(count), b = g.bytes(count), c = g.bytes(count), k = g.bytes(count)
            for ycck in [false, true] {
                #expect(Self.fourPlanes(a, b, c, k, ycck: ycck) == Self.fourPlanes(a, b, c, k, ycck: ycck, .scalar), "count \(count)")
            }
        }
    }
}
