/// One scan to write: its components (frame indices), spectral selection and successive
/// approximation (T.81 B.2.3, G.1.1.1).
struct JPEGScanSpec: Equatable {
    let components: [Int]
    let ss: Int
    let se: Int
    let ah: Int
    let al: Int
}

/// The frame a transcode writes: size, per component its sampling, Huffman table numbers and
/// blocks (`JPEGCoefficientPlane`s of exactly ⌈size/8⌉ blocks).
struct JPEGOutputFrame {
    let width: Int
    let height: Int
    let sampling: [(h: Int, v: Int)]
    let huffmanTables: [Int]
    var planes: [JPEGCoefficientPlane]

    var maxH: Int { sampling.map(\.h).max() ?? 1 }
    var maxV: Int { sampling.map(\.v).max() ?? 1 }
}

/// Entropy-codes the blocks of one scan into a ``JPEGSymbolSink``, as libjpeg-turbo's
/// `jchuff.c` (sequential, F.1.2) and `jcphuff.c` (progressive, G.1.2) do: DC differences,
/// zero runs with ZRL and EOB, EOB runs and buffered correction bits; the dummy blocks that
/// complete an interleaved scan's edge MCUs have zero AC coefficients and the DC of the block
/// coded before them (`jctrans.c`'s `compress_output`).
struct JPEGScanEncoder<Sink: JPEGSymbolSink> {
    var sink: Sink
    private let scan: JPEGScanSpec
    private let dcTable: [Int]
    private let acTable: [Int]
    private var lastDC = [Int](repeating: 0, count: 4)
    private var eobrun = 0
    /// Correction bits of earlier blocks waiting for their EOB run (BE), and of this block (BR)
    /// after them.
    private var correction = [UInt8](repeating: 0, count: 1100)
    private var be = 0
    /// A coefficient that the Huffman code cannot express (libjpeg's `JERR_BAD_DCT_COEF`).
    private(set) var overflow = false

    /// libjpeg's `MAX_CORR_BITS`.
    private static var maxCorrectionBits: Int { 1000 }

    init(sink: Sink, scan: JPEGScanSpec, tables: [Int]) {
        self.sink = sink
        self.scan = scan
        dcTable = scan.components.map { tables[$0] }
        acTable = scan.components.map { 4 + tables[$0] }
    }

    /// Codes every MCU of the scan, then the pending EOB run, and pads the last byte.
    mutating func encode(_ frame: JPEGOutputFrame) {
        naturalOrder.withUnsafeBufferPointer { natural in
            var dummy = [Int16](repeating: 0, count: 64)
            dummy.withUnsafeMutableBufferPointer { dummyBlock in
                if scan.components.count == 1 {
                    let plane = frame.planes[scan.components[0]]
                    plane.coefficients.withUnsafeBufferPointer { p in
                        for i in 0..<(plane.blocksWide * plane.blocksHigh) {
                            block(p.baseAddress! + i &* 64, 0, natural.baseAddress!)
                        }
                    }
                } else {
                    encodeInterleaved(frame, natural.baseAddress!, dummyBlock.baseAddress!)
                }
            }
        }
        emitEOBRun()
    }

