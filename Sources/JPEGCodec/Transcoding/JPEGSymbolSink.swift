/// Where the scan encoder's Huffman symbols and raw bits go: counted (the first pass of
/// libjpeg's optimized coding, `gather_statistics`) or written. Tables are numbered 0–3 for
/// DC and 4–7 for AC.
protocol JPEGSymbolSink {
    mutating func symbol(_ table: Int, _ symbol: Int)
    mutating func bits(_ value: UInt32, _ count: Int)
    /// Whether bits are written (a counting pass skips the correction bits it would buffer).
    var writesBits: Bool { get }
}

/// Counts symbols per table, 257 per table (the last reserved for the optimal table).
struct JPEGSymbolCounter: JPEGSymbolSink {
    var counts = [Int](repeating: 0, count: 8 * 257)

    @inline(__always)
    mutating func symbol(_ table: Int, _ symbol: Int) { counts[table &* 257 &+ symbol] &+= 1 }

    @inline(__always)
    mutating func bits(_ value: UInt32, _ count: Int) {}

    var writesBits: Bool { false }

    func frequencies(_ table: Int) -> [Int] { Array(counts[(table * 257)..<(table * 257 + 257)]) }
}

/// Writes symbols with the scan's code tables (``JPEGHuffmanEncoding/codes(_:)``).
struct JPEGSymbolWriter: JPEGSymbolSink {
    var writer: JPEGBitWriter
    /// 8 × 256 entries of `code << 8 | length`.
    let codes: [UInt32]
    /// A symbol that has no code (a corrupt count table) was asked for.
    private(set) var missingCode = false

    init(writer: JPEGBitWriter, tables: [[UInt32]?]) {
        self.writer = writer
        var all = [UInt32](repeating: 0, count: 8 * 256)
        for (t, table) in tables.enumerated() {
            guard let table else { continue }
            for s in 0..<256 { all[t * 256 + s] = table[s] }
        }
        codes = all
    }

    @inline(__always)
    mutating func symbol(_ table: Int, _ symbol: Int) {
        let entry = codes[table &* 256 &+ symbol]
        if entry == 0 { missingCode = true; return }
        writer.write(entry >> 8, Int(entry & 0xFF))
    }

    @inline(__always)
    mutating func bits(_ value: UInt32, _ count: Int) { writer.write(value, count) }

    var writesBits: Bool { true }
}
