import CodecCore

/// Decodes the Huffman-coded MCUs of one scan (T.81 F.2.2 sequential, G.1.2 progressive) into
/// coefficients, resumable between MCUs, with restart intervals handled as libjpeg-turbo does.
struct JPEGHuffmanScanDecoder: JPEGIntervalDecoding {
    /// Which procedure the scan's MCUs follow.
    enum Procedure { case sequential, dcFirst, dcRefine, acFirst, acRefine }

    let procedure: Procedure
    /// The scan's procedure, spectral band and Al, for the block decoders.
    private let band: Band
    /// Every table the scan uses, one after another (``JPEGHuffmanTable/data``), and where
    /// each scan component's DC and AC table starts in it (−1: not used by this scan).
    private let tables: [Int32]
    private let dcTable: [Int]
    private let acTable: [Int]
    private var state = BlockState()
    var stream: JPEGEntropyStream
    let restartInterval: Int
    var restartsToGo: Int
    /// The scan's MCUs and where their blocks lie; MCUs in the scan, per line; the next one to decode.
    let layout: JPEGMCULayout
    var mcuCount: Int { layout.mcuCount }
    var mcusPerLine: Int { layout.mcusPerLine }
    var nextMCU = 0
    /// The last MCU begun with data left (libjpeg's `last_good_iMCU_row`, by MCU): block
    /// smoothing treats the rows after it as not reached by this scan.
    private(set) var lastGoodMCU = 0

    /// The most bytes one MCU can take: 10 blocks of 64 coefficients of at most 32 bits each,
    /// every byte stuffed; decoding waits until that much has arrived or the data has ended.
    let margin = 10 * 64 * 4 * 2 + 64

    /// A decoder for `scan` of `frame`; refuses what libjpeg-turbo refuses when a scan starts:
    /// an invalid progression (G.1.1.1) and invalid Huffman tables.
    init(frame: JPEGFrameHeader, scan: JPEGScan) throws(DecodingError) {
        let h = scan.header
        procedure = try Self.procedure(frame: frame, header: h)
        band = Band(procedure: procedure, ss: h.ss, se: h.se, al: h.al)
        let needsDC = procedure == .sequential || procedure == .dcFirst
        let needsAC = procedure == .sequential || procedure == .acFirst || procedure == .acRefine
        var data: [Int32] = [], dc: [Int] = [], ac: [Int] = []
        func spec(_ defined: JPEGHuffmanSpec?, isAC: Bool, index: Int) throws(DecodingError) -> JPEGHuffmanSpec {
            guard let spec = defined ?? JPEGStandardTables.spec(isAC: isAC, index: index) else {
                throw .invalidData("JPEG scan uses an undefined Huffman table")
            }
            return spec
        }
        for (i, c) in h.components.enumerated() {
            dc.append(needsDC ? data.count : -1)
            if needsDC { data += try JPEGHuffmanTable(spec(scan.dcTables[i], isAC: false, index: c.dcTable), isDC: true).data }
            ac.append(needsAC ? data.count : -1)
            if needsAC { data += try JPEGHuffmanTable(spec(scan.acTables[i], isAC: true, index: c.acTable), isDC: false).data }
        }
        tables = data
        dcTable = dc
        acTable = ac
        stream = JPEGEntropyStream(start: scan.dataStart)
        restartInterval = scan.restartInterval
        restartsToGo = scan.restartInterval
        layout = JPEGMCULayout(frame: frame, header: h)
    }

    /// The procedure of a scan of `frame`; refuses an invalid progression (G.1.1.1) as
    /// libjpeg-turbo does when a scan starts, for Huffman and arithmetic coding alike.
    static func procedure(frame: JPEGFrameHeader, header h: JPEGScanHeader) throws(DecodingError) -> Procedure {
        guard frame.isProgressive else { return .sequential }
        let isDC = h.ss == 0
        let bad = (isDC ? h.se != 0 : h.ss > h.se || h.se > 63 || h.components.count != 1)
            || (h.ah != 0 && h.al != h.ah - 1) || h.al > 13
        guard !bad else { throw .invalidData("JPEG progressive scan parameters are invalid") }
        return isDC ? (h.ah == 0 ? .dcFirst : .dcRefine) : (h.ah == 0 ? .acFirst : .acRefine)
    }