    /// A.2.3: MCUs of `h × v` blocks of each component; blocks past a component's edge are
    /// dummies.
    private mutating func encodeInterleaved(_ frame: JPEGOutputFrame, _ natural: UnsafePointer<Int>,
                                            _ dummy: UnsafeMutablePointer<Int16>) {
        let mcusPerLine = (frame.width + 8 * frame.maxH - 1) / (8 * frame.maxH)
        let mcuRows = (frame.height + 8 * frame.maxV - 1) / (8 * frame.maxV)
        for my in 0..<mcuRows {
            for mx in 0..<mcusPerLine {
                for (sc, c) in scan.components.enumerated() {
                    let (h, v) = frame.sampling[c]
                    let plane = frame.planes[c]
                    plane.coefficients.withUnsafeBufferPointer { p in
                        var previousDC: Int16 = 0
                        for by in 0..<v {
                            for bx in 0..<h {
                                let x = mx * h + bx, y = my * v + by
                                if x < plane.blocksWide && y < plane.blocksHigh {
                                    let b = p.baseAddress! + plane.offset(x: x, y: y)
                                    previousDC = b[0]
                                    block(b, sc, natural)
                                } else {
                                    dummy[0] = previousDC
                                    block(dummy, sc, natural)
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    @inline(__always)
    private mutating func block(_ b: UnsafePointer<Int16>, _ sc: Int, _ natural: UnsafePointer<Int>) {
        if scan.ss == 0 {
            if scan.se > 0 {
                sequential(b, sc, natural)
            } else if scan.ah == 0 {
                dcDifference(Int(b[0]) >> scan.al, sc)
            } else {
                sink.bits(UInt32((Int(b[0]) >> scan.al) & 1), 1)
            }
        } else if scan.ah == 0 {
            acFirst(b, natural)
        } else {
            acRefine(b, natural)
        }
    }

    @inline(__always)
    private static func bitLength(_ a: Int) -> Int { Int.bitWidth &- a.leadingZeroBitCount }

    /// F.1.2.1 / G.1.2.1: the DC difference's size category and its bits.
    @inline(__always)
    private mutating func dcDifference(_ value: Int, _ sc: Int) {
        let diff = value &- lastDC[sc]
        lastDC[sc] = value
        let n = Self.bitLength(diff < 0 ? 0 &- diff : diff)
        if n > 11 { overflow = true; return }
        sink.symbol(dcTable[sc], n)
        if n > 0 { sink.bits(UInt32(truncatingIfNeeded: diff < 0 ? diff &- 1 : diff), n) }
    }

    /// F.1.2.2: a sequential block's DC, then its AC coefficients as runs and sizes.
    private mutating func sequential(_ b: UnsafePointer<Int16>, _ sc: Int, _ natural: UnsafePointer<Int>) {
        dcDifference(Int(b[0]), sc)
        let ac = acTable[sc]
        var r = 0
        for k in 1..<64 {
            let v = Int(b[natural[k]])
            if v == 0 { r &+= 1; continue }
            while r > 15 { sink.symbol(ac, 0xF0); r &-= 16 }
            let n = Self.bitLength(v < 0 ? 0 &- v : v)
            if n > 10 { overflow = true; return }
            sink.symbol(ac, r << 4 | n)
            sink.bits(UInt32(truncatingIfNeeded: v < 0 ? v &- 1 : v), n)
            r = 0
        }
        if r > 0 { sink.symbol(ac, 0) }
    }

    /// G.1.2.2: the first scan of a band, magnitudes shifted right by Al, EOB runs across blocks.
    private mutating func acFirst(_ b: UnsafePointer<Int16>, _ natural: UnsafePointer<Int>) {
        let ac = acTable[0], al = scan.al
        var r = 0
        for k in scan.ss...scan.se {
            let v = Int(b[natural[k]])
            let a = (v < 0 ? 0 &- v : v) >> al
            if a == 0 { r &+= 1; continue }
            if eobrun > 0 { emitEOBRun() }
            while r > 15 { sink.symbol(ac, 0xF0); r &-= 16 }
            let n = Self.bitLength(a)
            if n > 10 { overflow = true; return }
            sink.symbol(ac, r << 4 | n)
            sink.bits(UInt32(truncatingIfNeeded: v < 0 ? ~a : a), n)
            r = 0
        }
        if r > 0 {
            eobrun &+= 1
            if eobrun == 0x7FFF { emitEOBRun() }
        }
    }

    /// G.1.2.3: a refinement scan: newly nonzero coefficients as run/size 1 and a sign bit,
    /// correction bits for those already nonzero, buffered until the next symbol is written.
    private mutating func acRefine(_ b: UnsafePointer<Int16>, _ natural: UnsafePointer<Int>) {
        let ac = acTable[0], al = scan.al
        // EOB: the last coefficient that becomes nonzero in this scan.
        var eob = -1
        for k in scan.ss...scan.se {
            let v = Int(b[natural[k]])
            if (v < 0 ? 0 &- v : v) >> al == 1 { eob = k }
        }
        var r = 0, br = 0, brStart = be
        for k in scan.ss...scan.se {
            let v = Int(b[natural[k]])
            let a = (v < 0 ? 0 &- v : v) >> al
            if a == 0 { r &+= 1; continue }
            while r > 15 && k <= eob {
                emitEOBRun()
                sink.symbol(ac, 0xF0)
                r &-= 16
                emitCorrection(from: brStart, count: br)
                brStart = 0
                br = 0
            }
            if a > 1 {
                correction[brStart &+ br] = UInt8(a & 1)
                br &+= 1
                continue
            }
            emitEOBRun()
            sink.symbol(ac, r << 4 | 1)
            sink.bits(v < 0 ? 0 : 1, 1)
            emitCorrection(from: brStart, count: br)
            brStart = 0
            br = 0
            r = 0
        }
        if r > 0 || br > 0 {
            eobrun &+= 1
            be &+= br
            if eobrun == 0x7FFF || be > Self.maxCorrectionBits - 64 + 1 { emitEOBRun() }
        }
    }

    private mutating func emitCorrection(from start: Int, count: Int) {
        guard sink.writesBits else { return }
        for i in start..<(start + count) { sink.bits(UInt32(correction[i]), 1) }
    }

    /// G.1.2.2: the pending EOB run (EOBn symbol and its low bits), then the correction bits
    /// buffered for its blocks.
    private mutating func emitEOBRun() {
        guard eobrun > 0 else { return }
        let n = Self.bitLength(eobrun) - 1
        sink.symbol(acTable[0], n << 4)
        if n > 0 { sink.bits(UInt32(eobrun), n) }
        eobrun = 0
        emitCorrection(from: 0, count: be)
        be = 0
    }
}
