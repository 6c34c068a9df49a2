import CodecCore

/// How the pixels of one entropy-coded image are coded (RFC 9649 section 3.7.2.2): the colour
/// cache size and, for the main ARGB image only, the meta prefix codes (the entropy image that
/// picks a prefix code group for each block), then the groups' prefix codes.
struct VP8LEntropyCoding {
    /// 0 when the image has no colour cache.
    var colorCacheBits = 0
    /// `prefix_bits` of the entropy image; 0 when the whole image uses group 0.
    var prefixBits = 0
    /// The entropy image's width in blocks.
    var prefixImageWidth = 0
    /// Per block, the index into `groups` (groups no block uses are not kept, and the rest are
    /// renumbered in order).
    var prefixImage: [UInt32] = []
    var groups: [VP8LPrefixCodeGroup] = []
    /// Every prefix code table of every group.
    var tables: [UInt32] = []

    /// `DIV_ROUND_UP(size, 1 << bits)`.
    static func subsampledSize(_ size: Int, bits: Int) -> Int {
        (size + (1 << bits) - 1) >> bits
    }

    /// Reads the coding of a `width × height` image. Only the main image (`isMainImage`) may
    /// have meta prefix codes.
    static func read(width: Int, height: Int, isMainImage: Bool, _ reader: inout LSBBitReader,
                     _ buffer: UnsafeBufferPointer<UInt8>, budget: inout VP8LBudget) throws(DecodingError) -> VP8LEntropyCoding {
        var coding = VP8LEntropyCoding()
        reader.refill(buffer)
        if reader.read(1, buffer) == 1 {
            let bits = Int(reader.read(4, buffer))
            try reader.checkNotOverrun()
            guard bits >= 1 && bits <= VP8LColorCache.maxBits else { throw .invalidData("VP8L color cache bits are not 1 to 11") }
            coding.colorCacheBits = bits
        }
        var groupCount = 1
        if isMainImage && reader.read(1, buffer) == 1 {
            coding.prefixBits = Int(reader.read(3, buffer)) + 2
            coding.prefixImageWidth = subsampledSize(width, bits: coding.prefixBits)
            let blockRows = subsampledSize(height, bits: coding.prefixBits)
            coding.prefixImage = try VP8LImageDecoder.decodeSubImage(width: coding.prefixImageWidth, height: blockRows,
                                                                     &reader, buffer, budget: &budget)
            // RFC 9649 3.7.2.2: the group is the red and green bytes of the entropy image.
            for pixel in coding.prefixImage { groupCount = max(groupCount, Int((pixel >> 8) & 0xFFFF) + 1) }
        }
        // Groups no block names are read (the bitstream holds them) but not kept.
        var newIndex = [Int32](repeating: -1, count: groupCount)
        if coding.prefixImage.isEmpty {
            newIndex[0] = 0
        } else {
            for pixel in coding.prefixImage { newIndex[Int((pixel >> 8) & 0xFFFF)] = 0 }
            var next: Int32 = 0
            for i in 0..<groupCount where newIndex[i] == 0 {
                newIndex[i] = next
                next += 1
            }
            for i in coding.prefixImage.indices {
                coding.prefixImage[i] = UInt32(newIndex[Int((coding.prefixImage[i] >> 8) & 0xFFFF)])
            }
        }
        var lengths = [UInt8](repeating: 0, count: VP8LPrefixCodeGroup.greenAlphabetSize(colorCacheBits: coding.colorCacheBits))
        var scratch: [UInt32] = []
        for i in 0..<groupCount {
            if newIndex[i] < 0 {
                scratch.removeAll(keepingCapacity: true)
                _ = try VP8LPrefixCodeGroup.read(colorCacheBits: coding.colorCacheBits, &reader, buffer,
                                                 lengths: &lengths, to: &scratch)
            } else {
                let before = coding.tables.count
                coding.groups.append(try VP8LPrefixCodeGroup.read(colorCacheBits: coding.colorCacheBits, &reader, buffer,
                                                                  lengths: &lengths, to: &coding.tables))
                let added = (coding.tables.count - before) * MemoryLayout<UInt32>.stride
                try budget.take(added)
            }
        }
        return coding
    }
}

/// What a decode may still allocate: Limits.maxBytesHeld less what is held.
struct VP8LBudget {
    var remaining: Int

    mutating func take(_ bytes: Int) throws(DecodingError) {
        guard bytes <= remaining else { throw .limitExceeded("VP8L buffers exceed Limits.maxBytesHeld") }
        remaining -= bytes
    }
}
