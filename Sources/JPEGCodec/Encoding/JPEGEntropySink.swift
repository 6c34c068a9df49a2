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
    /// One block of a sequential scan (``JPEGSequentialEncoder/encodeBlock``), which a sink
    /// may implement faster than symbol by symbol.
    mutating func sequentialBlock(_ block: UnsafePointer<Int16>, difference: Int32, dcSlot: Int, acSlot: Int,
                                  zigzag: UnsafePointer<UInt8>)
}

extension JPEGEntropySink {
    @inline(__always)
    mutating func sequentialBlock(_ block: UnsafePointer<Int16>, difference: Int32, dcSlot: Int, acSlot: Int,
                                  zigzag: UnsafePointer<UInt8>) {
        JPEGSequentialEncoder.encodeBlock(block, difference: difference, dcSlot: dcSlot, acSlot: acSlot, zigzag: zigzag, into: &self)
    }
}

/// Writes symbols with the codes of up to 8 tables (DC 0–3, AC 0–3).
struct JPEGSymbolWriter: JPEGEntropySink {
    static var writes: Bool { true }
    var writer: JPEGBitWriter
    /// 256 packed codes per slot (``JPEGHuffmanCodes``); a slot with no table is all zero.
    let codes: JPEGCodeTable
    /// ``JPEGZigzag`` tables, read once here: a global's lazy initialisation check in the block
    /// loop would be a runtime call per block.
    private let rowBits = JPEGZigzag.rowBits, categories = JPEGZigzag.categories

    init(writer: JPEGBitWriter, tables: [Int: JPEGHuffmanSpec]) {
        self.writer = writer
        codes = JPEGCodeTable()
        for (slot, spec) in tables {
            for (symbol, packed) in JPEGHuffmanCodes(spec).packed.enumerated() { codes.pointer[slot * 256 + symbol] = packed }
        }
    }

    @inline(__always)
    mutating func symbol(_ slot: Int, _ symbol: Int, extra: UInt32, extraLength: Int) {
        let packed = codes.pointer[slot &* 256 &+ symbol]
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

    /// `encode_one_block` with libjpeg-turbo's shortcut: a bit mask of the non-zero AC
    /// coefficients in zigzag order, walked by its set bits, so runs of zeros cost nothing; each
    /// code and its appended bits go out in one write. The mask is made without a branch per
    /// coefficient: per row of the block an 8-bit mask of its non-zero entries
    /// (``JPEGZigzag/rowMask(_:)``), which a table turns into their zigzag bits.
    @inline(__always)
    mutating func sequentialBlock(_ block: UnsafePointer<Int16>, difference: Int32, dcSlot: Int, acSlot: Int,
                                  zigzag: UnsafePointer<UInt8>) {
        let raw = UnsafeRawPointer(block), rowBits = self.rowBits, categories = self.categories
        var mask: UInt64 = 0
        for row in 0..<8 {
            let v = raw.loadUnaligned(fromByteOffset: row &* 16, as: SIMD8<Int16>.self)
            mask |= rowBits[row &* 256 &+ JPEGZigzag.rowMask(v)]
        }
        mask &= ~1
        let base = codes.pointer
        let dc = base + dcSlot &* 256, ac = base + acSlot &* 256
        let dcBits = JPEGSequentialEncoder.category(difference, categories)
        Self.put(&writer, dc[dcBits], extra: UInt32(bitPattern: difference < 0 ? difference &- 1 : difference), dcBits)
        var last = 0
        while mask != 0 {
            let k = mask.trailingZeroBitCount
            var run = k &- last &- 1
            while run > 15 {
                Self.put(&writer, ac[0xF0], extra: 0, 0)
                run &-= 16
            }
            let value = Int32(block[Int(zigzag[k])])
            let bits = JPEGSequentialEncoder.category(value, categories)
            Self.put(&writer, ac[run &<< 4 | bits], extra: UInt32(bitPattern: value < 0 ? value &- 1 : value), bits)
            last = k
            mask &= mask &- 1
        }
        if last != 63 { Self.put(&writer, ac[0], extra: 0, 0) }
    }

    /// A packed code (``JPEGHuffmanCodes``) followed by the low `length` bits of `extra`.
    @inline(__always)
    private static func put(_ writer: inout JPEGBitWriter, _ packed: UInt32, extra: UInt32, _ length: Int) {
        let codeLength = Int(packed & 0xFF)
        let bits = (packed &>> 8) &<< UInt32(length) | extra & ((1 &<< UInt32(length)) &- 1)
        writer.write(bits, codeLength &+ length)
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

/// A writer's packed codes (8 slots of 256) in memory of its own, read through a pointer in
/// the inner loop.
final class JPEGCodeTable {
    let pointer: UnsafeMutablePointer<UInt32>

    init() {
        pointer = .allocate(capacity: 8 * 256)
        pointer.initialize(repeating: 0, count: 8 * 256)
    }

    deinit { pointer.deallocate() }
}
