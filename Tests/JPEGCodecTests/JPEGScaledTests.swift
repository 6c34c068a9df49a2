@testable import CodecCore
import ImageCodecs
@testable import JPEGCodec
import TestSupport
import Testing

/// libjpeg's reduced scales (1/2, 1/4, 1/8: the scaled inverse DCTs, the larger transforms it
/// gives subsampled components, and its upsampling at those scales) against `djpeg -scale`
/// (fixtures-jpeg-scaled.tsv), decoded as thumbnails decode: buffered files keep only the
/// coefficients the scaled transforms read. Where that subset is used, block smoothing is not
/// (it reads whole neighbouring blocks), so the few progressive fixtures whose scans leave
/// coefficients incomplete are compared only at the scales that keep whole blocks.
struct JPEGScaledTests {
    struct Row: Sendable, CustomStringConvertible {
        let path: String, scaledSize: Int, expected: String, smoothed: Bool
        var description: String { "\(path) \(scaledSize)/8" }
    }

    static let rows: [Row] = Manifest.rows("fixtures-jpeg-scaled.tsv").compactMap { cols in
        guard cols.count >= 6, cols[0] != "path", let denominator = Int(cols[1].dropFirst(2)) else { return nil }
        return Row(path: cols[0], scaledSize: 8 / denominator, expected: "\(cols[2]) \(cols[3])",
                   smoothed: cols[5].contains("block smoothing"))
    }

    @Test func manifestIsLoaded() {
        #expect(Self.rows.count >= 250)
    }

    @Test(arguments: rows)
    func matchesDjpegScale(_ row: Row) throws {
        let bytes = try Corpus.bytes(Corpus.conformance.appendingPathComponent(row.path))
        let decoder = JPEGDecoder(options: DecodingOptions())
        let input = InputBuffer(bytes, isFinal: true)
        try decoder.advance(input)
        let image = try decoder.format.scaledImage(scaledSize: row.scaledSize, input: input)
        let usesSubset = decoder.format.container.frame.map { frame in
            JPEGOutputGeometry(frame: frame, scaledSize: row.scaledSize).idctSizes.contains { $0 <= 2 }
        } ?? false
        if row.smoothed && usesSubset { return }
        #expect("\(image.width)x\(image.height) \(CanonicalHash.hex(image))" == row.expected, "\(row)")
    }

    /// A thumbnail of a progressive and a baseline fixture equals the box-filtered scaled image:
    /// the rows stream into the resampler as they are rendered.
    @Test(arguments: ["fixtures/jpeg/kodim03-q90-420-prog-256x192.jpg", "fixtures/jpeg/kodim23-q85-420-64x64.jpg"])
    func thumbnailIsTheScaledImageShrunk(_ path: String) throws {
        let bytes = try Corpus.bytes(Corpus.conformance.appendingPathComponent(path))
        let source = ImageSource(bytes: bytes)
        let thumbnail = try source.thumbnail(maxPixelSize: 6, applyOrientation: false)
        let decoder = JPEGDecoder(options: DecodingOptions())
        let input = InputBuffer(bytes, isFinal: true)
        try decoder.advance(input)
        let scaled = try decoder.format.scaledImage(scaledSize: 1, input: input)
        let expected = StreamingResampler.resample(scaled.rgba8Raster(), toWidth: thumbnail.width, height: thumbnail.height)
        #expect(thumbnail.isComplete && thumbnail.rgba8Raster().pixels == expected.pixels)
    }
}
