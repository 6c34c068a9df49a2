import CodecCore

extension VP8LDecoder {
    /// Whether libwebp decodes this alpha stream on its 8-bit path (`Is8bOptimizable` with a
    /// lone colour-indexing transform): no colour cache and, in every prefix code group, single
    /// red, blue and alpha symbols. That path differs in one respect only: a stream that runs
    /// out on the symbol that completes the image is accepted (``decodeAlphaStream(_:)``).
    var usesEightBitAlphaPath: Bool {
        transforms.count == 1 && transforms[0].kind == .colorIndexing && image.coding.colorCacheBits == 0
            && image.coding.groups.allSatisfy { $0.isTrivialLiteral }
    }

    /// Decodes a whole ALPH image stream (final input) as libwebp's alpha decoder does: as
    /// ``decode(_:isFinal:)``, except on the 8-bit path (``usesEightBitAlphaPath``), where the
    /// symbol whose bits run past the end is decoded as libwebp's `DecodeAlphaData` decodes it
    /// (``decodeSymbolPastEnd(_:)``), and the stream is complete if that symbol completes the
    /// image.
    mutating func decodeAlphaStream(_ bytes: UnsafeBufferPointer<UInt8>) throws(DecodingError) {
        guard usesEightBitAlphaPath else { return try decode(bytes, isFinal: true) }
        // Positions are in the coded image, narrower than the output with pixel bundling.
        let total = codedWidth * height
        while image.position < total {
            let savedImage = image, savedReader = reader
            do throws(DecodingError) {
                try decodeRows(until: image.row + Self.rowsPerBatch, bytes)
                continue
            } catch where error.kind == .truncated {
                image = savedImage
                reader = savedReader
            }
            // The batch ran out: again a symbol at a time, up to the one that runs past the end.
            while true {
                let symbolImage = image, symbolReader = reader
                do throws(DecodingError) {
                    try decodePixels(until: image.position + 1, bytes)
                } catch where error.kind == .truncated {
                    image = symbolImage
                    reader = symbolReader
                    try decodeSymbolPastEnd(bytes)
                    break
                }
            }
        }
        applyTransforms(rows: finalRowCount..<height)
        finalRowCount = height
    }

    /// Decodes the symbol at the image's position, whose bits run past the end of `bytes`, with
    /// libwebp's reader (``VP8LLastWindow``) in `DecodeAlphaData`'s order: green; for a
    /// backward reference the length's extra bits, the distance symbol, a refill, the
    /// distance's extra bits. Its reader has then ended (it read past bit 64, or it would have
    /// read what this decoder's reader reads), so the image must be complete: `invalidData`
    /// otherwise, as for a reference outside the image.
    private mutating func decodeSymbolPastEnd(_ bytes: UnsafeBufferPointer<UInt8>) throws(DecodingError) {
        let consumed = 8 * reader.position + reader.zeroBitsRead - reader.count
        guard var window = VP8LLastWindow(bytes, consumedBits: consumed) else {
            throw .invalidData("ALPH compressed data ends before the image does")
        }
        let width = codedWidth, total = codedWidth * height, position = image.position
        let coding = image.coding
        let groupIndex = coding.prefixBits == 0 ? 0
            : Int(coding.prefixImage[((position / width) >> coding.prefixBits) * coding.prefixImageWidth
                                     + ((position % width) >> coding.prefixBits)])
        let group = coding.groups[groupIndex]
        var end = position
        try coding.tables.withUnsafeBufferPointer { (tables) throws(DecodingError) in
        try VP8LBackwardReference.distanceMap.withUnsafeBufferPointer { (map) throws(DecodingError) in
        try coded.withUnsafeMutableBufferPointer { (pixels) throws(DecodingError) in
            guard let tables = tables.baseAddress, let map = map.baseAddress, let pixels = pixels.baseAddress else { return }
            window.fill()
            let code = window.readSymbol(tables + group.green)
            if code < VP8LPrefixCodeGroup.literalCount {
                pixels[position] = group.literalARB | UInt32(code) << 8
                end = position + 1
                return
            }
            guard code < VP8LPrefixCodeGroup.literalCount + VP8LPrefixCodeGroup.lengthPrefixCount else {
                throw .invalidData("VP8L color cache code without a cache")
            }
            let length = window.prefixValue(code - VP8LPrefixCodeGroup.literalCount)
            let distanceSymbol = window.readSymbol(tables + group.distance)
            window.fill()
            let distanceCode = window.prefixValue(distanceSymbol)
            let distance = VP8LBackwardReference.distance(code: distanceCode, width: width, map: map)
            guard distance <= position, length <= total - position else {
                throw .invalidData("VP8L backward reference is outside the image")
            }
            for i in position..<(position + length) { pixels[i] = pixels[i - distance] }
            end = position + length
        }
        }
        }
        guard end == total else { throw .invalidData("ALPH compressed data ends before the image does") }
        image.position = end
    }
}
