import CodecCore

/// Writes the blocks around the image data (GIF89a §17–§27) into a byte array.
enum GIFBlockWriter {
    /// Header (§17) "GIF89a" and Logical Screen Descriptor (§18), with the Global Color Table
    /// (§19) when `globalTable` is given. Background Color Index 0, no aspect ratio.
    static func header(width: Int, height: Int, globalTable: [UInt32]?, into out: inout [UInt8]) {
        out.append(contentsOf: [0x47, 0x49, 0x46, 0x38, 0x39, 0x61])
        le16(width, &out)
        le16(height, &out)
        if let globalTable {
            let bits = tableBits(globalTable.count)
            // Global Color Table Flag, Color Resolution (8 bits), size.
            out.append(0x80 | 0x70 | UInt8(truncatingIfNeeded: bits - 1))
            out.append(contentsOf: [0, 0])
            colorTable(globalTable, bits: bits, into: &out)
        } else {
            out.append(contentsOf: [0x70, 0, 0])
        }
    }

    /// The NETSCAPE2.0 Application Extension (§26) with its loop sub-block: `loopCount` plays
    /// after the first, 0 forever, in 0…65535.
    static func loop(_ loopCount: Int, into out: inout [UInt8]) {
        out.append(contentsOf: [0x21, 0xFF, 11])
        out.append(contentsOf: Array("NETSCAPE2.0".utf8))
        out.append(contentsOf: [3, 1])
        le16(loopCount, &out)
        out.append(0)
    }

    /// A Graphic Control Extension (§23): Disposal Method 1 (leave in place) or 2 (restore to
    /// background), Delay Time in centiseconds, Transparent Color Index.
    static func graphicControl(disposal: Disposal, delay: Int, transparentIndex: Int?, into out: inout [UInt8]) {
        let method: UInt8 = disposal == .background ? 2 : 1
        out.append(contentsOf: [0x21, 0xF9, 4, method << 2 | (transparentIndex == nil ? 0 : 1)])
        le16(delay, &out)
        out.append(contentsOf: [UInt8(truncatingIfNeeded: transparentIndex ?? 0), 0])
    }

    /// An Image Descriptor (§20) with its Interlace Flag and Local Color Table (§21) if given.
    static func imageDescriptor(_ rect: FrameRect, localTable: [UInt32]?, interlaced: Bool, into out: inout [UInt8]) {
        out.append(0x2C)
        le16(rect.x, &out)
        le16(rect.y, &out)
        le16(rect.width, &out)
        le16(rect.height, &out)
        let interlace: UInt8 = interlaced ? 0x40 : 0
        if let localTable {
            let bits = tableBits(localTable.count)
            out.append(0x80 | interlace | UInt8(truncatingIfNeeded: bits - 1))
            colorTable(localTable, bits: bits, into: &out)
        } else {
            out.append(interlace)
        }
    }

    /// The Trailer (§27).
    static func trailer(into out: inout [UInt8]) { out.append(0x3B) }

    /// The size exponent of a table of `count` colours: 2^bits entries, bits 1…8.
    static func tableBits(_ count: Int) -> Int {
        var bits = 1
        while (1 << bits) < count { bits += 1 }
        return bits
    }

    /// 3 bytes per entry, padded with black to 2^bits entries.
    private static func colorTable(_ colors: [UInt32], bits: Int, into out: inout [UInt8]) {
        for c in colors {
            out.append(contentsOf: [UInt8(truncatingIfNeeded: c), UInt8(truncatingIfNeeded: c >> 8), UInt8(truncatingIfNeeded: c >> 16)])
        }
        out.append(contentsOf: repeatElement(0, count: ((1 << bits) - colors.count) * 3))
    }

    private static func le16(_ v: Int, _ out: inout [UInt8]) {
        out.append(UInt8(truncatingIfNeeded: v))
        out.append(UInt8(truncatingIfNeeded: v >> 8))
    }
}
