@testable import CodecCore
import Testing

/// RGB8 to RGBA8 eight pixels at a time equals the byte loop, for every count around the
/// eight-pixel steps.
struct PixelConversionWideningTests {
    @Test func widenRGBEqualsTheByteLoop() {
        var state: UInt32 = 0x1234_5678
        let rgb: [UInt8] = (0..<(3 * 100)).map { _ in
            state = state &* 1_664_525 &+ 1_013_904_223
            return UInt8(truncatingIfNeeded: state >> 24)
        }
        for count in [0, 1, 7, 8, 9, 15, 16, 17, 63, 100] {
            var fast = [UInt8](repeating: 0, count: 4 * count + 4), slow = fast
            rgb.withUnsafeBufferPointer { source in
                fast.withUnsafeMutableBufferPointer { PixelConversion.widenRGB(source.baseAddress!, $0.baseAddress!, count: count) }
                slow.withUnsafeMutableBufferPointer { PixelConversion.widenRGBBytes(source.baseAddress!, $0.baseAddress!, count: count) }
            }
            #expect(fast == slow, "count \(count)")
            #expect(fast[(4 * count)...].allSatisfy { $0 == 0 }, "count \(count): nothing written past the row")
            if count > 0 { #expect(fast[3] == 255 && fast[0] == rgb[0] && fast[4 * count - 2] == rgb[3 * count - 1]) }
        }
    }
}
