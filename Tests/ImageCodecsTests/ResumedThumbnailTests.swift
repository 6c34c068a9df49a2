import ImageCodecs
import TestSupport
import Testing

/// A thumbnail asked for after every append of a download resumes the decoding the previous
/// request began, and ends equal to the thumbnail of the whole file.
struct ResumedThumbnailTests {
    /// The streaming thumbnail paths: PNG (plain and Adam7), baseline, restart-interval and
    /// progressive JPEG, lossy WebP with alpha.
    static let files = [
        "png/rgba8-64x64.png", "png/rgba8-64x64-i.png", "jpeg/kodim03-q90-420-256x192.jpg",
        "jpeg/kodim05-q80-422-rst1row-200x136.jpg", "jpeg/kodim03-q90-420-prog-256x192.jpg",
        "webp-lossy/alpha-blobs-q60-afbest-37x29.webp",
    ]

    @Test(arguments: files)
    func thumbnailAfterEveryAppendEndsAsTheWholeFiles(_ name: String) throws {
        let bytes = try Corpus.bytes(Corpus.conformance.appendingPathComponent("fixtures/\(name)"))
        let whole = try ImageSource(bytes: bytes).thumbnail(at: 0, maxPixelSize: 16, applyOrientation: false)
        let source = ImageSource(incremental: .init())
        var offset = 0
        var partials = 0
        for size in Decoding.randomSizes(count: 1 << 20, max: max(2, bytes.count / 8), seed: 7) {
            let end = min(bytes.count, offset + size)
            source.append(bytes[offset..<end], final: end == bytes.count)
            offset = end
            if source.count > 0, let thumbnail = try? source.thumbnail(at: 0, maxPixelSize: 16, applyOrientation: false) {
                #expect(thumbnail.width == whole.width && thumbnail.height == whole.height)
                let rows = thumbnail.finalRowCount * thumbnail.bytesPerRow
                #expect(thumbnail.pixels[0..<rows] == whole.pixels[0..<rows], "final rows of a partial thumbnail")
                partials += 1
            }
            if offset == bytes.count { break }
        }
        #expect(partials > 1)
        #expect(try source.thumbnail(at: 0, maxPixelSize: 16, applyOrientation: false) == whole)
    }
}