    var isFinished: Bool { nextMCU >= mcuCount }

    /// The MCU row (in the scan's MCU grid) of the next MCU to decode.
    var nextMCURow: Int { nextMCU / mcusPerLine }

    /// An MCU read past the interval's data: the rest of the interval is left at zero.
    var intervalExhausted: Bool { stream.ranOut }

    mutating func restartEntropyCoding() { state = BlockState() }

    /// Decodes MCUs from ``nextMCU`` (at least one, whose margin the caller has checked) up to
    /// `runEnd`, all of one restart interval, while the margin holds or the data has ended, and
    /// until an MCU reads past the data. Returns how many MCUs it decoded. The buffers are
    /// acquired once for the run and the bit reader is a local (so that it stays in registers
    /// while coefficients are stored): this is the hot loop.
    mutating func decodeRun(upTo runEnd: Int, dataEnded: Bool, _ store: JPEGBlockStore) -> Int {
        let grid = store.grid, subsetting = store.isSubset, bases = store.bases
        let blocks = layout.blocks, widths = layout.widths, heights = layout.heights
        let mcusPerLine = mcusPerLine, tables = tables, dcTable = dcTable, acTable = acTable
        let first = nextMCU
        var n = first, lastGood = lastGoodMCU, state = state
        // The stream is moved out while its reader is in use (no copy of its buffer is made).
        var local = JPEGEntropyStream(start: 0)
        swap(&local, &stream)
        defer { swap(&local, &stream) }
        let keptNaturals = grid.keptNaturals
        let staged = procedure == .sequential
        // The block procedures are static and take the band from a local, so that calling them
        // from these closures never copies `self` (which would retain every buffer it holds, per block).
        let band = band
        local.withReader { reader, bytes in
            tables.withUnsafeBufferPointer { t in
                naturalOrder.withUnsafeBufferPointer { zigzag in
                    keptNaturals.withUnsafeBufferPointer { naturals in
                        withUnsafeTemporaryAllocation(of: Int16.self, capacity: 64) { scratch in
                            scratch.initialize(repeating: 0)
                            var r = reader
                            var mx = n % mcusPerLine, my = n / mcusPerLine
                            repeat {
                                lastGood = n
                                for b in blocks {
                                    let x = mx &* widths[b.scanComponent] &+ b.dx, y = my &* heights[b.scanComponent] &+ b.dy
                                    let record = bases[b.component]! + grid.offset(b.component, x: x, y: y)
                                    let s = b.scanComponent
                                    let dc = t.baseAddress! + max(dcTable[s], 0), ac = t.baseAddress! + max(acTable[s], 0)
                                    let keptCount = subsetting ? grid.keptCounts[b.component] : 0
                                    if keptCount > 0 {
                                        let kept = naturals.baseAddress! + 64 &* b.component
                                        JPEGCoefficientSubset.expand(record, keptCount: keptCount, kept: kept, into: scratch.baseAddress!)
                                        Self.decodeBlock(scratch.baseAddress!, band, s, dc, ac, zigzag.baseAddress!, &state, &r, bytes)
                                        JPEGCoefficientSubset.compact(scratch.baseAddress!, keptCount: keptCount, kept: kept, into: record)
                                    } else if staged && bytes.count &- r.position >= Self.stagedBlockMargin {
                                        Self.decodeStagedSequentialBlock(record, dc, ac, zigzag.baseAddress!, &state.predictors[s], &r, bytes.baseAddress!)
                                    } else {
                                        Self.decodeBlock(record, band, s, dc, ac, zigzag.baseAddress!, &state, &r, bytes)
                                    }
                                }
                                n &+= 1
                                mx &+= 1
                                if mx == mcusPerLine {
                                    mx = 0
                                    my &+= 1
                                }
                            } while n < runEnd && r.count >= r.zeroBitsRead
                                && (dataEnded || bytes.count &- r.position >= margin)
                            reader = r
                        }
                    }
                }
            }
        }
        self.state = state
        lastGoodMCU = lastGood
        return n - first
    }

