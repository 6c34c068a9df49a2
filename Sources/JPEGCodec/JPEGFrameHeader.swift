import CodecCore

/// One image component of the frame header (T.81 B.2.2, Table B.2): identifier, sampling
/// factors and quantization table selector, with its size in blocks.
struct JPEGComponent: Equatable {
    /// Ci: the identifier scans name the component by.
    let identifier: UInt8
    /// Hi and Vi: horizontal and vertical sampling factors, 1–4.
    let h: Int
    let v: Int
    /// Tqi: the quantization table used when the component's blocks are reconstructed.
    let quantizationTable: Int
    /// Blocks per row and rows of blocks, covering whole MCUs (A.2.4: the padded size).
    var blocksPerLine = 0
    var blockRows = 0
    /// The component's own size in samples, rounded up (A.1.1: ⌈X × Hi / Hmax⌉).
    var width = 0
    var height = 0
}

/// The frame header (T.81 B.2.2): the coding process, precision, size and components.
struct JPEGFrameHeader: Equatable {
    /// The SOF marker code: 0xC0 baseline, 0xC1 extended, 0xC2 progressive (Huffman);
    /// 0xC9 extended, 0xCA progressive (arithmetic).
    let marker: UInt8
    /// P: sample precision; 8 is the only one decoded.
    let precision: Int
    /// Y and X: lines (0 until a DNL segment gives it, B.2.5) and samples per line.
    var height: Int
    let width: Int
    var components: [JPEGComponent]
    /// Hmax and Vmax.
    let maxH: Int
    let maxV: Int

    var isProgressive: Bool { marker == JPEGMarker.sof2 || marker == JPEGMarker.sof10 }
    var isArithmetic: Bool { marker == JPEGMarker.sof9 || marker == JPEGMarker.sof10 }

    /// MCUs per row and rows of MCUs in an interleaved scan (A.2.4).
    var mcusPerLine: Int { (width + 8 * maxH - 1) / (8 * maxH) }
    var mcuRows: Int { (height + 8 * maxV - 1) / (8 * maxV) }

    /// Parses the segment payload `p` (after the length); refuses what libjpeg-turbo refuses:
    /// precision other than 8 (12-bit is `unsupported`), no components or more than 4 (libjpeg
    /// takes up to 10 but converts only 1, 3 and 4 to RGB), a zero width, sampling factors
    /// outside 1–4, quantization selectors above 3. Repeated identifiers are accepted, as
    /// libjpeg-turbo accepts them (scans then name the components by position, see ``JPEGScanHeader``).
    init(marker: UInt8, _ p: [UInt8]) throws(DecodingError) {
        guard p.count >= 6 else { throw .invalidData("JPEG frame header is too short") }
        self.marker = marker
        precision = Int(p[0])
        guard precision == 8 else {
            throw precision == 12 ? .unsupported("12-bit JPEG is not supported") : .invalidData("JPEG sample precision is not 8")
        }
        height = Int(p[1]) << 8 | Int(p[2])
        width = Int(p[3]) << 8 | Int(p[4])
        let count = Int(p[5])
        guard width > 0 else { throw .invalidData("JPEG frame width is zero") }
        guard count == 1 || count == 3 || count == 4 else {
            throw count == 0 ? .invalidData("JPEG frame has no components") : .unsupported("JPEG component count is not 1, 3 or 4")
        }
        guard p.count >= 6 + 3 * count else { throw .invalidData("JPEG frame header is too short") }
        var components: [JPEGComponent] = []
        for i in 0..<count {
            let id = p[6 + 3 * i], sampling = p[7 + 3 * i], tq = Int(p[8 + 3 * i])
            let h = Int(sampling >> 4), v = Int(sampling & 15)
            guard (1...4).contains(h), (1...4).contains(v) else { throw .invalidData("JPEG sampling factor is not 1-4") }
            guard tq <= 3 else { throw .invalidData("JPEG quantization table selector is above 3") }
            components.append(JPEGComponent(identifier: id, h: h, v: v, quantizationTable: tq))
        }
        self.components = components
        maxH = components.map(\.h).max() ?? 1
        maxV = components.map(\.v).max() ?? 1
        if height > 0 { computeSizes() }
    }

