import CodecCore
import ImageCodecs
import TestSupport
import Testing
@testable import WebPCodec

/// ALPH filtering (RFC 9649 2.7.1.2): the encoder's filters against the decoder's unfiltering,
/// the estimate, and files with filtered alpha decoded exactly, by `dwebp` too when installed.
struct WebPAlphaFilterTests {
    /// An alpha plane that one method predicts perfectly: rows constant (horizontal), columns
    /// constant (vertical), or a sum of a function of x and one of y (gradient).
    static func plane(for method: Int, width: Int, height: Int, seed: UInt64) -> [UInt8] {
        var rng = SplitMix64(seed: seed)
        let rows = (0..<height).map { _ in UInt8.random(in: 0...255, using: &rng) }
        let columns = (0..<width).map { _ in UInt8.random(in: 0...255, using: &rng) }
        return (0..<(width * height)).map { i in
            let x = i % width, y = i / width
            switch method {
            case 1: return rows[y]
            case 2: return columns[x]
            default: return UInt8(x * x / 16 + y * y / 16)
            }
        }
    }

    /// Filtering then the decoder's unfiltering gives back random planes, for every method.
    @Test func filtersInvert() {
        var rng = SplitMix64(seed: 11)
        for (width, height) in [(1, 1), (1, 7), (9, 1), (23, 17)] {
            let alpha = (0..<(width * height)).map { _ in UInt8.random(in: 0...255, using: &rng) }
            for method in 0..<4 {
                var rows = WebPAlphaFilter.filter(alpha, width: width, height: height, method: method)
                if method != 0 {
                    rows.withUnsafeMutableBufferPointer { r in
                        let base = r.baseAddress!
                        WebPAlphaFilter.unfilterFirst(base, width)
                        for y in 1..<height {
                            WebPAlphaFilter.unfilter(method, base + y * width, above: base + (y - 1) * width, width)
                        }
                    }
                }
                #expect(rows == alpha, "\(width)x\(height) method \(method)")
            }
        }
    }

    /// The estimate picks the method that predicts a plane perfectly (the lowest on a tie), and
    /// none for a constant plane.
    @Test func estimatePicksThePredictingMethod() {
        for method in 1..<4 {
            let alpha = Self.plane(for: method, width: 40, height: 40, seed: UInt64(method))
            #expect(WebPAlphaFilter.estimatedMethod(alpha, width: 40, height: 40) == method)
        }
        #expect(WebPAlphaFilter.estimatedMethod([UInt8](repeating: 77, count: 1600), width: 40, height: 40) == 0)
    }

    /// Which methods are compressed: none alone for at most 16 values, the estimate below
    /// effort 4, none and the estimate from 4, all from 8.
    @Test func methodsTriedByEffort() {
        let gradient = Self.plane(for: 3, width: 40, height: 40, seed: 3)
        #expect(WebPLossyEncoder.filterMethods(gradient, width: 40, height: 40, effort: 2) == [3])
        #expect(WebPLossyEncoder.filterMethods(gradient, width: 40, height: 40, effort: 5) == [0, 3])
        #expect(WebPLossyEncoder.filterMethods(gradient, width: 40, height: 40, effort: 8) == [0, 1, 2, 3])
        let fewValues = gradient.map { $0 & 0xF0 }
        #expect(WebPLossyEncoder.filterMethods(fewValues, width: 40, height: 40, effort: 9) == [0])
    }

    /// Lossy files with such alpha planes, at the estimate (effort 2) and trying all (effort 8):
    /// the ALPH header names a filter, alpha decodes exactly (alphaQuality 1), libwebp agrees.
    @Test(arguments: [1, 2, 3])
    func filteredAlphaDecodesExactly(_ method: Int) throws {
        let (width, height) = (40, 40)
        let alpha = Self.plane(for: method, width: width, height: height, seed: UInt64(method))
        var pixels = WebPEncoderTests.image(.smooth, width: width, height: height, seed: 2)
        for i in 0..<(width * height) { pixels[4 * i + 3] = alpha[i] }
        for effort in [2, 8] {
            let bytes = try WebPEncoderTests.encode([pixels], width: width, height: height,
                                                    options: WebPLossyEncoderTests.lossy(effort: effort))
            let chunk = try #require((0..<(bytes.count - 4)).first { bytes[$0..<($0 + 4)].elementsEqual("ALPH".utf8) })
            let header = bytes[chunk + 8]
            #expect(Int(header >> 2 & 3) != 0 && header & 3 == 1, "effort \(effort): header \(header)")
            let decoded = try WebPEncoderTests.decode(bytes)[0]
            for i in 0..<(width * height) where decoded[4 * i + 3] != alpha[i] {
                Issue.record("effort \(effort): alpha differs at \(i)")
                break
            }
            if let libwebp = try WebPLossyEncoderTests.dwebp(bytes) { #expect(libwebp == decoded) }
        }
    }

    /// The alpha compressed beside the colour and its candidates side by side: the same bytes
    /// on one thread and on four.
    @Test func threadsGiveTheSameBytes() throws {
        let (width, height) = (40, 40)
        let alpha = Self.plane(for: 1, width: width, height: height, seed: 1)
        var pixels = WebPEncoderTests.image(.smooth, width: width, height: height, seed: 2)
        for i in 0..<(width * height) { pixels[4 * i + 3] = alpha[i] }
        for effort in [5, 8] {
            var o = WebPLossyEncoderTests.lossy(effort: effort)
            o.maxThreads = 1
            let one = try WebPEncoderTests.encode([pixels], width: width, height: height, options: o)
            o.maxThreads = 4
            let four = try WebPEncoderTests.encode([pixels], width: width, height: height, options: o)
            #expect(one == four, "effort \(effort)")
        }
    }

    /// Noise in the alpha plane compresses to more than its raw size: the ALPH chunk is then
    /// raw (compression 0, no filter), alpha decodes exactly, libwebp agrees.
    @Test func incompressibleAlphaIsRaw() throws {
        let (width, height) = (40, 40)
        var rng = SplitMix64(seed: 5)
        var pixels = WebPEncoderTests.image(.smooth, width: width, height: height, seed: 2)
        for i in 0..<(width * height) { pixels[4 * i + 3] = UInt8.random(in: 0...255, using: &rng) }
        let bytes = try WebPEncoderTests.encode([pixels], width: width, height: height,
                                                options: WebPLossyEncoderTests.lossy(effort: 5))
        let chunk = try #require((0..<(bytes.count - 4)).first { bytes[$0..<($0 + 4)].elementsEqual("ALPH".utf8) })
        let size = Int(bytes[chunk + 4]) | Int(bytes[chunk + 5]) << 8 | Int(bytes[chunk + 6]) << 16
        #expect(bytes[chunk + 8] == 0 && size == 1 + width * height, "header \(bytes[chunk + 8]), size \(size)")
        let decoded = try WebPEncoderTests.decode(bytes)[0]
        let decodedAlpha = (0..<(width * height)).map { decoded[4 * $0 + 3] }
        let sourceAlpha = (0..<(width * height)).map { pixels[4 * $0 + 3] }
        #expect(decodedAlpha == sourceAlpha)
        if let libwebp = try WebPLossyEncoderTests.dwebp(bytes) { #expect(libwebp == decoded) }
    }
}
