import CodecCore

extension VP8LImageDecoder {
    /// libwebp's 8-bit alpha path (`DecodeAlphaData`): decodes pixels as
    /// ``decode(into:origin:untilPixel:_:_:)`` does (into `pixels`, which holds the image from
    /// position `origin` on), for an image without a colour cache whose prefix
    /// code groups all have single red, blue and alpha symbols, keeping only each pixel's green
    /// value (a colour index) in one byte. Throws `truncated` when the bits ran out (zeros past
    /// the end were used), `invalidData` for a reference outside the image or a cache code.
    ///
    /// The documented hot loop: the reader and position live in locals, tables are read through
    /// pointers, and nothing is allocated.
    mutating func decodeIndices(into pixels: UnsafeMutablePointer<UInt8>, origin: Int, untilPixel: Int,
                                _ reader: inout LSBBitReader,
                                _ buffer: UnsafeBufferPointer<UInt8>) throws(DecodingError) {
        let width = self.width
        let total = width * height
        let end = min(untilPixel, total)
        var br = reader
        var pos = position
        var col = pos % width, row = pos / width
        defer {
            reader = br
            position = pos
        }
        let prefixBits = coding.prefixBits
        let mask = prefixBits == 0 ? -1 : (1 << prefixBits) - 1
        let prefixWidth = coding.prefixImageWidth
        let greenLimit = VP8LPrefixCodeGroup.literalCount + VP8LPrefixCodeGroup.lengthPrefixCount

        try coding.tables.withUnsafeBufferPointer { (tablesBuffer) throws(DecodingError) in
        try coding.groups.withUnsafeBufferPointer { (groupsBuffer) throws(DecodingError) in
        try coding.prefixImage.withUnsafeBufferPointer { (prefixBuffer) throws(DecodingError) in
        try VP8LBackwardReference.distanceMap.withUnsafeBufferPointer { (mapBuffer) throws(DecodingError) in
            guard let tables = tablesBuffer.baseAddress, let groups = groupsBuffer.baseAddress,
                  let map = mapBuffer.baseAddress else { throw .invalidData("VP8L image has no prefix codes") }
            let prefixImage = prefixBits > 0 ? prefixBuffer.baseAddress : nil

            @inline(__always) func groupIndex(_ col: Int, _ row: Int) -> Int {
                guard let prefixImage else { return 0 }
                return Int(prefixImage[(row >> prefixBits) * prefixWidth + (col >> prefixBits)])
            }

            var group = groups[pos < total ? groupIndex(col, row) : 0]
            while pos < end {
                if col & mask == 0 { group = groups[groupIndex(col, row)] }
                br.fill(buffer)
                let code = VP8LPrefixCode.readSymbol(tables + group.green, &br)
                if code < VP8LPrefixCodeGroup.literalCount {
                    pixels[pos &- origin] = UInt8(truncatingIfNeeded: code)
                    pos &+= 1
                    col &+= 1
                    if col == width {
                        col = 0
                        row &+= 1
                        if br.isOverrun { throw .truncated("VP8L bitstream ends before the image") }
                    }
                } else if code < greenLimit {
                    // RFC 9649 5.2.2: an LZ77 backward reference.
                    let length = VP8LBackwardReference.prefixValue(code - VP8LPrefixCodeGroup.literalCount, &br)
                    br.fill(buffer)
                    let distanceSymbol = VP8LPrefixCode.readSymbol(tables + group.distance, &br)
                    let distanceCode = VP8LBackwardReference.prefixValue(distanceSymbol, &br)
                    let distance = VP8LBackwardReference.distance(code: distanceCode, width: width, map: map)
                    if br.isOverrun { throw .truncated("VP8L bitstream ends before the image") }
                    guard distance <= pos &- origin, length <= total - pos else {
                        throw .invalidData("VP8L backward reference is outside the image")
                    }
                    VP8LBackwardReference.copy(pixels + (pos &- origin), distance: distance, length: length)
                    pos &+= length
                    col &+= length
                    if col >= width {
                        row &+= col / width
                        col %= width
                    }
                    if col & mask != 0 { group = groups[groupIndex(col, row)] }
                } else {
                    throw .invalidData("VP8L color cache code without a cache")
                }
            }
        }
        }
        }
        }
        if br.isOverrun { throw .truncated("VP8L bitstream ends before the image") }
    }
}
