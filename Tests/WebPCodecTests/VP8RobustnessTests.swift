import CodecCore
import TestSupport
import Testing
@testable import WebPCodec

/// Hostile and damaged lossy input: typed errors, never a trap, never an allocation past
/// `Limits`.
struct VP8RobustnessTests {
    /// A valid 10-byte key-frame header: profile 0, shown, first partition of `partition`
    /// bytes, `width × height`.
    static func frameTag(width: Int, height: Int, partition: Int, profile: Int = 0, shown: Bool = true,
                         keyFrame: Bool = true) -> [UInt8] {
        let tag = (keyFrame ? 0 : 1) | profile << 1 | (shown ? 1 : 0) << 4 | partition << 5
        return [UInt8(tag & 0xFF), UInt8((tag >> 8) & 0xFF), UInt8((tag >> 16) & 0xFF), 0x9D, 0x01, 0x2A,
                UInt8(width & 0xFF), UInt8(width >> 8), UInt8(height & 0xFF), UInt8(height >> 8)]
    }

    static func kind(_ bytes: [UInt8], limits: Limits = Limits()) -> DecodingError.Kind? {
        do throws(DecodingError) {
            _ = try bytes.withUnsafeBufferPointer { (p) throws(DecodingError) in
                try VP8Decoder.decode(p, chunkSize: p.count, limits: limits)
            }
            return nil
        } catch {
            return error.kind
        }
    }

    @Test func frameTagChecks() {
        let body = [UInt8](repeating: 0, count: 40)
        #expect(Self.kind(Self.frameTag(width: 16, height: 16, partition: 8, keyFrame: false) + body) == .invalidData)
        #expect(Self.kind(Self.frameTag(width: 16, height: 16, partition: 8, profile: 4) + body) == .invalidData)
        #expect(Self.kind(Self.frameTag(width: 16, height: 16, partition: 8, shown: false) + body) == .invalidData)
        #expect(Self.kind(Self.frameTag(width: 0, height: 16, partition: 8) + body) == .invalidData)
        var badCode = Self.frameTag(width: 16, height: 16, partition: 8) + body
        badCode[4] = 0x02
        #expect(Self.kind(badCode) == .invalidData)
        // A first partition as large as the chunk, or past the end of the data.
        #expect(Self.kind(Self.frameTag(width: 16, height: 16, partition: 50) + body) == .invalidData)
        #expect(Self.kind(Array(Self.frameTag(width: 16, height: 16, partition: 8).prefix(9))) == .truncated)
    }

    /// The largest frame VP8 can describe is refused by limits before anything is allocated.
    @Test func hugeDimensionsHitLimits() {
        var limits = Limits()
        limits.maxPixels = 1 << 20
        let bytes = Self.frameTag(width: 16383, height: 16383, partition: 20) + [UInt8](repeating: 0x55, count: 64)
        #expect(Self.kind(bytes, limits: limits) == .limitExceeded)
        limits = Limits()
        limits.maxBytesHeld = 1 << 20
        #expect(Self.kind(Self.frameTag(width: 1000, height: 1000, partition: 20) + [UInt8](repeating: 0x55, count: 64),
                          limits: limits) == .limitExceeded)
    }

    /// Zero and random partitions after a valid header decode to something or throw: no trap.
    @Test func garbagePartitions() {
        var rng = SplitMix64(seed: 7)
        for trial in 0..<200 {
            let w = Int.random(in: 1...70, using: &rng), h = Int.random(in: 1...70, using: &rng)
            let size = Int.random(in: 0...400, using: &rng)
            let body = (0..<size).map { _ in trial % 4 == 0 ? UInt8(0) : UInt8.random(in: 0...255, using: &rng) }
            let partition = Int.random(in: 0...max(0, size), using: &rng)
            _ = Self.kind(Self.frameTag(width: w, height: h, partition: partition) + body)
        }
    }

    /// Every lossy fixture cut short at many points, and with random bytes changed: the
    /// container or the decoder throws, or the decoder returns an image; it never traps.
    @Test func damagedFixtures() throws {
        var rng = SplitMix64(seed: 11)
        let entries = lossyEntries("fixtures-webp-lossy.tsv").prefix(12)
        #expect(entries.count == 12)
        for entry in entries {
            let bytes = try Corpus.bytes(Corpus.conformance.appendingPathComponent(entry.path))
            // Cut the VP8 payload itself (the RIFF sizes would refuse a cut file earlier).
            let range = try bytes.withUnsafeBufferPointer { (p) throws(DecodingError) in try WebPContainer.lossyBitstream(p) }
            let payload = Array(bytes[range])
            for cut in stride(from: 0, to: payload.count, by: max(1, payload.count / 40)) {
                let kind = Self.kind(Array(payload.prefix(cut)))
                // Whatever is decoded of a cut stream, the full stream decodes.
                _ = kind
            }
            #expect(Self.kind(payload) == nil, "\(entry.path)")
            for _ in 0..<40 {
                var damaged = bytes
                for _ in 0..<Int.random(in: 1...4, using: &rng) {
                    let i = Int.random(in: range, using: &rng)
                    damaged[i] = UInt8.random(in: 0...255, using: &rng)
                }
                _ = lossyHash(damaged)
            }
        }
    }
}
