import ImageCodecs
@testable import JPEGCodec
import TestSupport
import Testing

/// The coefficient transforms on small synthetic planes: the group laws they must keep, with
/// whole iMCUs and with partial edge iMCUs (`transupp.c`'s edge rules).
struct JPEGLosslessTransformTests {
    /// An image's planes and the sizes that go with them.
    struct Image: Equatable {
        var width: Int
        var height: Int
        var sampling: [(h: Int, v: Int)]
        /// Exactly the blocks that hold samples (no MCU padding).
        var planes: [JPEGSourcePlane]

        static func == (a: Image, b: Image) -> Bool {
            a.width == b.width && a.height == b.height && a.sampling.map(\.h) == b.sampling.map(\.h)
                && a.sampling.map(\.v) == b.sampling.map(\.v)
                && a.planes.map(\.coefficients) == b.planes.map(\.coefficients) && a.planes.map(\.blocksWide) == b.planes.map(\.blocksWide)
        }

        /// Random coefficients, the blocks exactly ⌈size⌉ as a transcode writes them.
        static func random(width: Int, height: Int, sampling: [(h: Int, v: Int)], seed: UInt64) -> Image {
            var state = seed
            let maxH = sampling.map(\.h).max() ?? 1, maxV = sampling.map(\.v).max() ?? 1
            let planes = sampling.map { s in
                let w = (width * s.h + 8 * maxH - 1) / (8 * maxH), h = (height * s.v + 8 * maxV - 1) / (8 * maxV)
                var coefficients = [Int16](repeating: 0, count: w * h * 64)
                for i in coefficients.indices {
                    state = state &* 6364136223846793005 &+ 1442695040888963407
                    coefficients[i] = Int16(truncatingIfNeeded: Int(state >> 40) % 2001 - 1000)
                }
                return JPEGSourcePlane(blocksWide: w, blocksHigh: h, coefficients: coefficients)
            }
            return Image(width: width, height: height, sampling: sampling, planes: planes)
        }

        func applying(_ t: JPEGLosslessTransform, trim: Bool = false) -> Image {
            let g = JPEGTransformGeometry(width: width, height: height, sampling: sampling, transform: t, trim: trim)
            let out = planes.indices.map { c in
                var source = planes[c]
                let padded = g.apply(&source, component: c)
                let real = (0..<g.blocksHigh[c]).flatMap { y in
                    padded.coefficients[(y * padded.blocksPerRow * 64)..<((y * padded.blocksPerRow + g.blocksWide[c]) * 64)]
                }
                return JPEGSourcePlane(blocksWide: g.blocksWide[c], blocksHigh: g.blocksHigh[c], coefficients: real)
            }
            return Image(width: g.outputWidth, height: g.outputHeight, sampling: g.sampling, planes: out)
        }
    }

    static let layouts: [(w: Int, h: Int, s: [(h: Int, v: Int)])] = [
        (32, 48, [(2, 2), (1, 1), (1, 1)]), (48, 16, [(2, 1), (1, 1), (1, 1)]), (24, 16, [(1, 1)]),
        (16, 32, [(1, 2), (1, 1), (1, 1), (1, 2)]),
    ]
    static let partial: [(w: Int, h: Int, s: [(h: Int, v: Int)])] = [
        (37, 21, [(2, 2), (1, 1), (1, 1)]), (33, 17, [(2, 1), (1, 1), (1, 1)]), (13, 7, [(1, 1)]),
        (9, 30, [(1, 1), (1, 1), (1, 1)]), (35, 19, [(3, 2), (1, 1), (1, 1)]),
    ]

    @Test func wholeIMCUsFormTheDihedralGroup() {
        for (i, l) in Self.layouts.enumerated() {
            let a = Image.random(width: l.w, height: l.h, sampling: l.s, seed: UInt64(i + 1))
            #expect(a.applying(.none) == a)
            let r = a.applying(.rotate90)
            #expect(r != a && r.width == a.height)
            #expect(r.applying(.rotate90).applying(.rotate90).applying(.rotate90) == a)
            #expect(r.applying(.rotate90) == a.applying(.rotate180))
            #expect(a.applying(.rotate270) == a.applying(.rotate180).applying(.rotate90))
            #expect(a.applying(.transpose).applying(.flipHorizontal) == r)
            #expect(a.applying(.flipHorizontal).applying(.flipVertical) == a.applying(.rotate180))
            #expect(a.applying(.transverse) == a.applying(.rotate180).applying(.transpose))
            #expect(a.applying(.rotate90, trim: true) == r)
        }
    }

