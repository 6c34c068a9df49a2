import CodecCore

/// The zigzag sequence of T.81 Figure A.6: `naturalOrder[k]` is the row-major position of the
/// k-th coefficient. Sixteen extra entries of 63 absorb run lengths that overrun the block in
/// corrupt data, as libjpeg's table does, so that a bad run writes coefficient 63 instead of
/// past the block.
let naturalOrder: [Int] = [
    0, 1, 8, 16, 9, 2, 3, 10, 17, 24, 32, 25, 18, 11, 4, 5,
    12, 19, 26, 33, 40, 48, 41, 34, 27, 20, 13, 6, 7, 14, 21, 28,
    35, 42, 49, 56, 57, 50, 43, 36, 29, 22, 15, 23, 30, 37, 44, 51,
    58, 59, 52, 45, 38, 31, 39, 46, 53, 60, 61, 54, 47, 55, 62, 63,
] + [Int](repeating: 63, count: 16)

/// Reads a DQT segment (T.81 B.2.4.1): one or more tables of 64 values, 8- or 16-bit (Pq),
/// in zigzag order; stored in natural order. Returns (Tq, table) pairs.
func readQuantizationTables(_ p: [UInt8]) throws(DecodingError) -> [(Int, [UInt16])] {
    var tables: [(Int, [UInt16])] = []
    var i = 0
    while i < p.count {
        let pq = Int(p[i] >> 4), tq = Int(p[i] & 15)
        guard pq <= 1, tq <= 3 else { throw .invalidData("JPEG quantization table precision or index is invalid") }
        let size = pq == 0 ? 64 : 128
        guard i + 1 + size <= p.count else { throw .invalidData("JPEG quantization table is too short") }
        var table = [UInt16](repeating: 0, count: 64)
        for k in 0..<64 {
            table[naturalOrder[k]] = pq == 0 ? UInt16(p[i + 1 + k]) : UInt16(p[i + 1 + 2 * k]) << 8 | UInt16(p[i + 2 + 2 * k])
        }
        tables.append((tq, table))
        i += 1 + size
    }
    return tables
}

/// One Huffman table as DHT defines it (T.81 B.2.4.2): the number of codes of each length
/// 1–16 (BITS) and the symbols in code order (HUFFVAL).
struct JPEGHuffmanSpec: Equatable {
    let counts: [Int]
    let symbols: [UInt8]
}

/// Reads a DHT segment: one or more (Tc, Th, table) triples; Tc is 0 for DC, 1 for AC.
func readHuffmanTables(_ p: [UInt8]) throws(DecodingError) -> [(isAC: Bool, index: Int, spec: JPEGHuffmanSpec)] {
    var tables: [(Bool, Int, JPEGHuffmanSpec)] = []
    var i = 0
    while i < p.count {
        guard i + 17 <= p.count else { throw .invalidData("JPEG Huffman table is too short") }
        let tc = Int(p[i] >> 4), th = Int(p[i] & 15)
        guard tc <= 1, th <= 3 else { throw .invalidData("JPEG Huffman table class or index is invalid") }
        let counts = (1...16).map { Int(p[i + $0]) }
        let total = counts.reduce(0, +)
        guard total <= 256, i + 17 + total <= p.count else { throw .invalidData("JPEG Huffman table is too long") }
        tables.append((tc == 1, th, JPEGHuffmanSpec(counts: counts, symbols: Array(p[(i + 17)..<(i + 17 + total)]))))
        i += 17 + total
    }
    return tables
}

/// The example tables of T.81 Annex K.3 (Tables K.3–K.6), which libjpeg-turbo substitutes
/// when a scan uses a table the file never defined (Motion-JPEG frames omit them): as tables 0
/// (luminance) and 1 (chrominance) only (`std_huff_tables`); any other undefined table is an
/// error when a scan uses it.
enum JPEGStandardTables {
    static func spec(isAC: Bool, index: Int) -> JPEGHuffmanSpec? {
        switch (isAC, index) {
        case (false, 0): return luminanceDC
        case (false, 1): return chrominanceDC
        case (true, 0): return luminanceAC
        case (true, 1): return chrominanceAC
        default: return nil
        }
    }

