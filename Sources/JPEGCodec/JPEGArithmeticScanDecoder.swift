import CodecCore

/// The arithmetic coding conditioning in force (T.81 B.2.4.3, set by DAC segments): per DC
/// table the bounds L and U of F.1.4.4.1.2, per AC table the Kx of F.1.4.4.2. Sixteen of each,
/// as a DAC may name tables 0–15.
struct JPEGArithmeticConditioning: Equatable {
    /// The defaults of F.1.4.4.1.2 and F.1.4.4.2 (L = 0, U = 1, Kx = 5), in force from SOI.
    var dcL = [UInt8](repeating: 0, count: 16)
    var dcU = [UInt8](repeating: 1, count: 16)
    var acK = [UInt8](repeating: 5, count: 16)

    /// B.2.4.3: a DAC payload of (Tc/Tb, Cs) pairs. A DC table's Cs holds L in its low and U in
    /// its high nibble; an AC table's is Kx. Refused as libjpeg-turbo refuses them: a class
    /// above 1 (Tc/Tb ≥ 32), L > U, and a payload that is not whole pairs. (libjpeg-turbo takes
    /// any Kx, 0 and 64–255 included, and so does this.)
    mutating func define(_ p: [UInt8]) throws(DecodingError) {
        var i = 0
        while i + 1 < p.count {
            let index = Int(p[i]), value = p[i + 1]
            guard index < 32 else { throw .invalidData("JPEG DAC names a table class above 1") }
            if index >= 16 {
                acK[index - 16] = value
            } else {
                guard value & 15 <= value >> 4 else { throw .invalidData("JPEG DAC gives L above U") }
                dcL[index] = value & 15
                dcU[index] = value >> 4
            }
            i += 2
        }
        guard i == p.count else { throw .invalidData("JPEG DAC segment length is not whole pairs") }
    }
}

/// Decodes the arithmetic-coded MCUs of one scan (T.81 F.2.4 sequential, G.1.3 progressive)
/// into coefficients, resumable between MCUs, bit-exact with libjpeg-turbo's jdarith.c:
/// restart intervals reset the statistics and predictors (F.2.4.4 / G.1.3.3), and a code that
/// overflows the spectrum or the magnitude leaves the rest of its interval undecoded.
struct JPEGArithmeticScanDecoder: JPEGIntervalDecoding {
    /// Which procedure the scan's MCUs follow (the same five as Huffman coding's).
    typealias Procedure = JPEGHuffmanScanDecoder.Procedure

    let procedure: Procedure
    private let isProgressive: Bool
    /// Ss, Se and Al of the scan (sequential: 1, 63, 0).
    private let ss: Int
    private let se: Int
    private let al: Int
    /// The statistics areas (F.1.4.4.1.1, F.1.4.4.2.1): per DC table ``dcAreaSize`` bins, per
    /// AC table ``acAreaSize`` bins, then the fixed one-half bin. Sixteen tables of each, the
    /// selectors libjpeg-turbo takes in an arithmetic scan.
    private var statistics: [UInt8]
    /// Per scan component: the start of its DC and AC areas in ``statistics``, the DC
    /// difference magnitudes below which it is "zero" and above which "large" (F.1.4.4.1.2:
    /// 2^L / 2 and 2^U / 2), and Kx.
    private let dcArea: [Int]
    private let acArea: [Int]
    private let dcSmall: [Int]
    private let dcLarge: [Int]
    private let acK: [Int]
    private var predictors: [Int32]
    /// Per scan component, the DC context (Table F.4: the bin S0 of the next difference).
    private var dcContexts: [Int]
    private var registers = JPEGQMRegisters()
    /// A code overflowed (libjpeg-turbo's "spectral overflow" / "magnitude overflow" warning):
    /// the interval's remaining MCUs are left as they are, until the next restart.
    private var halted = false
    var stream: JPEGEntropyStream
    let restartInterval: Int
    var restartsToGo: Int
    /// The scan's MCUs and where their blocks lie; MCUs in the scan, per line; the next one to decode.
    let layout: JPEGMCULayout
    var mcuCount: Int { layout.mcuCount }
    var mcusPerLine: Int { layout.mcusPerLine }
    var nextMCU = 0
    /// The most staged bytes one MCU can read; decoding waits until that many have arrived or
    /// the data has ended (a marker, or the end of final input: zeros from there on).
    let margin: Int

    static let dcAreaSize = 64
    static let acAreaSize = 256
    private static let acBase = 16 * dcAreaSize
    private static let fixedBin = acBase + 16 * acAreaSize

