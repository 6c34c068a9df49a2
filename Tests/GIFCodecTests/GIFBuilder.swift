/// Assembles GIF files block by block for tests of edge cases and hostile input, with an LZW
/// encoder (GIF89a Appendix F) whose code widths follow the decoder's rule.
struct GIFBuilder {
    private(set) var bytes: [UInt8] = []

    /// Header and Logical Screen Descriptor (§17–19) with an optional global colour table of
    /// RGB triples (padded to a power of two, at least 2 entries).
    init(width: Int, height: Int, globalTable: [[UInt8]]? = nil, background: UInt8 = 0, version: String = "GIF89a") {
        bytes = Array(version.utf8) + Self.le16(width) + Self.le16(height)
        let (flag, table) = Self.table(globalTable)
        bytes += [flag, background, 0] + table
    }

    static func le16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8((v >> 8) & 0xFF)] }

    /// The packed-field bits and bytes of a colour table.
    static func table(_ entries: [[UInt8]]?) -> (UInt8, [UInt8]) {
        guard let entries else { return (0, []) }
        var bits = 0
        while (2 << bits) < entries.count { bits += 1 }
        var out = entries.flatMap { $0 }
        out += [UInt8](repeating: 0, count: (2 << bits) * 3 - out.count)
        return (0x80 | UInt8(bits), out)
    }

    /// Splits `data` into data sub-blocks of at most `size` bytes, with the Block Terminator.
    static func subBlocks(_ data: [UInt8], size: Int = 255) -> [UInt8] {
        var out: [UInt8] = []
        var i = 0
        while i < data.count {
            let n = min(size, data.count - i)
            out.append(UInt8(n))
            out += data[i..<(i + n)]
            i += n
        }
        return out + [0]
    }

    mutating func extensionBlock(_ label: UInt8, _ blocks: [[UInt8]]) {
        bytes += [0x21, label]
        for b in blocks { bytes += [UInt8(b.count)] + b }
        bytes.append(0)
    }

    /// A Graphic Control Extension (§23): `disposal` is the raw 3-bit method.
    mutating func graphicControl(disposal: Int = 0, delay: Int = 0, transparent: Int? = nil) {
        let packed = UInt8((disposal & 7) << 2) | (transparent == nil ? 0 : 1)
        extensionBlock(0xF9, [[packed] + Self.le16(delay) + [UInt8(transparent ?? 0)]])
    }

    mutating func loop(_ count: Int, identifier: String = "NETSCAPE2.0") {
        extensionBlock(0xFF, [Array(identifier.utf8), [1] + Self.le16(count)])
    }

    mutating func comment(_ text: String) {
        extensionBlock(0xFE, [Array(text.utf8)])
    }

    /// An Image Descriptor, optional local table, and LZW data for `indices` (rows in natural
    /// order; reordered when `interlaced`), or `data` as the raw LZW stream when given.
    mutating func image(x: Int = 0, y: Int = 0, width: Int, height: Int, indices: [UInt8] = [],
                        localTable: [[UInt8]]? = nil, interlaced: Bool = false, minimumCodeSize: Int = 8,
                        data: [UInt8]? = nil, subBlockSize: Int = 255) {
        let (flag, table) = Self.table(localTable)
        bytes += [0x2C] + Self.le16(x) + Self.le16(y) + Self.le16(width) + Self.le16(height)
        bytes += [flag | (interlaced ? 0x40 : 0)] + table + [UInt8(minimumCodeSize)]
        let stream = interlaced ? Self.interlace(indices, width: width, height: height) : indices
        bytes += Self.subBlocks(data ?? ReferenceLZWEncoder.encode(stream, minimumCodeSize: minimumCodeSize), size: subBlockSize)
    }

    mutating func trailer() { bytes.append(0x3B) }

    mutating func append(_ raw: [UInt8]) { bytes += raw }

    /// Rows in Appendix E order.
    static func interlace(_ indices: [UInt8], width: Int, height: Int) -> [UInt8] {
        var out: [UInt8] = []
        for (start, step) in [(0, 8), (4, 8), (2, 4), (1, 2)] {
            for y in stride(from: start, to: height, by: step) { out += indices[(y * width)..<((y + 1) * width)] }
        }
        return out
    }
}

/// GIF's LZW encoder (Appendix F). Codes are written with the width the decoder will read
/// them with: the decoder widens its codes once its next free entry passes the current width.
struct ReferenceLZWEncoder {
    private var out: [UInt8] = []
    private var bitBuffer = 0
    private var bitCount = 0
    let minimumCodeSize: Int
    let clear: Int
    /// The decoder's view: code width, next free entry, whether a previous code exists.
    private var width: Int
    private var decoderNext: Int
    private var decoderHasPrevious = false

    init(minimumCodeSize: Int) {
        self.minimumCodeSize = minimumCodeSize
        clear = 1 << minimumCodeSize
        width = minimumCodeSize + 1
        decoderNext = clear + 2
    }

    /// Writes `code` as the decoder will read it, and steps the decoder's state.
    mutating func emit(_ code: Int) {
        bitBuffer |= code << bitCount
        bitCount += width
        while bitCount >= 8 {
            out.append(UInt8(bitBuffer & 0xFF))
            bitBuffer >>= 8
            bitCount -= 8
        }
        if code == clear {
            width = minimumCodeSize + 1
            decoderNext = clear + 2
            decoderHasPrevious = false
            return
        }
        if decoderHasPrevious && decoderNext < 4096 { decoderNext += 1 }
        decoderHasPrevious = true
        if decoderNext >= (1 << width) && width < 12 { width += 1 }
    }

    mutating func finish() -> [UInt8] {
        if bitCount > 0 { out.append(UInt8(bitBuffer & 0xFF)) }
        bitBuffer = 0
        bitCount = 0
        return out
    }

    /// Encodes `indices`. With `deferredClear`, a full table is kept (no clear code, no new
    /// entries); `clearFirst` and `endCode` control the leading clear and trailing end codes.
    static func encode(_ indices: [UInt8], minimumCodeSize: Int, deferredClear: Bool = false,
                       clearFirst: Bool = true, endCode: Bool = true) -> [UInt8] {
        var e = ReferenceLZWEncoder(minimumCodeSize: minimumCodeSize)
        let clear = e.clear
        var dictionary: [Int: Int] = [:]
        var next = clear + 2
        if clearFirst { e.emit(clear) }
        var w = -1
        for byte in indices {
            let k = Int(byte) & (clear - 1)
            if w < 0 { w = k; continue }
            if let code = dictionary[w << 8 | k] { w = code; continue }
            e.emit(w)
            if next < 4096 {
                dictionary[w << 8 | k] = next
                next += 1
            }
            if next == 4096 && !deferredClear {
                e.emit(clear)
                dictionary = [:]
                next = clear + 2
            }
            w = k
        }
        if w >= 0 { e.emit(w) }
        if endCode { e.emit(clear + 1) }
        return e.finish()
    }
}
