/// Huffman encoding of a progressive scan (T.81 G.1.2; libjpeg's `jcphuff.c`): DC first scans
/// code the point-transformed DC difference (G.1.2.1), DC refinement scans one bit per block;
/// AC first scans code run/size symbols with end-of-band runs EOBRUN (G.1.2.2, Table G.1), AC
/// refinement scans code newly non-zero coefficients and buffer the correction bits of
/// coefficients already non-zero until the next symbol or EOB run is written (G.1.2.3). As in
/// libjpeg, an EOB run is written when it reaches 0x7FFF or when more than 937 correction bits
/// wait, and at each restart marker.
struct JPEGProgressiveEncoder {
    var walker: JPEGScanWalker
    let scan: JPEGScanSpec
    private var lastDC: [Int32]
    private var eobRun = 0
    /// Correction bits waiting for the EOB run they follow (libjpeg's `bit_buffer`, `BE`).
    private var pending: [UInt8] = []

    static let maxPendingBits = 1000 - 64 + 1

    init(walker: JPEGScanWalker, scan: JPEGScanSpec) {
        self.walker = walker
        self.scan = scan
        lastDC = [Int32](repeating: 0, count: walker.components.count)
    }

    /// Encodes the whole scan over `planes` (every iMCU row), then ends it: the last EOB run,
    /// padding to a byte.
    mutating func encode<Sink: JPEGEntropySink>(planes: [JPEGCoefficientPlane], iMCURows rows: Range<Int>, into sink: inout Sink) {
        let slots = walker.components.map { ($0.dcSlot, $0.acSlot) }
        var state = self
        let scan = self.scan
        walker.walk(planes: planes, iMCURows: rows, restart: { number in
            state.emitEOBRun(slot: slots[0].1, into: &sink)
            sink.restart(number)
            if scan.ss == 0 {
                for i in 0..<state.lastDC.count { state.lastDC[i] = 0 }
            } else {
                state.eobRun = 0
                state.pending.removeAll(keepingCapacity: true)
            }
        }, block: { position, block in
            let (dcSlot, acSlot) = slots[position]
            switch (scan.ss == 0, scan.ah == 0) {
            case (true, true): state.dcFirst(block, position: position, slot: dcSlot, into: &sink)
            case (true, false): sink.bits(UInt32(truncatingIfNeeded: Int32(block[0]) >> Int32(scan.al)) & 1, 1)
            case (false, true): state.acFirst(block, slot: acSlot, into: &sink)
            case (false, false): state.acRefine(block, slot: acSlot, into: &sink)
            }
        })
        lastDC = state.lastDC
        eobRun = state.eobRun
        pending = state.pending
        if scan.ss != 0 { emitEOBRun(slot: slots[0].1, into: &sink) }
    }

    private mutating func dcFirst<Sink: JPEGEntropySink>(_ block: UnsafePointer<Int16>, position: Int, slot: Int, into sink: inout Sink) {
        let value = Int32(block[0]) >> Int32(scan.al)
        let difference = value &- lastDC[position]
        lastDC[position] = value
        let bits = JPEGSequentialEncoder.category(difference)
        sink.symbol(slot, bits, extra: UInt32(bitPattern: difference < 0 ? difference &- 1 : difference), extraLength: bits)
    }

    /// `emit_eobrun`: the run as symbol (log2 run) << 4 and its low bits, then the waiting
    /// correction bits.
    private mutating func emitEOBRun<Sink: JPEGEntropySink>(slot: Int, into sink: inout Sink) {
        guard eobRun > 0 else { return }
        let bits = Int.bitWidth - 1 - eobRun.leadingZeroBitCount
        sink.symbol(slot, bits << 4, extra: UInt32(eobRun), extraLength: bits)
        eobRun = 0
        if Sink.writes { for bit in pending { sink.bits(UInt32(bit), 1) } }
        pending.removeAll(keepingCapacity: true)
    }

