#if arch(x86_64)
import Testing
@testable import WebPCodec

/// The SSE2 inverse transforms equal their scalar twins (RFC 9649 4.1 and 4.2) on random rows:
/// every predictor mode over runs of every length up to 12 at different places in the row (so
/// that both the 4-pixel steps and the tails run), and the colour transform with random
/// multipliers, the extremes included.
struct VP8LTransformSSE2Tests {
    static let width = 23

    @Test func predictorRunsEqualScalar() {
        var rows = VP8LTransformTests.randomPixels(2 * Self.width * 200, seed: 11)
        rows.withUnsafeMutableBufferPointer { pixels in
            for trial in 0..<200 {
                let base = pixels.baseAddress! + trial * 2 * Self.width
                let line = base + Self.width
                let original = Array(UnsafeBufferPointer(start: base, count: 2 * Self.width))
                for mode in 0..<16 {
                    for start in [1, 2, 5] {
                        for end in (start + 1)...min(Self.width, start + 12) {
                            var expected = original
                            expected.withUnsafeMutableBufferPointer { scalar in
                                VP8LTransform.addRunScalar(mode: mode, scalar.baseAddress! + Self.width,
                                                           from: start, to: end, width: Self.width)
                            }
                            base.update(from: original, count: original.count)
                            VP8LTransformSSE2.addRun(mode: mode, line, from: start, to: end, width: Self.width)
                            let got = Array(UnsafeBufferPointer(start: base, count: 2 * Self.width))
                            #expect(got == expected, "mode \(mode), \(start)..<\(end)")
                        }
                    }
                }
                // The last column's TR is the row's own first pixel.
                var expected = original
                expected.withUnsafeMutableBufferPointer { scalar in
                    VP8LTransform.addRunScalar(mode: 3, scalar.baseAddress! + Self.width, from: 1, to: Self.width, width: Self.width)
                }
                base.update(from: original, count: original.count)
                VP8LTransformSSE2.addRun(mode: 3, line, from: 1, to: Self.width, width: Self.width)
                #expect(Array(UnsafeBufferPointer(start: base, count: 2 * Self.width)) == expected)
            }
        }
    }

    @Test func inverseCrossColorEqualsScalar() {
        let pixels = VP8LTransformTests.randomPixels(Self.width * 500, seed: 12)
        let elements = VP8LTransformTests.randomPixels(500, seed: 13)
        for trial in 0..<500 {
            let row = Array(pixels[trial * Self.width..<(trial + 1) * Self.width])
            var expected = row, got = row
            for start in [0, 3] {
                expected.withUnsafeMutableBufferPointer {
                    VP8LTransform.inverseCrossColor($0.baseAddress!, from: start, to: Self.width - start, element: elements[trial])
                }
                got.withUnsafeMutableBufferPointer {
                    VP8LTransformSSE2.inverseCrossColor($0.baseAddress!, from: start, to: Self.width - start, element: elements[trial])
                }
            }
            #expect(got == expected, "element \(String(elements[trial], radix: 16))")
        }
    }
}
#endif
