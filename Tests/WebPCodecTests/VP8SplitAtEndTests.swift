import CodecCore
import TestSupport
import Testing
@testable import WebPCodec

/// Fuzz finding 10: a VP8 file cut inside its token partition keeps the same rows, and ends
/// the same way, however its bytes arrive.
struct VP8SplitAtEndTests {
    /// What a decoder fed `payload` ends with: the error, the macroblock rows done, the final rows' pixels.
    static func outcome(_ payload: [UInt8], chunkSize: Int, pieces: [Int]) -> String {
        var decoder: VP8Decoder?
        var fed = 0
        var error: DecodingError?
        for size in pieces + [payload.count] {
            fed = min(payload.count, fed + size)
            let isFinal = fed == payload.count
            let prefix = Array(payload.prefix(fed))
            do {
                try prefix.withUnsafeBufferPointer { (p) throws(DecodingError) in
                    if decoder == nil {
                        decoder = try VP8Decoder.start(p, chunkSize: chunkSize, isFinal: isFinal, limits: Limits())
                    }
                    try decoder?.decode(p, isFinal: isFinal)
                }
            } catch let e { error = e; break }
            if isFinal { break }
        }
        guard let d = decoder else { return "not started, \(String(describing: error?.kind))" }
        let rows = Array(d.rgba().prefix(d.finalRowCount * d.width * 4))
        return "\(String(describing: error?.kind)) rows \(d.mbRow) final \(d.finalRowCount) \(rows.hashValue)"
    }

    @Test func findingKeepsTheSameRowsInEverySplit() throws {
        let file = try Corpus.bytes(Corpus.projectRoot.appendingPathComponent("Fuzz/findings/vp8-cut-partition-split-rows.webp"))
        let payload = Array(file[20...])
        let chunkSize = 262  // the chunk header's size, past the end of the file
        let whole = Self.outcome(payload, chunkSize: chunkSize, pieces: [])
        for first in 1..<payload.count {
            #expect(Self.outcome(payload, chunkSize: chunkSize, pieces: [first]) == whole, "first piece \(first)")
        }
        #expect(Self.outcome(payload, chunkSize: chunkSize, pieces: Array(repeating: 1, count: payload.count)) == whole)
    }

    /// The same for a fixture whose token partition begins with corrupt bytes and which is
    /// cut short, fed first up to each point around the partition's start.
    @Test func corruptCutFixtureKeepsTheSameRows() throws {
        let entry = try #require(lossyEntries("fixtures-webp-lossy.tsv").first { $0.path.contains("plasma-blur-q75-128x96") })
        let file = try Corpus.bytes(Corpus.conformance.appendingPathComponent(entry.path))
        let range = try file.withUnsafeBufferPointer { (p) throws(DecodingError) in try WebPContainer.lossyBitstream(p) }
        let original = Array(file[range])
        let tokens = try original.withUnsafeBufferPointer { (p) throws(DecodingError) in
            try VP8Decoder(p, chunkSize: p.count, limits: Limits()).header.partitions[0].lowerBound
        }
        var rng = SplitMix64(seed: 10)
        for _ in 0..<24 {
            var payload = Array(original.prefix(Int.random(in: (tokens + 16)..<original.count, using: &rng)))
            for i in tokens..<(tokens + Int.random(in: 1...6, using: &rng)) { payload[i] = 0xFF }
            let whole = Self.outcome(payload, chunkSize: original.count, pieces: [])
            for first in (tokens - 1)..<(tokens + 12) {
                #expect(Self.outcome(payload, chunkSize: original.count, pieces: [first]) == whole,
                        "cut \(payload.count), first piece \(first)")
            }
        }
    }
}
