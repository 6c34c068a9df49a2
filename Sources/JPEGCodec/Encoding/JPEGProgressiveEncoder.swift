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

    /// `encode_mcu_AC_first`: the band's magnitudes shifted right by Al, found through a mask of
    /// the non-zero ones (as libjpeg-turbo's `zerobits`), zero runs over 15 as ZRL, the trailing
    /// zeros counted into the EOB run.
    private mutating func acFirst<Sink: JPEGEntropySink>(_ block: UnsafePointer<Int16>, slot: Int, into sink: inout Sink) {
        let al = Int32(scan.al), ss = scan.ss, count = scan.se - scan.ss + 1
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 128) { values in
            var mask: UInt64 = 0
            zigzagToNatural.withUnsafeBufferPointer { zigzag in
                // Branch-free: every position is written, the mask says which count.
                for i in 0..<count {
                    let value = Int32(block[zigzag[ss &+ i]])
                    let negative = value &>> 31
                    let magnitude = ((value ^ negative) &- negative) &>> al
                    values[i] = UInt32(bitPattern: magnitude)
                    values[64 &+ i] = UInt32(bitPattern: magnitude ^ negative)
                    mask |= UInt64(magnitude != 0 ? 1 : 0) &<< UInt64(i)
                }
            }
            if mask != 0 { emitEOBRun(slot: slot, into: &sink) }
            var next = 0
            while mask != 0 {
                let zeros = mask.trailingZeroBitCount
                var run = zeros
                let i = next &+ zeros
                while run > 15 {
                    sink.symbol(slot, 0xF0, extra: 0, extraLength: 0)
                    run &-= 16
                }
                let bits = 32 &- values[i].leadingZeroBitCount
                sink.symbol(slot, run &<< 4 &+ bits, extra: values[64 &+ i], extraLength: bits)
                next = i &+ 1
                mask = zeros == 63 ? 0 : mask &>> UInt64(zeros &+ 1)
            }
            if next < count {
                eobRun &+= 1
                if eobRun == 0x7FFF { emitEOBRun(slot: slot, into: &sink) }
            }
        }
    }

    /// `encode_mcu_AC_refine`: coefficients that become non-zero in this scan are coded as
    /// run/size 1 with a sign bit; those already non-zero give a correction bit, buffered until
    /// the next symbol; ZRL only up to the last newly non-zero one (EOB), whose position a first
    /// pass finds, with the mask of every non-zero magnitude.
    private mutating func acRefine<Sink: JPEGEntropySink>(_ block: UnsafePointer<Int16>, slot: Int, into sink: inout Sink) {
        let al = Int32(scan.al), ss = scan.ss, count = scan.se - scan.ss + 1
        withUnsafeTemporaryAllocation(of: Int32.self, capacity: 64) { magnitudes in
            var mask: UInt64 = 0, signs: UInt64 = 0
            var lastNew = -1
            zigzagToNatural.withUnsafeBufferPointer { zigzag in
                // Branch-free: the masks and the last newly non-zero position by selects.
                for i in 0..<count {
                    let value = Int32(block[zigzag[ss &+ i]])
                    let negative = value &>> 31
                    let magnitude = ((value ^ negative) &- negative) &>> al
                    magnitudes[i] = magnitude
                    let nonzero = UInt64(magnitude != 0 ? 1 : 0)
                    mask |= nonzero &<< UInt64(i)
                    signs |= (nonzero & UInt64(bitPattern: Int64(~negative) & 1)) &<< UInt64(i)
                    lastNew = magnitude == 1 ? i : lastNew
                }
            }
            // This block's correction bits, oldest in the highest position.
            var corrections: UInt64 = 0, correctionCount = 0
            var run = 0, next = 0
            while mask != 0 {
                let zeros = mask.trailingZeroBitCount
                let i = next &+ zeros
                run &+= zeros
                next = i &+ 1
                mask = zeros == 63 ? 0 : mask &>> UInt64(zeros &+ 1)
                while run > 15 && i <= lastNew {
                    emitEOBRun(slot: slot, into: &sink)
                    sink.symbol(slot, 0xF0, extra: 0, extraLength: 0)
                    run &-= 16
                    Self.emit(corrections, correctionCount, into: &sink)
                    corrections = 0
                    correctionCount = 0
                }
                let magnitude = magnitudes[i]
                if magnitude > 1 {
                    corrections = corrections &<< 1 | UInt64(magnitude & 1)
                    correctionCount &+= 1
                    continue
                }
                emitEOBRun(slot: slot, into: &sink)
                sink.symbol(slot, run &<< 4 &+ 1, extra: UInt32(truncatingIfNeeded: signs &>> UInt64(i)) & 1, extraLength: 1)
                Self.emit(corrections, correctionCount, into: &sink)
                corrections = 0
                correctionCount = 0
                run = 0
            }
            run &+= count &- next
            if run > 0 || correctionCount > 0 {
                eobRun &+= 1
                var k = correctionCount
                while k > 0 {
                    k &-= 1
                    pending.append(UInt8(truncatingIfNeeded: corrections &>> UInt64(k)) & 1)
                }
                if eobRun == 0x7FFF || pending.count > Self.maxPendingBits { emitEOBRun(slot: slot, into: &sink) }
            }
        }
    }

    /// Writes `count` buffered correction bits (at most 63, oldest highest).
    @inline(__always)
    private static func emit<Sink: JPEGEntropySink>(_ bits: UInt64, _ count: Int, into sink: inout Sink) {
        guard Sink.writes, count > 0 else { return }
        if count > 32 {
            sink.bits(UInt32(truncatingIfNeeded: bits &>> UInt64(32)), count &- 32)
            sink.bits(UInt32(truncatingIfNeeded: bits), 32)
        } else {
            sink.bits(UInt32(truncatingIfNeeded: bits) & (UInt32.max &>> UInt32(32 &- count)), count)
        }
    }
}