    /// Sets each component's size in samples and in blocks, once the height is known.
    mutating func computeSizes() {
        for i in components.indices {
            let c = components[i]
            components[i].width = (width * c.h + maxH - 1) / maxH
            components[i].height = (height * c.v + maxV - 1) / maxV
            components[i].blocksPerLine = mcusPerLine * c.h
            components[i].blockRows = mcuRows * c.v
        }
    }
}

/// The scan header (T.81 B.2.3): the components of the scan, their entropy tables, and the
/// spectral selection and successive approximation of a progressive scan.
struct JPEGScanHeader: Equatable {
    /// Indices into the frame's components, in scan order, with their DC and AC table selectors.
    var components: [(index: Int, dcTable: Int, acTable: Int)]
    /// Ss, Se: the first and last coefficient (zigzag index); Ah, Al: the bit position of the
    /// previous and this scan (G.1.1.1).
    let ss: Int
    let se: Int
    let ah: Int
    let al: Int

    static func == (a: JPEGScanHeader, b: JPEGScanHeader) -> Bool {
        a.components.map(\.index) == b.components.map(\.index) && a.components.map(\.dcTable) == b.components.map(\.dcTable)
            && a.components.map(\.acTable) == b.components.map(\.acTable) && a.ss == b.ss && a.se == b.se && a.ah == b.ah && a.al == b.al
    }

    /// The frame component that scan component `position` names by `id`: as libjpeg-turbo's
    /// get_sos matches, the first of the frame's first four components with that identifier
    /// whose index is not below `position`. With distinct identifiers in frame order (B.2.3
    /// requires that order) that is the component with the identifier; with repeated ones
    /// (1,1,1 is seen in the wild) the scan's components map to the frame's in order.
    static func component(_ id: UInt8, at position: Int, _ frame: JPEGFrameHeader) -> Int? {
        frame.components.indices.first { $0 >= position && $0 < 4 && frame.components[$0].identifier == id }
    }

    /// Parses the payload `p` against `frame`: 1–4 components that the frame has, each once, and
    /// at most 10 blocks per MCU in an interleaved scan (B.2.3). Table selectors are checked when
    /// the scan starts, for the tables it uses, as libjpeg-turbo does: Huffman tables 0–3 (0 and
    /// 1 default to Annex K's), arithmetic conditioning 0–15 (libjpeg's `NUM_ARITH_TBLS`).
    init(_ p: [UInt8], frame: JPEGFrameHeader) throws(DecodingError) {
        guard let count = p.first.map(Int.init), (1...4).contains(count), p.count >= 4 + 2 * count else {
            throw .invalidData("JPEG scan header is malformed")
        }
        var components: [(Int, Int, Int)] = []
        for i in 0..<count {
            let id = p[1 + 2 * i], tables = p[2 + 2 * i]
            guard let index = Self.component(id, at: i, frame), !components.contains(where: { $0.0 == index }) else {
                throw .invalidData("JPEG scan names a component the frame lacks, twice, or out of frame order")
            }
            components.append((index, Int(tables >> 4), Int(tables & 15)))
        }
        if count > 1 {
            let blocks = components.reduce(0) { $0 + frame.components[$1.0].h * frame.components[$1.0].v }
            guard blocks <= 10 else { throw .invalidData("JPEG MCU has more than 10 blocks") }
        }
        self.components = components
        let tail = 1 + 2 * count
        ss = Int(p[tail])
        se = Int(p[tail + 1])
        ah = Int(p[tail + 2] >> 4)
        al = Int(p[tail + 2] & 15)
    }
}
