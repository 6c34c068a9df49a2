import CodecCore

/// The five prefix codes that code one region of an image (RFC 9649 section 3.7.2.2, "prefix
/// code group"): green and the LZ77 length prefix and the colour cache index share the first;
/// then red, blue, alpha, and the LZ77 distance prefix. The codes are offsets into the table
/// array of their ``VP8LEntropyCoding``.
struct VP8LPrefixCodeGroup {
    /// RFC 9649 3.7.2.1: 256 literals, then 24 LZ77 length prefix codes, then the cache indices.
    static let literalCount = 256
    static let lengthPrefixCount = 24
    static let distancePrefixCount = 40

    var green: Int
    var red: Int
    var blue: Int
    var alpha: Int
    var distance: Int
    /// Red, blue and alpha each have a single symbol (zero bits): a literal reads only green.
    var isTrivialLiteral: Bool
    /// When `isTrivialLiteral`: alpha << 24 | red << 16 | blue.
    var literalARB: UInt32

    /// The green code's alphabet for a colour cache of `colorCacheBits` (0 = none).
    static func greenAlphabetSize(colorCacheBits: Int) -> Int {
        literalCount + lengthPrefixCount + (colorCacheBits > 0 ? 1 << colorCacheBits : 0)
    }

    /// Reads the five codes of one group, appending their tables to `tables`.
    static func read(colorCacheBits: Int, _ reader: inout LSBBitReader, _ buffer: UnsafeBufferPointer<UInt8>,
                     lengths: inout [UInt8], to tables: inout [UInt32]) throws(DecodingError) -> VP8LPrefixCodeGroup {
        let green = try VP8LPrefixCode.read(alphabetSize: greenAlphabetSize(colorCacheBits: colorCacheBits),
                                            &reader, buffer, lengths: &lengths, to: &tables)
        let red = try VP8LPrefixCode.read(alphabetSize: literalCount, &reader, buffer, lengths: &lengths, to: &tables)
        let blue = try VP8LPrefixCode.read(alphabetSize: literalCount, &reader, buffer, lengths: &lengths, to: &tables)
        let alpha = try VP8LPrefixCode.read(alphabetSize: literalCount, &reader, buffer, lengths: &lengths, to: &tables)
        let distance = try VP8LPrefixCode.read(alphabetSize: distancePrefixCount, &reader, buffer,
                                               lengths: &lengths, to: &tables)
        // A table whose first entry takes zero bits has a single symbol.
        let trivial = tables[red] & 0xFF == 0 && tables[blue] & 0xFF == 0 && tables[alpha] & 0xFF == 0
        let arb = trivial ? (tables[alpha] >> 16) << 24 | (tables[red] >> 16) << 16 | tables[blue] >> 16 : 0
        return VP8LPrefixCodeGroup(green: green, red: red, blue: blue, alpha: alpha, distance: distance,
                                   isTrivialLiteral: trivial, literalARB: arb)
    }
}
