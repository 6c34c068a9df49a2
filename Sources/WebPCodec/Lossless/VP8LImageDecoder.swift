import CodecCore

/// Decodes the pixels of one entropy-coded image (RFC 9649 section 5.2.2): literals, LZ77
/// backward references and colour cache codes, in scan order, into a caller's ARGB buffer.
///
/// The state is a small value: the next pixel, the first pixel not yet in the colour cache, and
/// the cache itself, so that a caller can stop at a pixel (``decode(into:untilPixel:_:_:)``),
/// checkpoint a copy, and roll back to it.
struct VP8LImageDecoder {
    let width: Int
    let height: Int
    let coding: VP8LEntropyCoding
    var cache: VP8LColorCache
    /// The next pixel to decode, as `row × width + column`.
    var position = 0
    /// Pixels before this one have been inserted into the colour cache.
    var lastCached = 0

    init(width: Int, height: Int, coding: VP8LEntropyCoding) {
        self.width = width
        self.height = height
        self.coding = coding
        cache = VP8LColorCache(bits: coding.colorCacheBits)
    }

    /// The row being decoded (rows above it are complete).
    var row: Int { position / width }

    /// Decodes a `width × height` image that is not the main image (a transform's data or the
    /// entropy image): its coding, then its pixels; throws `truncated` if it ran past the end.
    static func decodeSubImage(width: Int, height: Int, _ reader: inout LSBBitReader, _ buffer: UnsafeBufferPointer<UInt8>,
                               budget: inout VP8LBudget) throws(DecodingError) -> [UInt32] {
        let coding = try VP8LEntropyCoding.read(width: width, height: height, isMainImage: false, &reader, buffer, budget: &budget)
        try budget.take(width * height * MemoryLayout<UInt32>.stride)
        var pixels = [UInt32](repeating: 0, count: width * height)
        var decoder = VP8LImageDecoder(width: width, height: height, coding: coding)
        try pixels.withUnsafeMutableBufferPointer { (p) throws(DecodingError) in
            guard let base = p.baseAddress else { return }
            try decoder.decode(into: base, origin: 0, untilPixel: width * height, &reader, buffer)
        }
        return pixels
    }

