import CodecCore

/// One of the four transforms of a VP8L image (RFC 9649 section 4), as read from the
/// bitstream. The decoder applies their inverses in the reverse of the reading order.
struct VP8LTransform {
    /// RFC 9649 4: `transform_type`, 2 bits.
    enum Kind: Int {
        case predictor = 0
        case crossColor = 1
        case subtractGreen = 2
        case colorIndexing = 3
    }

    let kind: Kind
    /// The width of the image the inverse transform produces (the image width when it was read).
    let width: Int
    let height: Int
    /// The width of the image the inverse transform takes: `width`, except for colour indexing
    /// with pixel bundling (RFC 9649 4.4), where several indices share one pixel.
    let inputWidth: Int
    /// Predictor and cross-colour: `size_bits` (the block size is `1 << bits`). Colour
    /// indexing: `width_bits` (`1 << bits` indices per pixel).
    let bits: Int
    /// Predictor and cross-colour: the sub-sampled transform image, one pixel per block.
    /// Colour indexing: the colour table, 256 entries (transparent black past its size).
    let data: [UInt32]

    /// Blocks per row of the transform image.
    var blocksPerRow: Int { VP8LEntropyCoding.subsampledSize(width, bits: bits) }

    /// Reads one transform of an image `width` wide (the current width: colour indexing with
    /// bundling narrows it for what follows) and `height` high. `seen` holds a bit per kind
    /// already read: RFC 9649 4 says each transform is used at most once.
    static func read(width: inout Int, height: Int, seen: inout Int, _ reader: inout LSBBitReader,
                     _ buffer: UnsafeBufferPointer<UInt8>, budget: inout VP8LBudget) throws(DecodingError) -> VP8LTransform {
        reader.refill(buffer)
        guard let kind = Kind(rawValue: Int(reader.read(2, buffer))) else { throw .invalidData("VP8L transform type") }
        try reader.checkNotOverrun()
        guard seen & (1 << kind.rawValue) == 0 else { throw .invalidData("VP8L transform is used twice") }
        seen |= 1 << kind.rawValue
        let outputWidth = width
        switch kind {
        case .predictor, .crossColor:
            // RFC 9649 4.1 and 4.2: size_bits = ReadBits(3) + 2.
            let bits = Int(reader.read(3, buffer)) + 2
            let data = try VP8LImageDecoder.decodeSubImage(
                width: VP8LEntropyCoding.subsampledSize(width, bits: bits),
                height: VP8LEntropyCoding.subsampledSize(height, bits: bits), &reader, buffer, budget: &budget)
            return VP8LTransform(kind: kind, width: outputWidth, height: height, inputWidth: width, bits: bits, data: data)
        case .subtractGreen:
            return VP8LTransform(kind: kind, width: outputWidth, height: height, inputWidth: width, bits: 0, data: [])
        case .colorIndexing:
            // RFC 9649 4.4: color_table_size = ReadBits(8) + 1; the table is an image one row
            // high, coded as differences from the previous entry, component by component.
            let size = Int(reader.read(8, buffer)) + 1
            let bits = size > 16 ? 0 : size > 4 ? 1 : size > 2 ? 2 : 3
            var palette = try VP8LImageDecoder.decodeSubImage(width: size, height: 1, &reader, buffer, budget: &budget)
            for i in 1..<size { palette[i] = VP8LTransform.addPixels(palette[i], palette[i - 1]) }
            // Indices past the table's end give transparent black (as libwebp decodes them).
            palette += repeatElement(0, count: 256 - size)
            width = VP8LEntropyCoding.subsampledSize(width, bits: bits)
            return VP8LTransform(kind: kind, width: outputWidth, height: height, inputWidth: width, bits: bits, data: palette)
        }
    }

    /// Adds two ARGB pixels component by component, modulo 256.
    @inline(__always)
    static func addPixels(_ a: UInt32, _ b: UInt32) -> UInt32 {
        let alphaGreen = (a & 0xFF00_FF00) &+ (b & 0xFF00_FF00)
        let redBlue = (a & 0x00FF_00FF) &+ (b & 0x00FF_00FF)
        return (alphaGreen & 0xFF00_FF00) | (redBlue & 0x00FF_00FF)
    }

    /// Applies the inverse transform to `rows`: reads `inputWidth`-wide rows starting at
    /// `input` (the first row of `rows`), writes `width`-wide rows starting at `output` (the
    /// same memory except for colour indexing with bundling). The predictor reads the row above
    /// the first from `output − width`, which must hold that row as the predictor left it.
    func applyInverse(rows: Range<Int>, input: UnsafePointer<UInt32>, output: UnsafeMutablePointer<UInt32>) {
        switch kind {
        case .predictor:
            data.withUnsafeBufferPointer { modes in
                for y in rows { addPredictions(row: y, line: output + (y - rows.lowerBound) * width, modes: modes) }
            }
        case .crossColor:
            data.withUnsafeBufferPointer { elements in
                for y in rows { inverseCrossColor(row: y, line: output + (y - rows.lowerBound) * width, elements: elements) }
            }
        case .subtractGreen:
            Self.addGreen(output, count: rows.count * width)
        case .colorIndexing:
            data.withUnsafeBufferPointer { palette in
                for y in rows {
                    let offset = y - rows.lowerBound
                    expandIndices(source: input + offset * inputWidth, line: output + offset * width, palette: palette)
                }
            }
        }
    }
}
