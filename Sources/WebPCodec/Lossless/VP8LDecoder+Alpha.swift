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

    /// Decodes a whole ALPH image stream (final input) as libwebp's alpha decoder does and
    /// returns its green channel, `width × height` bytes: as ``decode(_:isFinal:)``, except on
    /// the 8-bit path (``usesEightBitAlphaPath``), where the colour indices are decoded a byte
    /// each (``VP8LImageDecoder/decodeIndices(into:untilPixel:_:_:)``), the symbol whose bits
    /// run past the end is decoded as libwebp's `DecodeAlphaData` decodes it
    /// (``decodeSymbolPastEnd(_:into:)``), and the stream is complete if that symbol completes
    /// the image.
    mutating func decodeAlphaStream(_ bytes: UnsafeBufferPointer<UInt8>) throws(DecodingError) -> [UInt8] {
        guard usesEightBitAlphaPath else {
            try decode(bytes, isFinal: true)
            // Moved out, so that unfiltering it in place does not copy it.
            defer { output = [] }
            return output
        }
        // Positions are in the coded image, narrower than the output with pixel bundling.
        let total = codedWidth * height
        var indices = [UInt8](repeating: 0, count: total)
        try indices.withUnsafeMutableBufferPointer { (buffer) throws(DecodingError) in
            guard let pixels = buffer.baseAddress else { return }
            while image.position < total {
                let savedImage = image, savedReader = reader
                do throws(DecodingError) {
                    let end = min(total, (image.row + Self.rowsPerBatch) * codedWidth)
                    try image.decodeIndices(into: pixels, untilPixel: end, &reader, bytes)
                    continue
                } catch where error.kind == .truncated {
                    image = savedImage
                    reader = savedReader
                }
                // The batch ran out: again a symbol at a time, up to the one that runs past the end.
                while true {
                    let symbolImage = image, symbolReader = reader
                    do throws(DecodingError) {
                        try image.decodeIndices(into: pixels, untilPixel: image.position + 1, &reader, bytes)
                    } catch where error.kind == .truncated {
                        image = symbolImage
                        reader = symbolReader
                        try decodeSymbolPastEnd(bytes, into: pixels)
                        break
                    }
                }
            }
        }
        return transforms[0].greenPlane(indices: indices, height: height)
    }

    /// Decodes the symbol at the image's position, whose bits run past the end of `bytes`, with
    /// libwebp's reader (``VP8LLastWindow``) in `DecodeAlphaData`'s order: green; for a
    /// backward reference the length's extra bits, the distance symbol, a refill, the
    /// distance's extra bits. Its reader has then ended (it read past bit 64, or it would have
    /// read what this decoder's reader reads), so the image must be complete: `invalidData`
    /// otherwise, as for a reference outside the image.
    private mutating func decodeSymbolPastEnd(_ bytes: UnsafeBufferPointer<UInt8>,
                                              into pixels: UnsafeMutablePointer<UInt8>) throws(DecodingError) {
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
            guard let tables = tables.baseAddress, let map = map.baseAddress else { return }
            window.fill()
            let code = window.readSymbol(tables + group.green)
            if code < VP8LPrefixCodeGroup.literalCount {
                pixels[position] = UInt8(truncatingIfNeeded: code)
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
            VP8LImageDecoder.copy(pixels + position, distance: distance, length: length)
            end = position + length
        }
        }
        guard end == total else { throw .invalidData("ALPH compressed data ends before the image does") }
        image.position = end
    }
}

extension VP8LTransform {
    /// RFC 9649 4.4's inverse colour indexing for an alpha stream on the 8-bit path: each index
    /// (a byte of `indices`, `inputWidth × height`, or with bundling `8 >> bits` bits of it,
    /// lowest first) gives the green byte of its colour table entry; `width × height` bytes.
    ///
    /// With bundling, a table from each of the 256 byte values to the `1 << bits` green bytes
    /// it stands for writes a row's whole bytes 2, 4 or 8 pixels at a time.
    func greenPlane(indices: [UInt8], height: Int) -> [UInt8] {
        let perByte = 1 << bits, bitsPerIndex = 8 >> bits
        let indexMask = (1 << bitsPerIndex) - 1
        var expansions = [UInt64](repeating: 0, count: 256)
        for byte in 0..<256 {
            for k in 0..<perByte {
                let green = UInt64(data[(byte >> (k * bitsPerIndex)) & indexMask] >> 8 & 0xFF)
                expansions[byte] |= green << UInt64(8 * k)
            }
        }
        var plane = [UInt8](repeating: 0, count: width * height)
        let width = self.width, inputWidth = self.inputWidth, bits = self.bits
        let wholeBytes = width >> bits
        expansions.withUnsafeBufferPointer { expansions in
        indices.withUnsafeBufferPointer { indices in
        plane.withUnsafeMutableBufferPointer { plane in
            guard let table = expansions.baseAddress, let source = indices.baseAddress,
                  let out = plane.baseAddress else { return }
            for y in 0..<height {
                let row = source + y * inputWidth, line = UnsafeMutableRawPointer(out + y * width)
                for i in 0..<wholeBytes {
                    let pixels = table[Int(row[i])]
                    switch bits {
                    case 0: line.storeBytes(of: UInt8(truncatingIfNeeded: pixels), toByteOffset: i, as: UInt8.self)
                    case 1: line.storeBytes(of: UInt16(truncatingIfNeeded: pixels).littleEndian, toByteOffset: 2 &* i, as: UInt16.self)
                    case 2: line.storeBytes(of: UInt32(truncatingIfNeeded: pixels).littleEndian, toByteOffset: 4 &* i, as: UInt32.self)
                    default: line.storeBytes(of: pixels.littleEndian, toByteOffset: 8 &* i, as: UInt64.self)
                    }
                }
                // The last byte's first pixels, when the width is not a multiple of `perByte`.
                var pixels = wholeBytes < inputWidth ? table[Int(row[wholeBytes])] : 0
                for x in (wholeBytes << bits)..<width {
                    line.storeBytes(of: UInt8(truncatingIfNeeded: pixels), toByteOffset: x, as: UInt8.self)
                    pixels >>= 8
                }
            }
        }
        }
        }
        return plane
    }
}