    /// The margin, in bytes, is blocks × decisions × 2: a decision reads at most two bytes
    /// (``JPEGArithmeticDecoder``), and a block takes at most this many decisions. A DC
    /// difference: zero, sign, up to 16 magnitude-category and 14 magnitude bits (32); an AC
    /// coefficient: end of band, nonzero, sign, up to 16 category and 14 magnitude bits (33),
    /// plus one "zero" decision per skipped position and a final end of band (64 at most).
    /// A refinement block: an end of band per position and two per position visited. The
    /// largest, a 10-block sequential MCU, is 43,500 bytes, half of the staging buffer
    /// (``stagingCapacity``), so staging can always make it available.
    private static func decisionsPerBlock(_ procedure: Procedure) -> Int {
        switch procedure {
        case .sequential: 32 + 63 * 33 + 64
        case .dcFirst: 32
        case .dcRefine: 1
        case .acFirst: 63 * 33 + 64
        case .acRefine: 63 * 3
        }
    }

    /// The staging buffer of an arithmetic scan: twice the largest margin, rounded up.
    static let stagingCapacity = 1 << 17

    /// A decoder for `scan` of `frame`; refuses an invalid progression (G.1.1.1) as
    /// libjpeg-turbo does when the scan starts.
    init(frame: JPEGFrameHeader, scan: JPEGScan) throws(DecodingError) {
        let h = scan.header
        isProgressive = frame.isProgressive
        procedure = try JPEGHuffmanScanDecoder.procedure(frame: frame, header: h)
        if frame.isProgressive {
            (ss, se, al) = (h.ss, h.se, h.al)
        } else {
            // libjpeg-turbo only warns of other Ss, Se, Ah, Al in a sequential scan, and ignores them.
            (ss, se, al) = (1, 63, 0)
        }
        let c = scan.conditioning
        dcArea = h.components.map { $0.dcTable * Self.dcAreaSize }
        acArea = h.components.map { Self.acBase + $0.acTable * Self.acAreaSize }
        dcSmall = h.components.map { (1 << Int(c.dcL[$0.dcTable])) >> 1 }
        dcLarge = h.components.map { (1 << Int(c.dcU[$0.dcTable])) >> 1 }
        acK = h.components.map { Int(c.acK[$0.acTable]) }
        statistics = [UInt8](repeating: 0, count: Self.fixedBin + 1)
        statistics[Self.fixedBin] = JPEGQMTable.fixedState
        predictors = [Int32](repeating: 0, count: h.components.count)
        dcContexts = [Int](repeating: 0, count: h.components.count)
        stream = JPEGEntropyStream(start: scan.dataStart, capacity: Self.stagingCapacity)
        restartInterval = scan.restartInterval
        restartsToGo = scan.restartInterval
        layout = JPEGMCULayout(frame: frame, header: h)
        margin = layout.blocks.count * Self.decisionsPerBlock(procedure) * 2
    }

    var isFinished: Bool { nextMCU >= mcuCount }

    /// F.2.4.4 / G.1.3.3 (libjpeg-turbo's restart processing): the statistics areas the scan
    /// codes with start afresh, and so do the DC predictions, their contexts and the decoder
    /// (D.2.7 INITDEC). The statistics of the scan's start are these too.
    mutating func restartEntropyCoding() {
        let resetsDC = !isProgressive || procedure == .dcFirst
        let resetsAC = !isProgressive || ss != 0
        statistics.withUnsafeMutableBufferPointer { st in
            for s in predictors.indices {
                if resetsDC {
                    (st.baseAddress! + dcArea[s]).update(repeating: 0, count: Self.dcAreaSize)
                    predictors[s] = 0
                    dcContexts[s] = 0
                }
                if resetsAC { (st.baseAddress! + acArea[s]).update(repeating: 0, count: Self.acAreaSize) }
            }
        }
        registers.reset()
        halted = false
    }

    /// A code overflowed: the interval's remaining MCUs read nothing and stay as they are.
    var intervalExhausted: Bool { halted }

