import CodecCore
import TestSupport
import Testing
@testable import WebPCodec

/// Incremental VP8 decoding: the same pixels whether the payload arrives whole, in random
/// pieces or byte by byte, and rows once final never change.
struct VP8IncrementalTests {
    /// Feeds `payload` in pieces of the sizes `next` returns; checks the final rows after each
    /// call and returns the final RGBA.
    static func feed(_ payload: [UInt8], chunkSize: Int, checkRows: Bool = true, _ next: () -> Int) throws -> [UInt8] {
        var decoder: VP8Decoder?
        var fed = 0
        var finalRows: [UInt8] = []
        while true {
            fed = min(payload.count, fed + next())
            let isFinal = fed == payload.count
            let prefix = Array(payload.prefix(fed))
            try prefix.withUnsafeBufferPointer { (p) throws(DecodingError) in
                if decoder == nil {
                    decoder = try VP8Decoder.start(p, chunkSize: chunkSize, isFinal: isFinal, limits: Limits())
                }
                try decoder?.decode(p, isFinal: isFinal)
            }
            if checkRows, let d = decoder {
                let rgba = d.rgba()
                let bytes = d.finalRowCount * d.width * 4
                // Rows final before stay as they were.
                #expect(Array(rgba.prefix(finalRows.count)) == finalRows)
                #expect(bytes >= finalRows.count)
                finalRows = Array(rgba.prefix(bytes))
            }
            if isFinal { return decoder?.rgba() ?? [] }
        }
    }

    @Test func piecesGiveTheSamePixels() throws {
        var rng = SplitMix64(seed: 21)
        let entries = lossyEntries("fixtures-webp-lossy.tsv")
        #expect(entries.count >= 45)
        for (i, entry) in entries.enumerated() {
            let file = try Corpus.bytes(Corpus.conformance.appendingPathComponent(entry.path))
            let range = try file.withUnsafeBufferPointer { (p) throws(DecodingError) in try WebPContainer.lossyBitstream(p) }
            let payload = Array(file[range])
            let whole = try payload.withUnsafeBufferPointer { (p) throws(DecodingError) in
                try VP8Decoder.decode(p, chunkSize: payload.count).pixels
            }
            let random = try Self.feed(payload, chunkSize: payload.count) { Int.random(in: 1...97, using: &rng) }
            #expect(random == whole, "\(entry.path): random pieces")
            // Byte by byte on every fourth small file (debug builds are slow).
            if i % 4 == 0 && payload.count < 1500 {
                let bytewise = try Self.feed(payload, chunkSize: payload.count, checkRows: false) { 1 }
                #expect(bytewise == whole, "\(entry.path): byte by byte")
            }
        }
    }

    /// A cut stream with final input keeps the rows decoded before the cut.
    @Test func finalShortInputKeepsRows() throws {
        let entry = try #require(lossyEntries("fixtures-webp-lossy.tsv").first { $0.path.contains("plasma-blur-q75-128x96") })
        let file = try Corpus.bytes(Corpus.conformance.appendingPathComponent(entry.path))
        let range = try file.withUnsafeBufferPointer { (p) throws(DecodingError) in try WebPContainer.lossyBitstream(p) }
        let payload = Array(file[range])
        let whole = try payload.withUnsafeBufferPointer { (p) throws(DecodingError) in
            try VP8Decoder.decode(p, chunkSize: payload.count).pixels
        }
        let cut = Array(payload.prefix(payload.count * 2 / 3))
        var decoder = try cut.withUnsafeBufferPointer { (p) throws(DecodingError) in
            try VP8Decoder.start(p, chunkSize: payload.count, isFinal: true, limits: Limits())
        }
        #expect(throws: DecodingError.self) {
            try cut.withUnsafeBufferPointer { (p) throws(DecodingError) in try decoder?.decode(p, isFinal: true) }
        }
        let d = try #require(decoder)
        #expect(d.finalRowCount > 0 && d.finalRowCount < d.height)
        let rows = d.finalRowCount * d.width * 4
        #expect(Array(d.rgba().prefix(rows)) == Array(whole.prefix(rows)))
    }
}

/// Incremental decoding of corpus streams with 2, 4 and 8 token partitions (each row reads a
/// different partition, which arrive one after the other).
@Suite(.enabled(if: Corpus.root != nil, "corpus absent: set IMAGECODECS_CORPUS or place shared/corpus beside the project"))
struct VP8IncrementalCorpusTests {
    @Test func multiplePartitionsInPieces() throws {
        var rng = SplitMix64(seed: 33)
        var tested = Set<Int>()
        for entry in lossyEntries("webp.tsv") where !entry.isError {
            let file = try Corpus.bytes(Corpus.root!.appendingPathComponent(entry.path))
            let range = try file.withUnsafeBufferPointer { (p) throws(DecodingError) in try WebPContainer.lossyBitstream(p) }
            let payload = Array(file[range.lowerBound...])
            let partitions = try payload.withUnsafeBufferPointer { (p) throws(DecodingError) in
                try VP8Decoder(p, chunkSize: range.count, limits: Limits()).header.partitions.count
            }
            guard partitions > 1, payload.count < 20_000, !tested.contains(partitions) else { continue }
            tested.insert(partitions)
            let whole = try payload.withUnsafeBufferPointer { (p) throws(DecodingError) in
                try VP8Decoder.decode(p, chunkSize: range.count).pixels
            }
            let pieces = try VP8IncrementalTests.feed(payload, chunkSize: range.count, checkRows: false) {
                Int.random(in: 1...(payload.count / 16 + 1), using: &rng)
            }
            #expect(pieces == whole, "\(entry.path) (\(partitions) partitions)")
        }
        #expect(tested.isSuperset(of: [2, 4, 8]), "\(tested)")
    }
}
