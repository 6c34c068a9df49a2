import CodecCore
import Testing
@testable import WebPCodec

/// The effort-9 search's parts: the exact bit count it ranks candidates by, the run parse and
/// the entropy image's remapping.
struct VP8LMainImageSearchTests {
    /// A pseudo-random image with runs, repeated rows and noise, `width` × `height`; the noise
    /// is wider in the lower half.
    static func pixels(width: Int, height: Int, seed: UInt32) -> [UInt32] {
        var state = seed
        var out: [UInt32] = []
        for i in 0..<(width * height) {
            state = state &* 1_664_525 &+ 1_013_904_223
            if i >= width && state >> 30 == 0 {
                out.append(out[i - width])
            } else if i > 0 && state >> 29 == 2 {
                out.append(out[i - 1])
            } else {
                let mask: UInt32 = i < width * height / 2 ? 0x0003_0303 : 0x003F_3F3F
                out.append(0xFF00_0000 | (state >> 8) & mask | UInt32(i % 7) << 4)
            }
        }
        return out
    }

    /// `bitCount` is the number of bits `write` writes, with and without an entropy image and
    /// a colour cache.
    @Test(arguments: [0, 4, 8])
    func bitCountIsWhatIsWritten(_ cacheBits: Int) {
        let (width, height) = (67, 45)
        let argb = Self.pixels(width: width, height: height, seed: UInt32(cacheBits + 1))
        var tokens = argb.withUnsafeBufferPointer {
            VP8LBackwardReferences(maxChainSteps: 32, minLength: 3, lazy: false).tokens($0, width: width)
        }
        argb.withUnsafeBufferPointer { VP8LColorCacheSelection.apply(&tokens, pixels: $0, bits: cacheBits) }
        let entropyImage = VP8LEntropyImageBuilder.build(tokens, width: width, height: height, bits: 2,
                                                         cacheBits: cacheBits, maxGroups: 8)
        for image in [nil, entropyImage] {
            var writer = LSBBitWriter()
            writer.write(5, 3)
            let start = writer.bitCount
            VP8LImageWriter.write(tokens, width: width, cacheBits: cacheBits, isMain: true, entropyImage: image,
                                  to: &writer)
            let counted = VP8LImageWriter.bitCount(tokens, width: width, cacheBits: cacheBits, isMain: true,
                                                   entropyImage: image)
            #expect(counted == writer.bitCount - start, "groups \(image?.groupCount ?? 1)")
        }
        #expect((entropyImage?.groupCount ?? 1) > 1)
    }

    /// The run parse covers every pixel once, copies only from the left (distance code 2) or
    /// the upper pixel (1), and its copies repeat what they claim to.
    @Test func runParseCopiesOnlyLeftAndUp() {
        let (width, height) = (31, 29)
        let argb = Self.pixels(width: width, height: height, seed: 9)
        let tokens = argb.withUnsafeBufferPointer {
            VP8LBackwardReferences(maxChainSteps: 0, minLength: 4, lazy: false).runTokens($0, width: width)
        }
        var position = 0
        var copies = 0
        for token in tokens {
            if token.kind == VP8LToken.Kind.copy.rawValue {
                copies += 1
                #expect(token.value == 1 || token.value == 2)
                #expect(token.length >= 4)
                let distance = token.value == 1 ? width : 1
                for k in 0..<token.length { #expect(argb[position + k] == argb[position + k - distance]) }
            } else {
                #expect(token.value == argb[position])
            }
            position += token.length
        }
        #expect(position == argb.count)
        #expect(copies > 0)
    }

    /// Remapping moves tiles to the group whose counts suit them: two kinds of tiles, started
    /// in two mixed groups (mostly one kind each), end up one kind per group, and the groups
    /// are the sums of their tiles.
    @Test func remapSeparatesTwoKindsOfTiles() {
        var tiles: [VP8LHistogram] = []
        for t in 0..<12 {
            var h = VP8LHistogram(cacheBits: 0)
            for k in 0..<40 { h.add(.literal(0xFF00_0000 | UInt32((t % 2) * 100 + k % (5 + t % 3)) << 8)) }
            tiles.append(h)
        }
        var groupOfTile = [0, 0, 0, 1, 0, 1, 0, 1, 1, 1, 1, 1]
        var groups = [VP8LHistogram](repeating: VP8LHistogram(cacheBits: 0), count: 2)
        for t in tiles.indices { groups[groupOfTile[t]].add(tiles[t]) }
        let used = tiles.map { tile in tile.counts.indices.compactMap { tile.counts[$0] > 0 ? Int32($0) : nil } }
        var passes = 0
        while passes < 4 && VP8LEntropyImageBuilder.remap(tiles, used: used, cacheBits: 0, groups: &groups,
                                                         groupOfTile: &groupOfTile) {
            passes += 1
        }
        #expect(passes > 0)
        #expect(groups.count == 2)
        for t in 2..<12 { #expect(groupOfTile[t] == groupOfTile[t % 2]) }
        #expect(groupOfTile[0] != groupOfTile[1])
        var sums = [VP8LHistogram](repeating: VP8LHistogram(cacheBits: 0), count: groups.count)
        for t in tiles.indices { sums[groupOfTile[t]].add(tiles[t]) }
        #expect(sums.map(\.counts) == groups.map(\.counts))
    }
}
