import CodecCore

extension VP8LDecoder {
    /// Whether libwebp decodes this alpha stream on its 8-bit path (`Is8bOptimizable` with a
    /// lone colour-indexing transform): no colour cache and, in every prefix code group, single
    /// red, blue and alpha symbols. That path keeps a byte per pixel (the colour index), and a
    /// stream that runs out on the symbol that completes the image is accepted
    /// (``decodeAlphaStream(_:)``).
    var usesEightBitAlphaPath: Bool {
        transforms.count == 1 && transforms[0].kind == .colorIndexing && image.coding.colorCacheBits == 0
            && image.coding.groups.allSatisfy { $0.isTrivialLiteral }
    }

    /// Decodes an ALPH image stream (all of its bytes, final) until at least `row` rows of its
    /// green channel are final and appended to ``green``, as libwebp's alpha decoder does:
    /// as ``decode(_:isFinal:untilRow:)``, except on the 8-bit path (``usesEightBitAlphaPath``),
    /// where the colour indices are decoded a byte each into ``indices``
    /// (``VP8LImageDecoder/decodeIndices(into:origin:untilPixel:_:_:)``), the symbol whose bits
    /// run past the end is decoded as libwebp's `DecodeAlphaData` decodes it
    /// (``decodeSymbolPastEnd(_:)``), and the stream is complete if that symbol completes the
    /// image.
    mutating func decodeAlpha(untilRow row: Int, _ bytes: UnsafeBufferPointer<UInt8>) throws(DecodingError) {
        guard usesEightBitAlphaPath else {
            try decode(bytes, isFinal: true, untilRow: row)
            return
        }
        // Positions are in the coded image, narrower than the output with pixel bundling.
        let total = codedWidth * height, end = min(total, min(row, height) * codedWidth)
        while image.position < end {
            let stop = indices.makeRoom(from: image.position,
                                        upTo: min(total, (image.row + Self.rowsPerBatch) * codedWidth))
            try decodeIndexBatch(until: stop, bytes)
            expandFinalIndexRows()
        }
    }

    /// Decodes colour indices up to position `stop` (room for it made in ``indices``); when the
    /// bits run out, again a symbol at a time, up to the one that runs past the end.
    private mutating func decodeIndexBatch(until stop: Int, _ bytes: UnsafeBufferPointer<UInt8>) throws(DecodingError) {
        let origin = indices.origin
        let savedImage = image, savedReader = reader
        do throws(DecodingError) {
            try indices.withUnsafeMutablePixels { (window) throws(DecodingError) in
                try image.decodeIndices(into: window, origin: origin, untilPixel: stop, &reader, bytes)
            }
            return
        } catch where error.kind == .truncated {
            image = savedImage
            reader = savedReader
        }
        while image.position < codedWidth * height {
            let symbolImage = image, symbolReader = reader
            do throws(DecodingError) {
                try indices.withUnsafeMutablePixels { (window) throws(DecodingError) in
                    try image.decodeIndices(into: window, origin: origin, untilPixel: image.position + 1, &reader, bytes)
                }
            } catch where error.kind == .truncated {
                image = symbolImage
                reader = symbolReader
                try decodeSymbolPastEnd(bytes)
                return
            }
        }
    }