    /// The decoding state carried from block to block within a restart interval: the DC
    /// predictions of the scan components (F.2.1.3.1) and the end-of-band run (G.1.2.2).
    struct BlockState {
        var predictors = SIMD4<Int32>()
        var endOfBandRun = 0
    }

    /// What a block's decoding needs of the scan header: the procedure, the spectral band
    /// Ss…Se and the successive-approximation bit Al (G.1.1.1).
    struct Band {
        let procedure: Procedure
        let ss: Int
        let se: Int
        let al: Int
    }

    /// Decodes one block of scan component `s` with its DC and AC tables (``JPEGHuffmanTable/data``
    /// runs); `zigzag` is ``naturalOrder``.
    @inline(__always)
    private static func decodeBlock(_ block: UnsafeMutablePointer<Int16>, _ band: Band, _ s: Int, _ dc: UnsafePointer<Int32>,
                                    _ ac: UnsafePointer<Int32>, _ zigzag: UnsafePointer<Int>, _ state: inout BlockState,
                                    _ reader: inout MSBBitReader, _ bytes: UnsafeBufferPointer<UInt8>) {
        switch band.procedure {
        case .sequential:
            decodeDC(block, s, dc, shift: 0, &state, &reader, bytes)
            decodeSequentialAC(block, ac, zigzag, &reader, bytes)
        case .dcFirst:
            decodeDC(block, s, dc, shift: band.al, &state, &reader, bytes)
        case .dcRefine:
            if reader.takeBits(1, bytes) != 0 { block[0] |= Int16(truncatingIfNeeded: 1 << band.al) }
        case .acFirst:
            decodeACFirst(block, band, ac, zigzag, &state.endOfBandRun, &reader, bytes)
        case .acRefine:
            decodeACRefine(block, band, ac, zigzag, &state.endOfBandRun, &reader, bytes)
        }
    }

    /// F.2.2.1 (G.1.2.1 for a first DC scan): the DC difference, added to the predictor,
    /// stored shifted left by Al.
    @inline(__always)
    private static func decodeDC(_ block: UnsafeMutablePointer<Int16>, _ s: Int, _ table: UnsafePointer<Int32>, shift: Int,
                                 _ state: inout BlockState, _ reader: inout MSBBitReader, _ bytes: UnsafeBufferPointer<UInt8>) {
        let size = JPEGHuffmanTable.decode(table, &reader, bytes)
        let diff = size == 0 ? 0 : extend(reader.takeBits(size, bytes), size)
        let prediction = state.predictors[s] &+ diff
        state.predictors[s] = prediction
        block[0] = Int16(truncatingIfNeeded: prediction &<< Int32(shift))
    }

    /// F.2.2.2: the AC coefficients of a sequential block, run lengths and ZRL included. A code
    /// whose appended bits fit the 9-bit lookahead is taken whole from the fast table.
    private static func decodeSequentialAC(_ block: UnsafeMutablePointer<Int16>, _ table: UnsafePointer<Int32>,
                                           _ zigzag: UnsafePointer<Int>,
                                           _ bits: inout MSBBitReader, _ bytes: UnsafeBufferPointer<UInt8>) {
        // A local copy, so that the coefficient stores cannot alias the reader's state.
        var reader = bits
        defer { bits = reader }
        let fast = table + JPEGHuffmanTable.fastACBase
        var k = 1
        while k < 64 {
            if reader.count < JPEGHuffmanTable.lookaheadBits { reader.refill(bytes) }
            let entry = fast[reader.peekBits(JPEGHuffmanTable.lookaheadBits)]
            if entry != 0 {
                k &+= Int((entry >> 8) & 0xFF)
                block[zigzag[k]] = Int16(truncatingIfNeeded: entry >> 16)
                reader.dropBits(Int(entry & 0xFF))
                k &+= 1
                continue
            }
            let rs = JPEGHuffmanTable.decode(table, &reader, bytes)
            let r = rs >> 4, s = rs & 15
            if s != 0 {
                k += r
                block[zigzag[k]] = Int16(truncatingIfNeeded: extend(reader.takeBits(s, bytes), s))
                k += 1
            } else {
                if r != 15 { break }
                k += 16
            }
        }
    }

