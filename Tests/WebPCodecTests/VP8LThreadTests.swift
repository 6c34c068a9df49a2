import CodecCore
import ImageCodecs
import TestSupport
import Testing
@testable import WebPCodec

/// WebP lossless on two threads (issue 18): the inverse transforms of each batch of rows on a
/// pool thread (`VP8LRowPipeline`) while the caller decodes the next batches' pixels. Nothing a
/// caller can see changes with `maxThreads`: the same pixels, statuses and thumbnails at 1, 2, 3
/// and 8 threads, whole, fed in pieces and cut short, for images with every transform.
struct VP8LThreadTests {
    static let threadCounts = [1, 2, 3, 8]
    /// Large enough to be pipelined (`VP8LDecoder.minimumPipelinedPixels`).
    static let (width, height) = (600, 480)


    /// Photo-like (predictor, cross-colour, subtract-green), few colours (colour indexing with
    /// pixel bundling) and alpha, encoded by our lossless encoder.
    static let files: [(String, [UInt8])] = [WebPEncoderTests.Kind.smooth, .fewColors, .alpha].map { kind in
        let pixels = WebPEncoderTests.image(kind, width: width, height: height, seed: 7)
        return (kind.rawValue, try! WebPEncoderTests.encode([pixels], width: width, height: height,
                                                            options: WebPEncoderTests.options(effort: 2)))
    }

    @Test func wholeAndFedInPieces() {
        #expect(Self.width * Self.height >= VP8LDecoder.minimumPipelinedPixels)
        for (kind, bytes) in Self.files {
            let one = Decoding.whole(bytes, options: Decoding.options(threads: 1))
            #expect(one.status == .complete && one.frames.count == 1, "\(kind)")
            for threads in Self.threadCounts.dropFirst() {
                #expect(Decoding.whole(bytes, options: Decoding.options(threads: threads)) == one, "\(kind) at \(threads) threads")
            }
            let sizes = Decoding.randomSizes(count: 12, max: bytes.count / 4, seed: 5)
            #expect(Decoding.chunked(bytes, sizes: sizes, options: Decoding.options(threads: 2)).result == one, "\(kind) in pieces")
            #expect(Decoding.chunked(bytes, sizes: sizes, options: Decoding.options(threads: 8, eager: true)).result == one,
                    "\(kind) in pieces, decoded as they arrive")
        }
    }

    @Test func thumbnails() throws {
        for (kind, bytes) in Self.files {
            let one = try ImageSource(bytes: bytes, options: Decoding.options(threads: 1)).thumbnail(at: 0, maxPixelSize: 50)
            for threads in Self.threadCounts.dropFirst() {
                let other = try ImageSource(bytes: bytes, options: Decoding.options(threads: threads)).thumbnail(at: 0, maxPixelSize: 50)
                #expect(other.pixels == one.pixels, "\(kind) thumbnail at \(threads) threads")
            }
        }
    }

    /// Cut short: the same status and the same partial rows at every thread count.
    @Test func cutShort() {
        for (kind, bytes) in Self.files {
            for cut in stride(from: bytes.count / 4, to: bytes.count, by: bytes.count / 4) {
                let prefix = Array(bytes[0..<cut])
                let one = Decoding.whole(prefix, options: Decoding.options(threads: 1))
                #expect(one.status == .unexpectedEOF, "\(kind) cut at \(cut)")
                for threads in Self.threadCounts.dropFirst() {
                    #expect(Decoding.whole(prefix, options: Decoding.options(threads: threads)) == one, "\(kind) cut at \(cut), \(threads) threads")
                }
            }
        }
    }

    /// FuzzWebP's VP8L thread findings (Fuzz/findings/vp8l-*threads.webp): the same result at
    /// every thread count, whole and fed in pieces.
    @Test func fuzzFindings() throws {
        for name in ["vp8l-copy-past-batch-threads.webp"] {
            let bytes = try Corpus.bytes(Corpus.projectRoot.appendingPathComponent("Fuzz/findings/\(name)"))
            let one = Decoding.whole(bytes, options: Decoding.options(threads: 1))
            for threads in Self.threadCounts.dropFirst() {
                #expect(Decoding.whole(bytes, options: Decoding.options(threads: threads)) == one, "\(name) at \(threads) threads")
                let sizes = Decoding.randomSizes(count: 20, max: 2000, seed: UInt64(threads))
                #expect(Decoding.chunked(bytes, sizes: sizes, options: Decoding.options(threads: threads)).result == one,
                        "\(name) in pieces at \(threads) threads")
            }
        }
    }
}