    /// Decodes MCUs from ``nextMCU`` (at least one, whose margin the caller has checked) up to
    /// `runEnd`, all of one restart interval, while the margin holds or the data has ended, or
    /// until a code overflows. Returns how many MCUs it decoded. The buffers are acquired once
    /// for the run: this is the hot loop.
    mutating func decodeRun(upTo runEnd: Int, dataEnded: Bool, _ store: JPEGBlockStore) -> Int {
        // The stream and the statistics are moved out while in use, so that the block decoders
        // may update the predictors and contexts (no copy of either buffer is made).
        var local = JPEGEntropyStream(start: 0)
        swap(&local, &stream)
        var stats: [UInt8] = []
        swap(&stats, &statistics)
        defer {
            swap(&local, &stream)
            swap(&stats, &statistics)
        }
        let grid = store.grid, subsetting = store.isSubset, bases = store.bases
        let blocks = layout.blocks, widths = layout.widths, heights = layout.heights
        let margin = margin, mcusPerLine = mcusPerLine
        let first = nextMCU
        var n = first
        let keptNaturals = grid.keptNaturals
        local.withBytes { position, bytes in
            stats.withUnsafeMutableBufferPointer { st in
                JPEGQMTable.entries.withUnsafeBufferPointer { table in
                    naturalOrder.withUnsafeBufferPointer { zigzag in
                        keptNaturals.withUnsafeBufferPointer { naturals in
                            withUnsafeTemporaryAllocation(of: Int16.self, capacity: 64) { scratch in
                                scratch.initialize(repeating: 0)
                                var d = JPEGArithmeticDecoder(registers: registers, position: position, bytes: bytes, table: table.baseAddress!)
                                var mx = n % mcusPerLine, my = n / mcusPerLine
                                repeat {
                                    for b in blocks {
                                        let x = mx * widths[b.scanComponent] + b.dx
                                        let y = my * heights[b.scanComponent] + b.dy
                                        let record = bases[b.component]! + grid.offset(b.component, x: x, y: y)
                                        let keptCount = subsetting ? grid.keptCounts[b.component] : 0
                                        if keptCount > 0 {
                                            let kept = naturals.baseAddress! + 64 &* b.component
                                            JPEGCoefficientSubset.expand(record, keptCount: keptCount, kept: kept, into: scratch.baseAddress!)
                                            decodeBlock(scratch.baseAddress!, b.scanComponent, &d, st.baseAddress!, zigzag.baseAddress!)
                                            JPEGCoefficientSubset.compact(scratch.baseAddress!, keptCount: keptCount, kept: kept, into: record)
                                        } else {
                                            decodeBlock(record, b.scanComponent, &d, st.baseAddress!, zigzag.baseAddress!)
                                        }
                                        if halted { break }
                                    }
                                    n += 1
                                    mx += 1
                                    if mx == mcusPerLine {
                                        mx = 0
                                        my += 1
                                    }
                                } while n < runEnd && !halted && (dataEnded || bytes.count - d.position >= margin)
                                registers = d.registers
                                position = d.position
                            }
                        }
                    }
                }
            }
        }
        return n - first
    }

    /// Decodes one block of scan component `s`; `stats` is ``statistics``, `zigzag` is
    /// ``naturalOrder``.
    @inline(__always)
    private mutating func decodeBlock(_ block: UnsafeMutablePointer<Int16>, _ s: Int, _ d: inout JPEGArithmeticDecoder,
                                      _ stats: UnsafeMutablePointer<UInt8>, _ zigzag: UnsafePointer<Int>) {
        let fixed = stats + Self.fixedBin
        switch procedure {
        case .sequential, .dcFirst:
            guard let diff = Self.decodeDCDifference(&d, stats + dcArea[s], context: &dcContexts[s],
                                                     small: dcSmall[s], large: dcLarge[s]) else {
                halted = true
                return
            }
            // F.2.1.3.1 (G.1.2.1): the prediction is kept modulo 2^16, as libjpeg-turbo keeps it.
            predictors[s] = (predictors[s] &+ diff) & 0xFFFF
            block[0] = Int16(truncatingIfNeeded: predictors[s] &<< Int32(al))
            if procedure == .sequential && !Self.decodeACBand(block, &d, stats + acArea[s], fixed, zigzag,
                                                              ss: ss, se: se, al: al, kx: acK[s]) {
                halted = true
            }
        case .dcRefine:
            // G.1.3.2: the next bit of the DC value, coded with the fixed one-half estimate.
            if d.decode(fixed) != 0 { block[0] |= Int16(truncatingIfNeeded: 1 << al) }
        case .acFirst:
            if !Self.decodeACBand(block, &d, stats + acArea[s], fixed, zigzag, ss: ss, se: se, al: al, kx: acK[s]) {
                halted = true
            }
        case .acRefine:
            if !Self.refineACBand(block, &d, stats + acArea[s], fixed, zigzag, ss: ss, se: se, al: al) { halted = true }
        }
    }

