import CodecCore
import Testing
@testable import WebPCodec

/// The ALPH chunk (RFC 9649 2.7.1.2) on hand-made payloads: the header byte's checks, raw data,
/// and the four unfiltering methods as libwebp's `WebPUnfilters` compute them.
struct WebPAlphaTests {
    /// The whole plane, one row at a time through ``WebPAlphaRows`` (each row unfiltered from
    /// the one handed out before it).
    static func decode(_ payload: [UInt8], width: Int, height: Int) -> Result<[UInt8], DecodingError> {
        do throws(DecodingError) {
            var rows = try WebPAlphaRows(chunk: 0..<payload.count, of: InputBuffer(payload, isFinal: true),
                                         width: width, height: height, limits: Limits())
            var plane: [UInt8] = []
            for y in 0..<height {
                try rows.decode(through: y + 1)
                plane += rows.band
            }
            return .success(plane)
        } catch {
            return .failure(error)
        }
    }

    /// Compression 2-3, pre-processing 2-3, reserved bits, no data, short raw data: the image fails.
    @Test(arguments: [[0x02, 1, 2, 3, 4], [0x20, 1, 2, 3, 4], [0x40, 1, 2, 3, 4], [0x00], [], [0x00, 1, 2, 3]] as [[UInt8]])
    func refused(_ payload: [UInt8]) {
        #expect(throws: DecodingError.self) { try Self.decode(payload, width: 2, height: 2).get() }
    }

    /// Raw data longer than the plane: the rest is ignored; pre-processing 1 changes nothing.
    @Test func rawWithPreprocessing() throws {
        #expect(try Self.decode([0x10, 9, 8, 7, 6, 5, 4], width: 2, height: 2).get() == [9, 8, 7, 6])
    }

    /// 3x3 residuals through each filter; expected planes worked out by hand from RFC 9649's
    /// predictors with libwebp's edges (first row from the left starting at 0; a row's first
    /// pixel from the one above).
    @Test func unfiltering() throws {
        let residuals: [UInt8] = [10, 1, 2, 3, 250, 4, 5, 6, 7]
        // Horizontal: row 0: 10, 11, 13; row 1: 10+3=13 (from above), 13+250=7 (mod 256), 11;
        // row 2: 13+5=18, 24, 31.
        #expect(try Self.decode([1 << 2] + residuals, width: 3, height: 3).get() == [10, 11, 13, 13, 7, 11, 18, 24, 31])
        // Vertical: row 0 as horizontal; then each from the one above.
        #expect(try Self.decode([2 << 2] + residuals, width: 3, height: 3).get() == [10, 11, 13, 13, 5, 17, 18, 11, 24])
        // Gradient: clip(left + above - aboveLeft); row 1: 10+3=13, clip(13+11-10)=14 → 14+250=8,
        // clip(8+13-11)=10 → 14; row 2: 13+5=18, clip(18+8-13)=13 → 19, clip(19+14-8)=25 → 32.
        #expect(try Self.decode([3 << 2] + residuals, width: 3, height: 3).get() == [10, 11, 13, 13, 8, 14, 18, 19, 32])
        // None.
        #expect(try Self.decode([0] + residuals, width: 3, height: 3).get() == residuals)
    }

    /// A gradient prediction below 0 or above 255 is clipped before the residual is added.
    @Test func gradientClips() throws {
        // Row 0: 200, 250 (200 + 50); row 1: 0 + 200 = 200, then clip(200 + 250 - 200) = 250, + 10 = 4.
        #expect(try Self.decode([3 << 2, 200, 50, 0, 10], width: 2, height: 2).get() == [200, 250, 200, 4])
        // Row 1: 250 + 0, then clip(250 + 0 - 250) = 0, + 5 = 5 (row 0: 250, 0 via 250 + 6).
        #expect(try Self.decode([3 << 2, 250, 6, 0, 5], width: 2, height: 2).get() == [250, 0, 250, 5])
    }

    /// The 8-bit path's colour indexing (``VP8LTransform/greenRows(_:count:expansions:into:)``, a byte
    /// table expanding bundled indices) gives the green bytes of the 32-bit path's
    /// `expandIndices`, for every bundling and widths that leave a partial last byte.
    @Test(arguments: [(0, 7), (1, 9), (2, 7), (3, 13), (3, 8), (3, 1)])
    func greenPlaneMatchesExpandIndices(bits: Int, width: Int) {
        var seed: UInt64 = 0x9649
        func next() -> UInt32 {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return UInt32(truncatingIfNeeded: seed >> 33)
        }
        let height = 5
        let inputWidth = (width + (1 << bits) - 1) >> bits
        let palette = (0..<256).map { _ in next() }
        let transform = VP8LTransform(kind: .colorIndexing, width: width, height: height, inputWidth: inputWidth,
                                      bits: bits, data: palette)
        let indices = (0..<(inputWidth * height)).map { _ in UInt8(truncatingIfNeeded: next()) }
        var expected: [UInt8] = []
        let coded = indices.map { UInt32($0) << 8 }
        var line = [UInt32](repeating: 0, count: width)
        coded.withUnsafeBufferPointer { source in
            palette.withUnsafeBufferPointer { colors in
                line.withUnsafeMutableBufferPointer { line in
                    for y in 0..<height {
                        transform.expandIndices(source: source.baseAddress! + y * inputWidth, line: line.baseAddress!,
                                                palette: colors)
                        expected += line.map { UInt8(truncatingIfNeeded: $0 >> 8) }
                    }
                }
            }
        }
        var plane = [UInt8](repeating: 0, count: width * height)
        let expansions = transform.greenExpansions()
        indices.withUnsafeBufferPointer { source in
            expansions.withUnsafeBufferPointer { table in
                plane.withUnsafeMutableBufferPointer { out in
                    transform.greenRows(source.baseAddress!, count: height, expansions: table.baseAddress!,
                                        into: out.baseAddress!)
                }
            }
        }
        #expect(plane == expected)
    }
}