    /// Decodes pixels into `pixels`, which holds the image's pixels from position `origin` on
    /// (the whole image when it is 0; else a ``VP8LCodedWindow`` with room for a backward
    /// reference that starts before `end`), until every pixel before `end` (scan order; a
    /// row's end, except for ALPH's last row) is decoded; a backward reference may fill pixels
    /// past it. Throws `truncated`
    /// when the bits ran out (zeros past the end were used), `invalidData` for a reference
    /// outside the image.
    ///
    /// The documented hot loop: the reader and position live in locals, tables are read
    /// through pointers, and nothing is allocated.
    mutating func decode(into pixels: UnsafeMutablePointer<UInt32>, origin: Int, untilPixel: Int, _ reader: inout LSBBitReader,
                         _ buffer: UnsafeBufferPointer<UInt8>) throws(DecodingError) {
        let width = self.width
        let total = width * height
        let end = min(untilPixel, total)
        var br = reader
        var pos = position, lastCached = self.lastCached
        var col = pos % width, row = pos / width
        defer {
            reader = br
            position = pos
            self.lastCached = lastCached
        }
        let prefixBits = coding.prefixBits
        let mask = prefixBits == 0 ? -1 : (1 << prefixBits) - 1
        let prefixWidth = coding.prefixImageWidth
        let cacheShift = UInt32(truncatingIfNeeded: 32 - coding.colorCacheBits)
        let hasCache = coding.colorCacheBits > 0
        let greenLimit = VP8LPrefixCodeGroup.literalCount + VP8LPrefixCodeGroup.lengthPrefixCount
        let cacheLimit = greenLimit + (hasCache ? 1 << coding.colorCacheBits : 0)
        let distanceMap = VP8LBackwardReference.distanceMap
        let cacheCount = cache.colors.count

        try coding.tables.withUnsafeBufferPointer { (tablesBuffer) throws(DecodingError) in
        try coding.groups.withUnsafeBufferPointer { (groupsBuffer) throws(DecodingError) in
        try coding.prefixImage.withUnsafeBufferPointer { (prefixBuffer) throws(DecodingError) in
        try distanceMap.withUnsafeBufferPointer { (mapBuffer) throws(DecodingError) in
        try cache.colors.withUnsafeMutableBufferPointer { (cacheBuffer) throws(DecodingError) in
            guard let tables = tablesBuffer.baseAddress, let groups = groupsBuffer.baseAddress,
                  let map = mapBuffer.baseAddress else { throw .invalidData("VP8L image has no prefix codes") }
            // An empty array's base address need not be nil: what is absent is said by the sizes.
            let prefixImage = prefixBits > 0 ? prefixBuffer.baseAddress : nil
            let colors = hasCache ? cacheBuffer.baseAddress : nil

            @inline(__always) func groupIndex(_ col: Int, _ row: Int) -> Int {
                guard let prefixImage else { return 0 }
                return Int(prefixImage[(row >> prefixBits) * prefixWidth + (col >> prefixBits)])
            }
            @inline(__always) func insertCached(upTo pos: Int) {
                guard let colors else { return }
                while lastCached < pos {
                    let argb = pixels[lastCached &- origin]
                    colors[VP8LColorCache.index(of: argb, shift: cacheShift)] = argb
                    lastCached &+= 1
                }
            }

            var group = groups[pos < total ? groupIndex(col, row) : 0]
            while pos < end {
                if col & mask == 0 { group = groups[groupIndex(col, row)] }
                br.fill(buffer)
                let code = VP8LPrefixCode.readSymbol(tables + group.green, &br)
                if code < VP8LPrefixCodeGroup.literalCount || code >= greenLimit {
                    if code < VP8LPrefixCodeGroup.literalCount {
                        if group.isTrivialLiteral {
                            pixels[pos &- origin] = group.literalARB | UInt32(truncatingIfNeeded: code) &<< 8
                        } else {
                            let red = VP8LPrefixCode.readSymbol(tables + group.red, &br)
                            br.fill(buffer)
                            let blue = VP8LPrefixCode.readSymbol(tables + group.blue, &br)
                            let alpha = VP8LPrefixCode.readSymbol(tables + group.alpha, &br)
                            pixels[pos &- origin] = UInt32(truncatingIfNeeded: alpha << 24 | red << 16 | code << 8 | blue)
                        }
                    } else {
                        // RFC 9649 5.2.2: a colour cache index.
                        guard code < cacheLimit, code - greenLimit < cacheCount, let colors else {
                            throw .invalidData("VP8L color cache code without a cache")
                        }
                        insertCached(upTo: pos)
                        pixels[pos &- origin] = colors[code - greenLimit]
                    }
                    pos &+= 1
                    col &+= 1
                    if col == width {
                        col = 0
                        row &+= 1
                        if hasCache { insertCached(upTo: pos) }
                        if br.isOverrun { throw .truncated("VP8L bitstream ends before the image") }
                    }
                } else {
                    // RFC 9649 5.2.2: an LZ77 backward reference.
                    let length = VP8LBackwardReference.prefixValue(code - VP8LPrefixCodeGroup.literalCount, &br)
                    br.fill(buffer)
                    let distanceSymbol = VP8LPrefixCode.readSymbol(tables + group.distance, &br)
                    let distanceCode = VP8LBackwardReference.prefixValue(distanceSymbol, &br)
                    let distance = VP8LBackwardReference.distance(code: distanceCode, width: width, map: map)
                    if br.isOverrun {
                        throw .truncated("VP8L bitstream ends before the image")
                    }
                    // The window holds every pixel a distance can reach (VP8LCodedWindow).
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
                    if hasCache { insertCached(upTo: pos) }
                }
            }
            if hasCache { insertCached(upTo: pos) }
        }
        }
        }
        }
        }
        if br.isOverrun { throw .truncated("VP8L bitstream ends before the image") }
    }
}