    /// F.2.4.1 (Figures F.19, F.21–F.24) with F.1.4.4.1: a DC difference, coded in the DC
    /// area `area` starting at the bin `context` names; updates `context` for the next one
    /// (F.1.4.4.1.2: zero, small or large, by sign). Nil when the magnitude category overflows
    /// (the context is then left as it was).
    @inline(__always)
    private static func decodeDCDifference(_ d: inout JPEGArithmeticDecoder, _ area: UnsafeMutablePointer<UInt8>,
                                           context: inout Int, small: Int, large: Int) -> Int32? {
        var st = area + context
        if d.decode(st) == 0 {
            context = 0
            return 0
        }
        let sign = d.decode(st + 1)
        st += 2 + sign
        var m = d.decode(st)
        if m != 0 {
            // Table F.4: the magnitude categories from X1 = S0 + 20.
            st = area + 20
            while d.decode(st) != 0 {
                m &<<= 1
                if m == 0x8000 { return nil }
                st += 1
            }
        }
        if m < small {
            context = 0
        } else if m > large {
            context = 12 + sign * 4
        } else {
            context = 4 + sign * 4
        }
        return Int32(truncatingIfNeeded: magnitude(&d, st + 14, m, sign))
    }

    /// Figure F.24: the bits of a magnitude below its top bit `m` (coded with bin `st`), then
    /// Figure F.21's value: 1 + the magnitude bits, negated when `sign` is 1.
    @inline(__always)
    private static func magnitude(_ d: inout JPEGArithmeticDecoder, _ st: UnsafeMutablePointer<UInt8>, _ top: Int, _ sign: Int) -> Int {
        var v = top, m = top &>> 1
        while m != 0 {
            if d.decode(st) != 0 { v |= m }
            m &>>= 1
        }
        v &+= 1
        return sign != 0 ? -v : v
    }

    /// F.2.4.2 (Figure F.20) with F.1.4.4.2, and G.1.3.2 for a first AC scan: the coefficients
    /// Ss…Se of a block, in the AC area `area`, stored shifted left by Al. False when a run or
    /// a magnitude category overflows.
    @inline(__always)
    private static func decodeACBand(_ block: UnsafeMutablePointer<Int16>, _ d: inout JPEGArithmeticDecoder,
                                     _ area: UnsafeMutablePointer<UInt8>, _ fixed: UnsafeMutablePointer<UInt8>,
                                     _ zigzag: UnsafePointer<Int>, ss: Int, se: Int, al: Int, kx: Int) -> Bool {
        var k = ss
        while k <= se {
            // Table F.5: SE = 3 × (K − 1), S0 = SE + 1, SP/SN = SE + 2.
            var st = area + 3 &* (k &- 1)
            if d.decode(st) != 0 { break }   // end of band
            while d.decode(st + 1) == 0 {
                st += 3
                k &+= 1
                if k > se { return false }
            }
            let sign = d.decode(fixed)
            st += 2
            var m = d.decode(st)
            if m != 0 && d.decode(st) != 0 {
                // Table F.5: X2 is 189 for K ≤ Kx, else 217 (the low and high bands).
                m = 2
                st = area + (k <= kx ? 189 : 217)
                while d.decode(st) != 0 {
                    m &<<= 1
                    if m == 0x8000 { return false }
                    st += 1
                }
            }
            let v = magnitude(&d, st + 14, m, sign)
            block[zigzag[k]] = Int16(truncatingIfNeeded: v &<< al)
            k &+= 1
        }
        return true
    }

    /// G.1.3.3 (Figure G.10): a refinement scan of the band Ss…Se. Positions up to the last
    /// coefficient already nonzero (EOBx) take no end-of-band decision; a nonzero coefficient
    /// takes a correction bit (added away from zero), a zero one may become ±2^Al. False when
    /// a run overflows the band.
    @inline(__always)
    private static func refineACBand(_ block: UnsafeMutablePointer<Int16>, _ d: inout JPEGArithmeticDecoder,
                                     _ area: UnsafeMutablePointer<UInt8>, _ fixed: UnsafeMutablePointer<UInt8>,
                                     _ zigzag: UnsafePointer<Int>, ss: Int, se: Int, al: Int) -> Bool {
        let p1 = Int16(truncatingIfNeeded: 1 << al), m1 = Int16(truncatingIfNeeded: -1 << al)
        var eobx = se
        while eobx > 0 && block[zigzag[eobx]] == 0 { eobx -= 1 }
        var k = ss
        while k <= se {
            var st = area + 3 &* (k &- 1)
            if k > eobx && d.decode(st) != 0 { break }
            while true {
                let coefficient = block + zigzag[k]
                if coefficient.pointee != 0 {
                    if d.decode(st + 2) != 0 {
                        coefficient.pointee = coefficient.pointee &+ (coefficient.pointee < 0 ? m1 : p1)
                    }
                    break
                }
                if d.decode(st + 1) != 0 {
                    coefficient.pointee = d.decode(fixed) != 0 ? m1 : p1
                    break
                }
                st += 3
                k &+= 1
                if k > se { return false }
            }
            k &+= 1
        }
        return true
    }
}
