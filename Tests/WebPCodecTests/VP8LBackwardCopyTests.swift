import Testing
@testable import WebPCodec

/// ``VP8LBackwardReference/copy(_:distance:length:)`` against RFC 9649 5.2.2's definition
/// written out here (each pixel is the one `distance` before it, in order), for every distance
/// and length up to 70 (overlapping and not, short runs and doubling blocks), on bytes and on
/// ARGB words, with the pixels after the run left alone.
struct VP8LBackwardCopyTests {
    static func check<Pixel: FixedWidthInteger>(_: Pixel.Type) {
        var state: UInt64 = 5
        /// A 64-bit linear congruential step (Knuth's MMIX constants), its high bits.
        func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state >> 29
        }
        for distance in 1...70 {
            for length in 1...70 {
                let history = (0..<distance + 8).map { _ in Pixel(truncatingIfNeeded: next()) }
                var want = history + [Pixel](repeating: 0, count: length + 4)
                for i in history.count..<history.count + length { want[i] = want[i - distance] }
                var got = history + [Pixel](repeating: 0, count: length + 4)
                got.withUnsafeMutableBufferPointer { VP8LBackwardReference.copy($0.baseAddress! + history.count, distance: distance, length: length) }
                #expect(got == want, "distance \(distance), length \(length)")
            }
        }
    }

    @Test func bytesFollowTheDefinition() { Self.check(UInt8.self) }
    @Test func wordsFollowTheDefinition() { Self.check(UInt32.self) }
}