    static let luminanceDC = JPEGHuffmanSpec(
        counts: [0, 1, 5, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0], symbols: Array(0...11))
    static let chrominanceDC = JPEGHuffmanSpec(
        counts: [0, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0], symbols: Array(0...11))
    static let luminanceAC = JPEGHuffmanSpec(
        counts: [0, 2, 1, 3, 3, 2, 4, 3, 5, 5, 4, 4, 0, 0, 1, 0x7D],
        symbols: acSymbols(
            "01 02 03 00 04 11 05 12 21 31 41 06 13 51 61 07 22 71 14 32 81 91 A1 08 23 42 B1 C1 15 52 D1 F0 "
            + "24 33 62 72 82 09 0A 16 17 18 19 1A 25 26 27 28 29 2A 34 35 36 37 38 39 3A 43 44 45 46 47 48 49 "
            + "4A 53 54 55 56 57 58 59 5A 63 64 65 66 67 68 69 6A 73 74 75 76 77 78 79 7A 83 84 85 86 87 88 89 "
            + "8A 92 93 94 95 96 97 98 99 9A A2 A3 A4 A5 A6 A7 A8 A9 AA B2 B3 B4 B5 B6 B7 B8 B9 BA C2 C3 C4 C5 "
            + "C6 C7 C8 C9 CA D2 D3 D4 D5 D6 D7 D8 D9 DA E1 E2 E3 E4 E5 E6 E7 E8 E9 EA F1 F2 F3 F4 F5 F6 F7 F8 F9 FA"))
    static let chrominanceAC = JPEGHuffmanSpec(
        counts: [0, 2, 1, 2, 4, 4, 3, 4, 7, 5, 4, 4, 0, 1, 2, 0x77],
        symbols: acSymbols(
            "00 01 02 03 11 04 05 21 31 06 12 41 51 07 61 71 13 22 32 81 08 14 42 91 A1 B1 C1 09 23 33 52 F0 "
            + "15 62 72 D1 0A 16 24 34 E1 25 F1 17 18 19 1A 26 27 28 29 2A 35 36 37 38 39 3A 43 44 45 46 47 48 "
            + "49 4A 53 54 55 56 57 58 59 5A 63 64 65 66 67 68 69 6A 73 74 75 76 77 78 79 7A 82 83 84 85 86 87 "
            + "88 89 8A 92 93 94 95 96 97 98 99 9A A2 A3 A4 A5 A6 A7 A8 A9 AA B2 B3 B4 B5 B6 B7 B8 B9 BA C2 C3 "
            + "C4 C5 C6 C7 C8 C9 CA D2 D3 D4 D5 D6 D7 D8 D9 DA E2 E3 E4 E5 E6 E7 E8 E9 EA F2 F3 F4 F5 F6 F7 F8 F9 FA"))

    private static func acSymbols(_ hex: String) -> [UInt8] {
        hex.split(separator: " ").compactMap { UInt8($0, radix: 16) }
    }
}

/// The example quantization tables of T.81 Annex K.1 (Tables K.1 and K.2), in natural
/// (row-major) order: luminance, then chrominance. Encoders scale them by quality (libjpeg's
/// `jpeg_quality_scaling`); transcoders and tests compare against them.
enum JPEGStandardQuantization {
    static let luminance: [Int] = [
        16, 11, 10, 16, 24, 40, 51, 61,
        12, 12, 14, 19, 26, 58, 60, 55,
        14, 13, 16, 24, 40, 57, 69, 56,
        14, 17, 22, 29, 51, 87, 80, 62,
        18, 22, 37, 56, 68, 109, 103, 77,
        24, 35, 55, 64, 81, 104, 113, 92,
        49, 64, 78, 87, 103, 121, 120, 101,
        72, 92, 95, 98, 112, 100, 103, 99,
    ]
    static let chrominance: [Int] = [
        17, 18, 24, 47, 99, 99, 99, 99,
        18, 21, 26, 66, 99, 99, 99, 99,
        24, 26, 56, 99, 99, 99, 99, 99,
        47, 66, 99, 99, 99, 99, 99, 99,
    ] + [Int](repeating: 99, count: 32)
}
