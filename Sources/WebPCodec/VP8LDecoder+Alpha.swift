import CodecCore

extension VP8LDecoder {
    /// Whether libwebp decodes this alpha stream on its 8-bit path (`Is8bOptimizable` with a
    /// lone colour-indexing transform): no colour cache and, in every prefix code group, single
    /// red, blue and alpha symbols. That path differs in one respect only: running out of bits
    /// on the symbol that completes the image is accepted.
    var usesEightBitAlphaPath: Bool {
        transforms.count == 1 && transforms[0].kind == .colorIndexing && image.coding.colorCacheBits == 0
            && image.coding.groups.allSatisfy { $0.isTrivialLiteral }
    }

    /// Decodes a whole ALPH image stream (final input) as libwebp's alpha decoder does: as
    /// ``decode(_:isFinal:)``, except that on the 8-bit path (``usesEightBitAlphaPath``) the last
    /// row is decoded a symbol at a time, so that a stream whose bits run out exactly on its last
    /// symbol (a literal, or a backward reference, which is still copied) is complete, not
    /// `truncated`. (After its end libwebp's reader re-reads its last window where this one reads
    /// zeros: a last symbol read partly past the end may decode differently; not emulated.)
    mutating func decodeAlphaStream(_ bytes: UnsafeBufferPointer<UInt8>) throws(DecodingError) {
        guard usesEightBitAlphaPath else { return try decode(bytes, isFinal: true) }
        // Positions are in the coded image, narrower than the output with pixel bundling.
        let total = codedWidth * height
        image.completesOnOverrun = true
        try decodePixels(until: (height - 1) * codedWidth, bytes)
        while image.position < total {
            do throws(DecodingError) {
                try decodePixels(until: image.position + 1, bytes)
            } catch where error.kind == .truncated && image.position >= total {
                // The bits ran out on the last symbol: libwebp's DecodeAlphaData accepts this.
            }
        }
        applyTransforms(rows: finalRowCount..<height)
        finalRowCount = height
    }
}