    /// Expands the coded rows completed since the last call into green bytes appended to
    /// ``green`` (RFC 9649 4.4's inverse colour indexing, ``VP8LTransform/greenRows(_:count:expansions:into:)``).
    private mutating func expandFinalIndexRows() {
        let total = codedWidth * height
        let complete = image.position >= total ? height : image.position / codedWidth
        let first = finalRowCount, count = complete - first
        guard count > 0 else { return }
        let width = header.width, start = output.green.count
        output.green.append(contentsOf: repeatElement(0, count: count * width))
        let offset = first * codedWidth - indices.origin
        let transform = transforms[0]
        greenExpansions.withUnsafeBufferPointer { table in
        indices.pixels.withUnsafeBufferPointer { coded in
        output.green.withUnsafeMutableBufferPointer { out in
            guard let table = table.baseAddress, let coded = coded.baseAddress,
                  let out = out.baseAddress else { return }
            transform.greenRows(coded + offset, count: count, expansions: table, into: out + start)
        }
        }
        }
        finalRowCount = complete
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
        let origin = indices.origin
        try indices.withUnsafeMutablePixels { (plane) throws(DecodingError) in
        try coding.tables.withUnsafeBufferPointer { (tables) throws(DecodingError) in
        try VP8LBackwardReference.distanceMap.withUnsafeBufferPointer { (map) throws(DecodingError) in
            guard let tables = tables.baseAddress, let map = map.baseAddress else { return }
            let at = plane + (position - origin)
            window.fill()
            let code = window.readSymbol(tables + group.green)
            if code < VP8LPrefixCodeGroup.literalCount {
                at[0] = UInt8(truncatingIfNeeded: code)
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
            guard distance <= position - origin, length <= total - position else {
                throw .invalidData("VP8L backward reference is outside the image")
            }
            VP8LBackwardReference.copy(at, distance: distance, length: length)
            end = position + length
        }
        }
        }
        guard end == total else { throw .invalidData("ALPH compressed data ends before the image does") }
        image.position = end
    }
}

extension VP8LTransform {
    /// What each byte of colour indices expands to on the 8-bit alpha path: the green bytes of
    /// the `1 << bits` colour table entries it indexes (`8 >> bits` bits each, lowest first),
    /// packed from the lowest byte up.
    func greenExpansions() -> [UInt64] {
        let perByte = 1 << bits, bitsPerIndex = 8 >> bits
        let indexMask = (1 << bitsPerIndex) - 1
        var expansions = [UInt64](repeating: 0, count: 256)
        for byte in 0..<256 {
            for k in 0..<perByte {
                let green = UInt64(data[(byte >> (k * bitsPerIndex)) & indexMask] >> 8 & 0xFF)
                expansions[byte] |= green << UInt64(8 * k)
            }
        }
        return expansions
    }

    /// RFC 9649 4.4's inverse colour indexing for an alpha stream on the 8-bit path: `count`
    /// rows of indices (`inputWidth` bytes each, from `indices`) to as many rows of green bytes
    /// (`width` each, to `out`), a byte of indices — 1, 2, 4 or 8 pixels with bundling — at a
    /// time through `expansions` (``greenExpansions()``).
    func greenRows(_ indices: UnsafePointer<UInt8>, count: Int, expansions table: UnsafePointer<UInt64>,
                   into out: UnsafeMutablePointer<UInt8>) {
        let width = self.width, inputWidth = self.inputWidth, bits = self.bits
        let wholeBytes = width >> bits
        for y in 0..<count {
            let row = indices + y * inputWidth, line = UnsafeMutableRawPointer(out + y * width)
            for i in 0..<wholeBytes {
                let pixels = table[Int(row[i])]
                switch bits {
                case 0: line.storeBytes(of: UInt8(truncatingIfNeeded: pixels), toByteOffset: i, as: UInt8.self)
                case 1: line.storeBytes(of: UInt16(truncatingIfNeeded: pixels).littleEndian, toByteOffset: 2 &* i, as: UInt16.self)
                case 2: line.storeBytes(of: UInt32(truncatingIfNeeded: pixels).littleEndian, toByteOffset: 4 &* i, as: UInt32.self)
                default: line.storeBytes(of: pixels.littleEndian, toByteOffset: 8 &* i, as: UInt64.self)
                }
            }
            // The last byte's first pixels, when the width is not a multiple of `1 << bits`.
            var pixels = wholeBytes < inputWidth ? table[Int(row[wholeBytes])] : 0
            for x in (wholeBytes << bits)..<width {
                line.storeBytes(of: UInt8(truncatingIfNeeded: pixels), toByteOffset: x, as: UInt8.self)
                pixels >>= 8
            }
        }
    }
}
