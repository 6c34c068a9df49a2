/// Huffman encoding of a sequential scan (T.81 F.1.2; libjpeg's `jchuff.c`): per block the DC
/// difference from the component's previous block as a magnitude category and its bits
/// (F.1.2.1), then the AC coefficients as run/size symbols, ZRL for 16 zeros, EOB after the last
/// non-zero one (F.1.2.2). Predictions restart at 0 after each restart marker.
struct JPEGSequentialEncoder {
    var walker: JPEGScanWalker
    private var lastDC: [Int32]

    init(walker: JPEGScanWalker) {
        self.walker = walker
        lastDC = [Int32](repeating: 0, count: walker.components.count)
    }

    /// Encodes the MCUs of iMCU rows `rows` into `sink`.
    mutating func encode<Sink: JPEGEntropySink>(planes: [JPEGCoefficientPlane], iMCURows rows: Range<Int>, into sink: inout Sink) {
        let slots = walker.components.map { ($0.dcSlot, $0.acSlot) }
        var lastDC = self.lastDC
        let count = lastDC.count
        let zigzag = JPEGZigzag.natural
        walker.walk(planes: planes, iMCURows: rows, restart: { number in
            sink.restart(number)
            for i in 0..<count { lastDC[i] = 0 }
        }, block: { position, block in
            let (dcSlot, acSlot) = slots[position]
            let dc = Int32(block[0])
            sink.sequentialBlock(block, difference: dc &- lastDC[position], dcSlot: dcSlot, acSlot: acSlot, zigzag: zigzag)
            lastDC[position] = dc
        })
        self.lastDC = lastDC
    }

    /// The number of bits of |value| (its magnitude category, T.81 Table F.1/F.2).
    @inline(__always)
    static func category(_ value: Int32) -> Int {
        let magnitude = UInt32(bitPattern: value < 0 ? 0 &- value : value)
        return 32 &- magnitude.leadingZeroBitCount
    }

    /// The same, from `table` (``JPEGZigzag/categories``) for the magnitudes of 8-bit data, as
    /// libjpeg-turbo's `jpeg_nbits_table`: a bit scan is several micro-ops on x86-64 without
    /// LZCNT.
    @inline(__always)
    static func category(_ value: Int32, _ table: UnsafePointer<UInt8>) -> Int {
        let magnitude = UInt32(bitPattern: value < 0 ? 0 &- value : value)
        if magnitude < 2048 { return Int(table[Int(magnitude)]) }
        return 32 &- magnitude.leadingZeroBitCount
    }

    /// libjpeg's `encode_one_block` (and, with a counting sink, `htest_one_block`).
    @inline(__always)
    static func encodeBlock<Sink: JPEGEntropySink>(_ block: UnsafePointer<Int16>, difference: Int32, dcSlot: Int, acSlot: Int,
                                                  zigzag: UnsafePointer<UInt8>, into sink: inout Sink) {
        let dcBits = category(difference)
        sink.symbol(dcSlot, dcBits, extra: UInt32(bitPattern: difference < 0 ? difference &- 1 : difference), extraLength: dcBits)
        var run = 0
        for k in 1..<64 {
            let value = Int32(block[Int(zigzag[k])])
            if value == 0 {
                run &+= 1
                continue
            }
            while run > 15 {
                sink.symbol(acSlot, 0xF0, extra: 0, extraLength: 0)
                run &-= 16
            }
            let bits = category(value)
            sink.symbol(acSlot, run &<< 4 &+ bits, extra: UInt32(bitPattern: value < 0 ? value &- 1 : value), extraLength: bits)
            run = 0
        }
        if run > 0 { sink.symbol(acSlot, 0, extra: 0, extraLength: 0) }
    }
}

/// T.81 Figure A.6 as a fixed array (the shared ``naturalOrder`` without its overrun padding).
let zigzagToNatural: [Int] = Array(naturalOrder.prefix(64))

/// The same, in memory that lives as long as the process, for the encoders' inner loops.
enum JPEGZigzag {
    nonisolated(unsafe) static let natural: UnsafePointer<UInt8> = {
        let p = UnsafeMutablePointer<UInt8>.allocate(capacity: 64)
        for k in 0..<64 { p[k] = UInt8(zigzagToNatural[k]) }
        return UnsafePointer(p)
    }()

    /// The inverse: `position[n]` is the zigzag index of row-major position n.
    nonisolated(unsafe) static let position: UnsafePointer<UInt8> = {
        let p = UnsafeMutablePointer<UInt8>.allocate(capacity: 64)
        for k in 0..<64 { p[zigzagToNatural[k]] = UInt8(k) }
        return UnsafePointer(p)
    }()

    /// `categories[m]`: the number of bits of m, for m < 2048.
    nonisolated(unsafe) static let categories: UnsafePointer<UInt8> = {
        let p = UnsafeMutablePointer<UInt8>.allocate(capacity: 2048)
        for m in 0..<2048 { p[m] = UInt8(32 - UInt32(m).leadingZeroBitCount) }
        return UnsafePointer(p)
    }()

    /// `rowBits[row · 256 + m]`: the zigzag bits (bit k for zigzag index k) of the columns set in
    /// the 8-bit mask m of block row `row`.
    nonisolated(unsafe) static let rowBits: UnsafePointer<UInt64> = {
        let p = UnsafeMutablePointer<UInt64>.allocate(capacity: 8 * 256)
        for row in 0..<8 {
            for m in 0..<256 {
                var bits: UInt64 = 0
                for column in 0..<8 where m >> column & 1 == 1 { bits |= 1 << UInt64(position[row * 8 + column]) }
                p[row * 256 + m] = bits
            }
        }
        return UnsafePointer(p)
    }()

    /// Bit i set when lane i of `v` is not zero: each lane becomes 0 or 1 in a byte (the sign of
    /// v | −v), and one multiply gathers the eight bytes' low bits into the top byte.
    @inline(__always)
    static func rowMask(_ v: SIMD8<Int16>) -> Int {
        let nonZero = ((v | (0 &- v)) &>> 15) & 1
        var bytes = SIMD8<UInt8>()
        for i in 0..<8 { bytes[i] = UInt8(truncatingIfNeeded: nonZero[i]) }
        let word = UInt64(littleEndian: unsafeBitCast(bytes, to: UInt64.self))
        return Int(truncatingIfNeeded: (word &* 0x0102_0408_1020_4080) &>> 56)
    }
}