    /// G.1.2.2: the first scan of a spectral band, with end-of-band runs.
    private static func decodeACFirst(_ block: UnsafeMutablePointer<Int16>, _ band: Band, _ table: UnsafePointer<Int32>,
                                      _ zigzag: UnsafePointer<Int>, _ endOfBandRun: inout Int,
                                      _ reader: inout MSBBitReader, _ bytes: UnsafeBufferPointer<UInt8>) {
        if endOfBandRun > 0 { endOfBandRun -= 1; return }
        let se = band.se, al = Int32(band.al)
        var k = band.ss
        while k <= se {
            let rs = JPEGHuffmanTable.decode(table, &reader, bytes)
            let r = rs >> 4, s = rs & 15
            if s != 0 {
                k += r
                let value = extend(reader.takeBits(s, bytes), s)
                block[zigzag[k]] = Int16(truncatingIfNeeded: value &<< al)
                k += 1
            } else if r == 15 {
                k += 16
            } else {
                endOfBandRun = (1 << r) - 1
                if r > 0 { endOfBandRun += Int(reader.takeBits(r, bytes)) }
                break
            }
        }
    }

    /// G.1.2.3: a refinement scan of a spectral band. Coefficients already nonzero take a
    /// correction bit (added away from zero when set, once: a bit already applied is not
    /// applied again); a newly nonzero one becomes ±2^Al at the position its run reaches.
    private static func decodeACRefine(_ block: UnsafeMutablePointer<Int16>, _ band: Band, _ table: UnsafePointer<Int32>,
                                       _ zigzag: UnsafePointer<Int>, _ endOfBandRun: inout Int,
                                       _ reader: inout MSBBitReader, _ bytes: UnsafeBufferPointer<UInt8>) {
        let p1 = Int16(truncatingIfNeeded: 1 << band.al), m1 = Int16(truncatingIfNeeded: -1 << band.al)
        let se = band.se
        var k = band.ss
        @inline(__always) func correct(_ coefficient: UnsafeMutablePointer<Int16>, _ reader: inout MSBBitReader) {
            if reader.takeBits(1, bytes) != 0 && coefficient.pointee & p1 == 0 {
                coefficient.pointee = coefficient.pointee &+ (coefficient.pointee >= 0 ? p1 : m1)
            }
        }
        if endOfBandRun == 0 {
            while k <= se {
                let rs = JPEGHuffmanTable.decode(table, &reader, bytes)
                var r = rs >> 4
                let s = rs & 15
                var value: Int16 = 0
                if s != 0 {
                    value = reader.takeBits(1, bytes) != 0 ? p1 : m1
                } else if r != 15 {
                    endOfBandRun = 1 << r
                    if r > 0 { endOfBandRun += Int(reader.takeBits(r, bytes)) }
                    break
                }
                repeat {
                    let coefficient = block + zigzag[k]
                    if coefficient.pointee != 0 {
                        correct(coefficient, &reader)
                    } else {
                        r -= 1
                        if r < 0 { break }
                    }
                    k += 1
                } while k <= se
                if s != 0 { block[zigzag[k]] = value }
                k += 1
            }
        }
        if endOfBandRun > 0 {
            while k <= se {
                let coefficient = block + zigzag[k]
                if coefficient.pointee != 0 { correct(coefficient, &reader) }
                k += 1
            }
            endOfBandRun -= 1
        }
    }
}
