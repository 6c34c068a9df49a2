import CodecCore

/// Writes one entropy-coded image (RFC 9649 section 3.7.2.2 and 5): the colour cache size,
/// for the main image the entropy image, the prefix code groups, then the tokens.
struct VP8LImageWriter {
    /// The entropy image: `bits` (the tile size is `1 << bits`), and per tile its group.
    struct EntropyImage {
        var bits: Int
        var tilesPerRow: Int
        var groupOfTile: [Int]
        var groupCount: Int
    }

    /// Writes a main image (`isMain`: the entropy image flag is written) of `tokens`, already
    /// coded with a cache of `cacheBits`, split into groups by `entropyImage` when given.
    static func write(_ tokens: [VP8LToken], width: Int, cacheBits: Int, isMain: Bool,
                      entropyImage: EntropyImage?, to writer: inout LSBBitWriter) {
        if cacheBits > 0 {
            writer.write(1, 1)
            writer.write(UInt32(cacheBits), 4)
        } else {
            writer.write(0, 1)
        }
        let groups = entropyImage.map { $0.groupCount } ?? 1
        if isMain {
            if let entropyImage, groups > 1 {
                writer.write(1, 1)
                writer.write(UInt32(entropyImage.bits - 2), 3)
                let image = entropyImage.groupOfTile.map { UInt32(truncatingIfNeeded: $0) << 8 }
                VP8LSubImageWriter.write(image, width: entropyImage.tilesPerRow, to: &writer)
            } else {
                writer.write(0, 1)
            }
        }
        let split = groups > 1 ? entropyImage : nil
        var histograms = [VP8LHistogram](repeating: VP8LHistogram(cacheBits: cacheBits), count: split == nil ? 1 : groups)
        forEachToken(tokens, width: width, entropyImage: split) { token, group in histograms[group].add(token) }
        let codes = histograms.map { Self.codes(for: $0) }
        for group in codes {
            for code in group { code.writeHeader(to: &writer) }
        }
        forEachToken(tokens, width: width, entropyImage: split) { token, group in
            writeToken(token, codes: codes[group], to: &writer)
        }
    }

    /// Calls `body` with each token and the group of the tile where it starts.
    @inline(__always)
    static func forEachToken(_ tokens: [VP8LToken], width: Int, entropyImage: EntropyImage?,
                             _ body: (VP8LToken, Int) -> Void) {
        guard let e = entropyImage else {
            for token in tokens { body(token, 0) }
            return
        }
        var x = 0, y = 0
        e.groupOfTile.withUnsafeBufferPointer { groups in
            for token in tokens {
                body(token, groups[(y >> e.bits) &* e.tilesPerRow &+ (x >> e.bits)])
                x &+= token.length
                while x >= width {
                    x &-= width
                    y &+= 1
                }
            }
        }
    }

    /// The five prefix codes of a group: green, red, blue, alpha, distance.
    static func codes(for histogram: VP8LHistogram) -> [VP8LHuffmanCode] {
        let b = histogram.bounds
        return histogram.counts.withUnsafeBufferPointer { c in
            (0..<5).map { k in
                VP8LHuffmanCode(histogram: UnsafeBufferPointer(rebasing: c[b[k]..<b[k + 1]]),
                                maxLength: VP8LPrefixCode.maxCodeLength)
            }
        }
    }

    /// Writes one token with its group's codes.
    @inline(__always)
    static func writeToken(_ token: VP8LToken, codes: [VP8LHuffmanCode], to writer: inout LSBBitWriter) {
        switch token.kind {
        case VP8LToken.Kind.literal.rawValue:
            let argb = token.value
            codes[0].write(Int((argb &>> 8) & 0xFF), to: &writer)
            codes[1].write(Int((argb &>> 16) & 0xFF), to: &writer)
            codes[2].write(Int(argb & 0xFF), to: &writer)
            codes[3].write(Int(argb &>> 24), to: &writer)
        case VP8LToken.Kind.cacheIndex.rawValue:
            codes[0].write(VP8LPrefixCodeGroup.literalCount + VP8LPrefixCodeGroup.lengthPrefixCount + Int(token.value),
                           to: &writer)
        default:
            let length = VP8LPrefixEncoding.prefix(of: token.length)
            codes[0].write(VP8LPrefixCodeGroup.literalCount + length.symbol, to: &writer)
            if length.extraBits > 0 { writer.write(UInt32(length.extra), length.extraBits) }
            let distance = VP8LPrefixEncoding.prefix(of: Int(token.value))
            codes[4].write(distance.symbol, to: &writer)
            if distance.extraBits > 0 { writer.write(UInt32(distance.extra), distance.extraBits) }
        }
    }
}

/// Writes a sub-image (a transform's data, the entropy image): LZ77 with short chains, no
/// colour cache, one prefix code group (RFC 9649 5.2.2: sub-images have no entropy image).
enum VP8LSubImageWriter {
    static func write(_ pixels: [UInt32], width: Int, to writer: inout LSBBitWriter) {
        let references = VP8LBackwardReferences(maxChainSteps: 16, minLength: 3, lazy: false)
        let tokens = pixels.withUnsafeBufferPointer { references.tokens($0, width: width) }
        VP8LImageWriter.write(tokens, width: width, cacheBits: 0, isMain: false, entropyImage: nil, to: &writer)
    }
}