    private mutating func acFirst<Sink: JPEGEntropySink>(_ block: UnsafePointer<Int16>, slot: Int, into sink: inout Sink) {
        let al = Int32(scan.al)
        var run = 0
        for k in scan.ss...scan.se {
            let value = Int32(block[Int(JPEGZigzag.natural[k])])
            let magnitude = (value < 0 ? 0 &- value : value) >> al
            if magnitude == 0 {
                run += 1
                continue
            }
            emitEOBRun(slot: slot, into: &sink)
            while run > 15 {
                sink.symbol(slot, 0xF0, extra: 0, extraLength: 0)
                run -= 16
            }
            let bits = JPEGSequentialEncoder.category(magnitude)
            let extra = UInt32(bitPattern: value < 0 ? ~magnitude : magnitude)
            sink.symbol(slot, run << 4 + bits, extra: extra, extraLength: bits)
            run = 0
        }
        if run > 0 {
            eobRun += 1
            if eobRun == 0x7FFF { emitEOBRun(slot: slot, into: &sink) }
        }
    }

    /// G.1.2.3 for one block, with libjpeg's buffering: the correction bits of this block wait
    /// at the end of `pending` (from `blockStart`) until a symbol is written; those before
    /// `blockStart` belong to the EOB run and go out with it.
    private mutating func acRefine<Sink: JPEGEntropySink>(_ block: UnsafePointer<Int16>, slot: Int, into sink: inout Sink) {
        let al = Int32(scan.al), zigzag = JPEGZigzag.natural
        var lastNew = 0
        for k in scan.ss...scan.se {
            let value = Int32(block[Int(zigzag[k])])
            if (value < 0 ? 0 &- value : value) >> al == 1 { lastNew = k }
        }
        var run = 0
        var blockStart = pending.count
        for k in scan.ss...scan.se {
            let value = Int32(block[Int(zigzag[k])])
            let magnitude = (value < 0 ? 0 &- value : value) >> al
            if magnitude == 0 {
                run += 1
                continue
            }
            while run > 15 && k <= lastNew {
                emitEOBRun(slot: slot, before: blockStart, into: &sink)
                sink.symbol(slot, 0xF0, extra: 0, extraLength: 0)
                run -= 16
                writePending(into: &sink)
                blockStart = 0
            }
            if magnitude > 1 {
                pending.append(UInt8(magnitude & 1))
                continue
            }
            emitEOBRun(slot: slot, before: blockStart, into: &sink)
            sink.symbol(slot, run << 4 + 1, extra: 0, extraLength: 0)
            sink.bits(value < 0 ? 0 : 1, 1)
            writePending(into: &sink)
            blockStart = 0
            run = 0
        }
        if run > 0 || pending.count > blockStart {
            eobRun += 1
            if eobRun == 0x7FFF || pending.count > Self.maxPendingBits { emitEOBRun(slot: slot, into: &sink) }
        }
    }

    /// `emit_eobrun` when this block's correction bits (from `blockStart`) are already in
    /// `pending`: the run and the bits before them; this block's stay.
    private mutating func emitEOBRun<Sink: JPEGEntropySink>(slot: Int, before blockStart: Int, into sink: inout Sink) {
        guard eobRun > 0 else { return }
        let bits = Int.bitWidth - 1 - eobRun.leadingZeroBitCount
        sink.symbol(slot, bits << 4, extra: UInt32(eobRun), extraLength: bits)
        eobRun = 0
        if Sink.writes { for i in 0..<blockStart { sink.bits(UInt32(pending[i]), 1) } }
        pending.removeFirst(blockStart)
    }

    /// Writes every waiting correction bit (this block's, once the older ones went out).
    private mutating func writePending<Sink: JPEGEntropySink>(into sink: inout Sink) {
        if Sink.writes { for bit in pending { sink.bits(UInt32(bit), 1) } }
        pending.removeAll(keepingCapacity: true)
    }
}
