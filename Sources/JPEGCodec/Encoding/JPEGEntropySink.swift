/// Where an entropy encoder's symbols go: written with their codes (`JPEGSymbolWriter`), or
/// only counted for an optimized table (`JPEGSymbolCounter`, libjpeg's gather pass). One scan
/// loop serves both, so the two passes see exactly the same symbols.
protocol JPEGEntropySink {
    /// Whether this sink writes (false: counts only; bits and markers are dropped).
    static var writes: Bool { get }
    /// Symbol `symbol` of the table in `slot` (``JPEGHuffmanFrequencies/slot(isAC:index:)``),
    /// followed by the low `extraLength` bits of `extra`.
    mutating func symbol(_ slot: Int, _ symbol: Int, extra: UInt32, extraLength: Int)
    /// Raw bits (progressive refinement bits).
    mutating func bits(_ value: UInt32, _ length: Int)
    /// Pads to a byte and writes RSTn.
    mutating func restart(_ number: Int)
}

/// Writes symbols with the codes of up to 8 tables (DC 0–3, AC 0–3).
struct JPEGSymbolWriter: JPEGEntropySink {
    static var writes: Bool { true }
    var writer: JPEGBitWriter
    /// 256 packed codes per slot (``JPEGHuffmanCodes``); a slot with no table is all zero.
    var codes: [UInt32]

    init(writer: JPEGBitWriter, tables: [Int: JPEGHuffmanSpec]) {
        self.writer = writer
        codes = [UInt32](repeating: 0, count: 8 * 256)
        for (slot, spec) in tables {
            codes.replaceSubrange((slot * 256)..<(slot * 256 + 256), with: JPEGHuffmanCodes(spec).packed)
        }
    }

    @inline(__always)
    mutating func symbol(_ slot: Int, _ symbol: Int, extra: UInt32, extraLength: Int) {
        let packed = codes.withUnsafeBufferPointer { $0[slot &* 256 &+ symbol] }
        let length = Int(packed & 0xFF)
        writer.write(packed &>> 8, length)
        if extraLength > 0 { writer.write(extra & ((1 << UInt32(extraLength)) &- 1), extraLength) }
    }

    @inline(__always)
    mutating func bits(_ value: UInt32, _ length: Int) { writer.write(value, length) }

    mutating func restart(_ number: Int) {
        writer.flush()
        writer.marker(JPEGMarker.rst0 + UInt8(number & 7))
    }
}

/// Counts symbols per table slot.
struct JPEGSymbolCounter: JPEGEntropySink {
    static var writes: Bool { false }
    var frequencies = JPEGHuffmanFrequencies()

    @inline(__always)
    mutating func symbol(_ slot: Int, _ symbol: Int, extra: UInt32, extraLength: Int) {
        frequencies.counts[slot &* 257 &+ symbol] &+= 1
    }

    mutating func bits(_ value: UInt32, _ length: Int) {}
    mutating func restart(_ number: Int) {}
}
