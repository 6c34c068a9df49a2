import CodecCore
import TestSupport
import Testing
@testable import WebPCodec

/// The same pixels whether the bitstream arrives whole, a byte at a time or in random pieces;
/// rows reported final while the input is open never change; final short input keeps them.
struct VP8LIncrementalTests {
    /// The VP8L bitstream of a fixture: from its payload to the end of the file (libwebp's reader
    /// runs to the end of the data).
    static func bitstream(_ name: String) throws -> [UInt8] {
        let file = try Corpus.bytes(Corpus.conformance.appendingPathComponent("fixtures/webp/\(name)"))
        let payload = try file.withUnsafeBufferPointer { (p) throws(DecodingError) in try WebPContainer.losslessBitstream(p) }
        return Array(file[payload.lowerBound...])
    }

    /// Feeds growing prefixes of `bytes` in pieces of `sizes` (cycled), checking after each that
    /// the rows newly reported final equal `whole`'s; returns the last output.
    static func feed(_ bytes: [UInt8], sizes: [Int], whole: [UInt8], width: Int) throws -> [UInt8] {
        var decoder: VP8LDecoder?
        var available = 0, lastStart = 0, i = 0, checkedRows = 0
        while available < bytes.count {
            available = min(bytes.count, available + max(1, sizes[i % sizes.count]))
            i += 1
            let isFinal = available == bytes.count
            try bytes[0..<available].withUnsafeBufferPointer { (p) throws(DecodingError) in
                // The header and codes are retried only when the input has doubled (linear work).
                if decoder == nil && (isFinal || available >= 2 * lastStart) {
                    lastStart = available
                    decoder = try VP8LDecoder.start(p, isFinal: isFinal, limits: Limits())
                }
                try decoder?.decode(p, isFinal: isFinal)
            }
            if let d = decoder, d.finalRowCount > checkedRows {
                let range = (checkedRows * width * 4)..<(d.finalRowCount * width * 4)
                #expect(d.rgba()[range] == whole[range], "rows \(checkedRows)..<\(d.finalRowCount) at \(available) bytes")
                checkedRows = d.finalRowCount
            }
        }
        return decoder?.rgba() ?? []
    }

    /// Every lossless fixture.
    static let fixtureNames = losslessEntries("fixtures-webp.tsv").map { String($0.path.split(separator: "/").last ?? "") }

    @Test(arguments: fixtureNames)
    func sameImageHoweverSplit(name: String) throws {
        let bytes = try Self.bitstream(name)
        let whole = try bytes.withUnsafeBufferPointer { (p) throws(DecodingError) in try VP8LDecoder.decode(p) }
        var splits: [[Int]] = [[37], Decoding.randomSizes(count: 16, max: 300, seed: 5), [bytes.count / 3 + 1]]
        if bytes.count <= 4_000 { splits.append([1]) }
        for sizes in splits {
            let fed = try Self.feed(bytes, sizes: sizes, whole: whole.pixels, width: whole.width)
            #expect(fed == whole.pixels, "\(name) in pieces of \(sizes.prefix(3))")
        }
    }

    /// Final input cut short: `truncated`, and the rows reported final equal the whole image's.
    @Test func truncatedFinalInputKeepsFinalRows() throws {
        let bytes = try Self.bitstream("plasma-blur-z9-128x96.webp")
        let whole = try bytes.withUnsafeBufferPointer { (p) throws(DecodingError) in try VP8LDecoder.decode(p) }
        let cut = Array(bytes[0..<(bytes.count * 2 / 3)])
        var decoder = try #require(try cut.withUnsafeBufferPointer { (p) throws(DecodingError) in
            try VP8LDecoder.start(p, isFinal: true, limits: Limits())
        })
        #expect(throws: DecodingError.self) {
            try cut.withUnsafeBufferPointer { (p) throws(DecodingError) in try decoder.decode(p, isFinal: true) }
        }
        #expect(decoder.finalRowCount > 16 && decoder.finalRowCount < whole.height)
        let n = decoder.finalRowCount * whole.width * 4
        #expect(decoder.rgba()[0..<n] == whole.pixels[0..<n])
        #expect(decoder.rgba()[n...].allSatisfy { $0 == 0 })
    }

    /// While the input is open, a header cut anywhere asks for more bytes instead of failing.
    @Test func openInputWaitsForTheHeader() throws {
        let bytes = try Self.bitstream("pal16-z6-37x23.webp")
        for cut in 0..<min(bytes.count, 120) {
            let started = try bytes[0..<cut].withUnsafeBufferPointer { (p) throws(DecodingError) in
                try VP8LDecoder.start(p, isFinal: false, limits: Limits())
            }
            if let started { #expect(started.reader.zeroBitsRead == 0, "cut \(cut)") }
        }
    }
}

/// The corpus' VP8L stills fed in random pieces give dwebp's pixels too.
@Suite(.enabled(if: Corpus.root != nil, "corpus absent: set IMAGECODECS_CORPUS or place shared/corpus beside the project"))
struct VP8LIncrementalCorpusTests {
    static let entries = losslessEntries("webp.tsv")

    @Test(arguments: entries)
    func sameImageInPieces(_ entry: ManifestEntry) throws {
        let file = try Corpus.bytes(Corpus.root!.appendingPathComponent(entry.path))
        let payload = try file.withUnsafeBufferPointer { (p) throws(DecodingError) in try WebPContainer.losslessBitstream(p) }
        let bytes = Array(file[payload.lowerBound...])
        let whole = try bytes.withUnsafeBufferPointer { (p) throws(DecodingError) in try VP8LDecoder.decode(p) }
        var splits = [Decoding.randomSizes(count: 16, max: max(2, bytes.count / 20), seed: 11)]
        if bytes.count <= 2_000 { splits.append([1]) }
        for sizes in splits {
            let fed = try VP8LIncrementalTests.feed(bytes, sizes: sizes, whole: whole.pixels, width: whole.width)
            #expect(fed == whole.pixels, "\(entry.path) in pieces of \(sizes.prefix(3))")
        }
    }
}
