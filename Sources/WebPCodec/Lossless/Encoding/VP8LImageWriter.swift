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
        let split = writeHeaders(tokens, width: width, cacheBits: cacheBits, isMain: isMain, entropyImage: entropyImage,
                                 to: &writer)
        let table = CodeTable(split.codes)
        let b = table.bounds
        let starts = (b[0], b[1], b[2], b[3], b[4])
        table.bitLengths.withUnsafeBufferPointer { lengths in
            table.codes.withUnsafeBufferPointer { codes in
                forEachToken(tokens, width: width, entropyImage: split.entropyImage) { token, group in
                    writeToken(token, offset: group &* table.stride, starts: starts, lengths: lengths,
                               codes: codes, to: &writer)
                }
            }
        }
    }

    /// The bits ``write(_:width:cacheBits:isMain:entropyImage:to:)`` would write, found from the
    /// symbol counts and the codes' lengths without writing the tokens.
    static func bitCount(_ tokens: [VP8LToken], width: Int, cacheBits: Int, isMain: Bool,
                         entropyImage: EntropyImage?) -> Int {
        var scratch = LSBBitWriter()
        let split = writeHeaders(tokens, width: width, cacheBits: cacheBits, isMain: isMain, entropyImage: entropyImage,
                                 to: &scratch)
        var total = scratch.bitCount
        for (histogram, codes) in zip(split.histograms, split.codes) {
            total += histogram.extraBits
            let b = histogram.bounds
            for k in 0..<5 {
                for symbol in b[k]..<b[k + 1] where histogram.counts[symbol] > 0 {
                    total += Int(histogram.counts[symbol]) * Int(codes[k].bitLengths[symbol - b[k]])
                }
            }
        }
        return total
    }

    /// Writes the colour cache size, the entropy image (main images) and the prefix codes;
    /// returns the entropy image used (nil for one group), each group's counts and its codes.
    private static func writeHeaders(_ tokens: [VP8LToken], width: Int, cacheBits: Int, isMain: Bool,
                                     entropyImage: EntropyImage?, to writer: inout LSBBitWriter)
        -> (entropyImage: EntropyImage?, histograms: [VP8LHistogram], codes: [[VP8LHuffmanCode]]) {
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
        return (split, histograms, codes)
    }

    /// Every group's codes in two flat arrays (bit lengths and bit-reversed codes), a group
    /// every `stride` entries, its five alphabets starting at `bounds`: no reference counting per
    /// token.
    struct CodeTable {
        var stride: Int
        var bounds: [Int]
        var bitLengths: [UInt8]
        var codes: [UInt16]

        init(_ groups: [[VP8LHuffmanCode]]) {
            let sizes = groups.first.map { $0.map { $0.codes.count } } ?? []
            bounds = [0]
            for size in sizes { bounds.append(bounds[bounds.count - 1] + size) }
            stride = bounds[bounds.count - 1]
            bitLengths = []
            codes = []
            bitLengths.reserveCapacity(stride * groups.count)
            codes.reserveCapacity(stride * groups.count)
            for group in groups {
                for code in group {
                    bitLengths += code.bitLengths
                    codes += code.codes
                }
            }
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

    /// Writes one token with the codes of the group at `offset` in a ``CodeTable``.
    @inline(__always)
    static func writeToken(_ token: VP8LToken, offset: Int, starts: (Int, Int, Int, Int, Int),
                           lengths: UnsafeBufferPointer<UInt8>, codes: UnsafeBufferPointer<UInt16>,
                           to writer: inout LSBBitWriter) {
        @inline(__always) func put(_ start: Int, _ symbol: Int) {
            let i = offset &+ start &+ symbol
            writer.write(UInt32(codes[i]), Int(lengths[i]))
        }
        switch token.kind {
        case VP8LToken.Kind.literal.rawValue:
            let argb = token.value
            put(starts.0, Int((argb &>> 8) & 0xFF))
            put(starts.1, Int((argb &>> 16) & 0xFF))
            put(starts.2, Int(argb & 0xFF))
            put(starts.3, Int(argb &>> 24))
        case VP8LToken.Kind.cacheIndex.rawValue:
            put(starts.0, VP8LPrefixCodeGroup.literalCount + VP8LPrefixCodeGroup.lengthPrefixCount + Int(token.value))
        default:
            let length = VP8LPrefixEncoding.prefix(of: token.length)
            put(starts.0, VP8LPrefixCodeGroup.literalCount + length.symbol)
            if length.extraBits > 0 { writer.write(UInt32(length.extra), length.extraBits) }
            let distance = VP8LPrefixEncoding.prefix(of: Int(token.value))
            put(starts.4, distance.symbol)
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
