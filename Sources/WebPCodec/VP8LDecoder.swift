import CodecCore

/// Decodes a VP8L (WebP lossless) bitstream, RFC 9649 section 3 to 5: the header, the
/// transforms, the main image's coding, its pixels, then the inverse transforms, to RGBA8.
///
/// The state is a value: the header and transforms read once, the main image's
/// ``VP8LImageDecoder`` (position, colour cache), the bit reader, and the ARGB buffers. Pixels
/// are decoded up to a row with ``decodeRows(until:_:)``, so an incremental caller can copy the
/// decoder as a checkpoint before each batch of rows and restore it when the input runs out.
public struct VP8LDecoder: Sendable {
    public let header: VP8LHeader
    /// In reading order; inverted last to first.
    let transforms: [VP8LTransform]
    /// The width of the coded main image (narrower than the header's with pixel bundling).
    let codedWidth: Int
    var image: VP8LImageDecoder
    var reader: LSBBitReader
    /// The coded main image, `codedWidth × height` ARGB, decoded in scan order.
    var coded: [UInt32]
    /// The image after every inverse transform, `width × height` ARGB; empty while the
    /// transforms can run in place on `coded` (no bundling), which then holds the result.
    var argb: [UInt32] = []

    public var width: Int { header.width }
    public var height: Int { header.height }
    /// Rows of the coded image that are complete.
    public var rowsDecoded: Int { image.row }

    /// Reads everything before the main image's pixels from `bytes` (the VP8L chunk's payload),
    /// checks the size against `limits` and allocates the buffers.
    public init(_ bytes: UnsafeBufferPointer<UInt8>, limits: Limits) throws(DecodingError) {
        header = try VP8LHeader(bytes)
        let pixelBytes = try limits.checkedRasterBytes(width: header.width, height: header.height, bytesPerPixel: 4)
        var budget = VP8LBudget(remaining: limits.maxBytesHeld)
        // The ARGB buffer(s) and the RGBA8 output.
        try budget.take(pixelBytes)
        try budget.take(pixelBytes)
        reader = LSBBitReader(position: VP8LHeader.size)
        var width = header.width
        var seen = 0
        var transforms: [VP8LTransform] = []
        // RFC 9649 5.2.1: transforms, each announced by a 1 bit.
        while true {
            reader.refill(bytes)
            guard reader.read(1, bytes) == 1 else { break }
            transforms.append(try VP8LTransform.read(width: &width, height: header.height, seen: &seen,
                                                     &reader, bytes, budget: &budget))
        }
        self.transforms = transforms
        codedWidth = width
        let coding = try VP8LEntropyCoding.read(width: width, height: header.height, isMainImage: true,
                                                &reader, bytes, budget: &budget)
        if reader.isOverrun { throw .truncated("VP8L bitstream ends before the image data") }
        image = VP8LImageDecoder(width: width, height: header.height, coding: coding)
        if width != header.width {
            try budget.take(width * header.height * 4)
            argb = [UInt32](repeating: 0, count: header.width * header.height)
        }
        coded = [UInt32](repeating: 0, count: width * header.height)
    }

    /// Decodes the main image's pixels until every row before `row` is complete.
    public mutating func decodeRows(until row: Int, _ bytes: UnsafeBufferPointer<UInt8>) throws(DecodingError) {
        try coded.withUnsafeMutableBufferPointer { (p) throws(DecodingError) in
            guard let base = p.baseAddress else { return }
            try image.decode(into: base, untilRow: row, &reader, bytes)
        }
    }

    /// Applies the inverse transforms to the whole decoded image, last read first.
    mutating func applyTransforms() {
        let rows = 0..<header.height
        coded.withUnsafeMutableBufferPointer { codedBuffer in
            argb.withUnsafeMutableBufferPointer { argbBuffer in
                guard var current = codedBuffer.baseAddress else { return }
                for transform in transforms.reversed() {
                    if transform.inputWidth != transform.width, let target = argbBuffer.baseAddress {
                        transform.applyInverse(rows: rows, input: current, output: target)
                        current = target
                    } else {
                        transform.applyInverse(rows: rows, input: current, output: current)
                    }
                }
            }
        }
    }

    /// The decoded image as RGBA8 (straight alpha), after ``decodeRows(until:_:)`` reached the
    /// last row and the transforms were applied.
    func rgba() -> [UInt8] {
        let source = argb.isEmpty ? coded : argb
        let count = header.width * header.height
        return [UInt8](unsafeUninitializedCapacity: count * 4) { out, initialized in
            source.withUnsafeBufferPointer { pixels in
                for i in 0..<count {
                    let p = pixels[i]
                    out[4 * i] = UInt8(truncatingIfNeeded: p &>> 16)
                    out[4 * i + 1] = UInt8(truncatingIfNeeded: p &>> 8)
                    out[4 * i + 2] = UInt8(truncatingIfNeeded: p)
                    out[4 * i + 3] = UInt8(truncatingIfNeeded: p &>> 24)
                }
            }
            initialized = count * 4
        }
    }

    /// Decodes a whole VP8L bitstream (a VP8L chunk's payload) to RGBA8, as libwebp's
    /// `WebPDecodeRGBA` does. A bitstream shorter than 8 bytes reads as if zero-padded to 8
    /// (libwebp's bit reader starts with an 8-byte window and only reports the end past it).
    public static func decode(_ bytes: UnsafeBufferPointer<UInt8>, limits: Limits = Limits())
        throws(DecodingError) -> (width: Int, height: Int, pixels: [UInt8]) {
        if bytes.count < 8 {
            var padded = [UInt8](repeating: 0, count: 8)
            for (i, b) in bytes.enumerated() { padded[i] = b }
            guard bytes.count >= VP8LHeader.size else { throw .truncated("VP8L header is shorter than 5 bytes") }
            return try padded.withUnsafeBufferPointer { (p) throws(DecodingError) in try decodeWhole(p, limits: limits) }
        }
        return try decodeWhole(bytes, limits: limits)
    }

    private static func decodeWhole(_ bytes: UnsafeBufferPointer<UInt8>, limits: Limits)
        throws(DecodingError) -> (width: Int, height: Int, pixels: [UInt8]) {
        var decoder = try VP8LDecoder(bytes, limits: limits)
        try decoder.decodeRows(until: decoder.height, bytes)
        decoder.applyTransforms()
        return (decoder.width, decoder.height, decoder.rgba())
    }
}