    @Test func involutionsHoldWithPartialEdgeIMCUs() {
        for (i, l) in Self.partial.enumerated() {
            let a = Image.random(width: l.w, height: l.h, sampling: l.s, seed: UInt64(i + 10))
            for t in [JPEGLosslessTransform.flipHorizontal, .flipVertical, .transpose, .transverse, .rotate180] {
                #expect(a.applying(t).applying(t) == a, "\(t) \(l.w)x\(l.h)")
            }
            #expect(a.applying(.transpose) != a)
        }
    }

    @Test func partialEdgeBlocksStayInPlace() {
        // 13 pixels wide, one component: blocks 0 and 1 mirror, block 2 (the partial one) stays.
        let a = Image.random(width: 13 + 8, height: 8, sampling: [(1, 1)], seed: 7)
        let f = a.applying(.flipHorizontal)
        let block = { (i: Image, x: Int) -> [Int16] in Array(i.planes[0].coefficients[(x * 64)..<(x * 64 + 64)]) }
        let source: [Int16] = block(a, 1)
        var mirrored: [Int16] = []
        for k in 0..<64 { mirrored.append(k & 1 == 1 ? 0 &- source[k] : source[k]) }
        #expect(block(f, 2) == block(a, 2))
        #expect(block(f, 0) == mirrored)
        let trimmed = a.applying(.flipHorizontal, trim: true)
        #expect(trimmed.width == 16 && trimmed.planes[0].blocksWide == 2)
        // The padded output's dummy blocks are zero with the DC of the block before them.
        let g = JPEGTransformGeometry(width: 37, height: 21, sampling: [(2, 2), (1, 1), (1, 1)], transform: .rotate90, trim: false)
        let b = Image.random(width: 37, height: 21, sampling: [(2, 2), (1, 1), (1, 1)], seed: 8)
        var lumaSource = b.planes[0]
        let luma = g.apply(&lumaSource, component: 0)
        #expect(luma.blocksPerRow == 4 && luma.blockRows == 6 && g.blocksWide[0] == 3 && g.blocksHigh[0] == 5)
        let dummy = Array(luma.coefficients[(3 * 64)..<(4 * 64)])
        var expected = [Int16](repeating: 0, count: 64)
        expected[0] = luma.coefficients[2 * 64]
        #expect(dummy == expected)
    }

    /// Flips and half turns are exact in pixels too (the ISLOW inverse DCT is symmetric under
    /// negating odd coefficients) where no chroma is upsampled and the size is whole blocks.
    @Test func exactTransformsMoveDecodedPixels() throws {
        for name in ["q75-444-8x8.jpg", "kodim23-q85-444-prog-64x64.jpg", "q75-gray-prog-33x17.jpg"] {
            let bytes = try Corpus.bytes(Corpus.conformance.appendingPathComponent("fixtures/jpeg/\(name)"))
            for (t, orientation) in [(JPEGLosslessTransform.flipHorizontal, 2), (.rotate180, 3), (.flipVertical, 4)] {
                var options = JPEGTranscodeOptions()
                options.transform = t
                options.trim = true
                let out = try JPEGTranscoder.transcode(bytes, options: options)
                let moved = try ImageSource(bytes: out).image(at: 0)
                let original = try ImageSource(bytes: bytes).image(at: 0)
                let cropped = Raster(width: moved.width, height: moved.height, bytesPerPixel: 4,
                                     pixels: (0..<moved.height).flatMap { y in original.pixels[(y * original.width * 4)..<((y * original.width + moved.width) * 4)] })
                #expect(Orientation.apply(orientation, to: cropped).pixels == moved.pixels, "\(name) \(t)")
            }
        }
    }
}
