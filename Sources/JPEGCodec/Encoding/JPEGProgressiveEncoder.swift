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
    private let pending = JPEGCorrectionBits()

    static let maxPendingBits = 1000 - 64 + 1
    /// ``JPEGZigzag`` tables, read once here (not a global's lazy-initialisation check per block).
    private let natural = JPEGZigzag.natural, rowBits = JPEGZigzag.rowBits, categories = JPEGZigzag.categories

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
        let scan = self.scan, band = bandBits
        walker.walk(planes: planes, iMCURows: rows, restart: { number in
            state.emitEOBRun(slot: slots[0].1, into: &sink)
            sink.restart(number)
            if scan.ss == 0 {
                for i in 0..<state.lastDC.count { state.lastDC[i] = 0 }
            } else {
                state.eobRun = 0
                state.pending.count = 0
            }
        }, block: { position, block in
            let (dcSlot, acSlot) = slots[position]
            switch (scan.ss == 0, scan.ah == 0) {
            case (true, true): state.dcFirst(block, position: position, slot: dcSlot, into: &sink)
            case (true, false): sink.bits(UInt32(truncatingIfNeeded: Int32(block[0]) >> Int32(scan.al)) & 1, 1)
            case (false, true): state.acFirst(block, slot: acSlot, band: band, into: &sink)
            case (false, false): state.acRefine(block, slot: acSlot, band: band, into: &sink)
            }
        })
        lastDC = state.lastDC
        eobRun = state.eobRun
        if scan.ss != 0 { emitEOBRun(slot: slots[0].1, into: &sink) }
    }

    private mutating func dcFirst<Sink: JPEGEntropySink>(_ block: UnsafePointer<Int16>, position: Int, slot: Int, into sink: inout Sink) {
        let value = Int32(block[0]) >> Int32(scan.al)
        let difference = value &- lastDC[position]
        lastDC[position] = value
        let bits = JPEGSequentialEncoder.category(difference, categories)
        sink.symbol(slot, bits, extra: UInt32(bitPattern: difference < 0 ? difference &- 1 : difference), extraLength: bits)
    }

    /// `emit_eobrun`: the run as symbol (log2 run) << 4 and its low bits, then the waiting
    /// correction bits.
    private mutating func emitEOBRun<Sink: JPEGEntropySink>(slot: Int, into sink: inout Sink) {
        guard eobRun > 0 else { return }
        let bits = Int.bitWidth - 1 - eobRun.leadingZeroBitCount
        sink.symbol(slot, bits << 4, extra: UInt32(eobRun), extraLength: bits)
        eobRun = 0
        if Sink.writes { pending.write(0..<pending.count, into: &sink) }
        pending.count = 0
    }

    /// Zigzag bit masks of the coefficients of `block` in `band` whose magnitude shifted right
    /// by `al` is not zero (`nonZero`) and is one (`one`), a row of eight at a time
    /// (``JPEGZigzag/rowMask(_:)``), as libjpeg-turbo's `encode_mcu_AC_*_prepare` make them.
    @inline(__always)
    static func bandMasks(_ block: UnsafePointer<Int16>, al: Int, band: UInt64,
                          rowBits: UnsafePointer<UInt64>) -> (nonZero: UInt64, one: UInt64) {
        let raw = UnsafeRawPointer(block)
        let shift = SIMD8<UInt16>(repeating: UInt16(truncatingIfNeeded: al))
        var nonZero: UInt64 = 0, notOne: UInt64 = 0
        for row in 0..<8 {
            let v = raw.loadUnaligned(fromByteOffset: row &* 16, as: SIMD8<Int16>.self)
            let sign = v &>> 15
            let magnitude = unsafeBitCast((v ^ sign) &- sign, to: SIMD8<UInt16>.self) &>> shift
            nonZero |= rowBits[row &* 256 &+ JPEGZigzag.rowMask(unsafeBitCast(magnitude, to: SIMD8<Int16>.self))]
            notOne |= rowBits[row &* 256 &+ JPEGZigzag.rowMask(unsafeBitCast(magnitude ^ 1, to: SIMD8<Int16>.self))]
        }
        return (nonZero & band, ~notOne & band)
    }

    /// The zigzag bits ss…se of this scan.
    var bandBits: UInt64 { (UInt64.max &>> UInt64(63 - scan.se)) & (UInt64.max &<< UInt64(scan.ss)) }

    /// G.1.2.2 for one block, walking the set bits of the band's non-zero mask.
    private mutating func acFirst<Sink: JPEGEntropySink>(_ block: UnsafePointer<Int16>, slot: Int, band: UInt64, into sink: inout Sink) {
        let al = Int32(scan.al), zigzag = natural
        var mask = Self.bandMasks(block, al: scan.al, band: band, rowBits: rowBits).nonZero
        var last = scan.ss &- 1
        while mask != 0 {
            let k = mask.trailingZeroBitCount
            var run = k &- last &- 1
            emitEOBRun(slot: slot, into: &sink)
            while run > 15 {
                sink.symbol(slot, 0xF0, extra: 0, extraLength: 0)
                run &-= 16
            }
            let value = Int32(block[Int(zigzag[k])])
            let magnitude = (value < 0 ? 0 &- value : value) >> al
            let bits = JPEGSequentialEncoder.category(magnitude, categories)
            let extra = UInt32(bitPattern: value < 0 ? ~magnitude : magnitude)
            sink.symbol(slot, run &<< 4 &+ bits, extra: extra, extraLength: bits)
            last = k
            mask &= mask &- 1
        }
        if last != scan.se {
            eobRun += 1
            if eobRun == 0x7FFF { emitEOBRun(slot: slot, into: &sink) }
        }
    }

    /// G.1.2.3 for one block, with libjpeg's buffering: the correction bits of this block wait
    /// at the end of `pending` (from `blockStart`) until a symbol is written; those before
    /// `blockStart` belong to the EOB run and go out with it. `run` counts the zeros since the
    /// last symbol (coefficients already non-zero only add a correction bit).
    private mutating func acRefine<Sink: JPEGEntropySink>(_ block: UnsafePointer<Int16>, slot: Int, band: UInt64, into sink: inout Sink) {
        let zigzag = natural
        let (nonZero, one) = Self.bandMasks(block, al: scan.al, band: band, rowBits: rowBits)
        let lastNew = one == 0 ? 0 : 63 &- one.leadingZeroBitCount
        var mask = nonZero
        var run = 0, previous = scan.ss &- 1
        var blockStart = pending.count
        while mask != 0 {
            let k = mask.trailingZeroBitCount
            run &+= k &- previous &- 1
            previous = k
            mask &= mask &- 1
            while run > 15 && k <= lastNew {
                emitEOBRun(slot: slot, before: blockStart, into: &sink)
                sink.symbol(slot, 0xF0, extra: 0, extraLength: 0)
                run &-= 16
                writePending(into: &sink)
                blockStart = 0
            }
            let value = Int32(block[Int(zigzag[k])])
            if one & (1 &<< UInt64(k)) == 0 {
                pending.append(UInt8(truncatingIfNeeded: ((value < 0 ? 0 &- value : value) >> Int32(scan.al)) & 1))
                continue
            }
            emitEOBRun(slot: slot, before: blockStart, into: &sink)
            sink.symbol(slot, run &<< 4 &+ 1, extra: 0, extraLength: 0)
            sink.bits(value < 0 ? 0 : 1, 1)
            writePending(into: &sink)
            blockStart = 0
            run = 0
        }
        run &+= scan.se &- previous
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
        if Sink.writes { pending.write(0..<blockStart, into: &sink) }
        pending.removeFirst(blockStart)
    }

    /// Writes every waiting correction bit (this block's, once the older ones went out).
    private mutating func writePending<Sink: JPEGEntropySink>(into sink: inout Sink) {
        if Sink.writes { pending.write(0..<pending.count, into: &sink) }
        pending.count = 0
    }
}

/// Correction bits waiting for an EOB run or a symbol (libjpeg's `bit_buffer`): at most 937
/// wait before a block, and a block adds at most 63, so a fixed buffer of 1024 holds them.
final class JPEGCorrectionBits {
    static let capacity = 1024
    private let bits = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
    var count = 0

    deinit { bits.deallocate() }

    @inline(__always)
    func append(_ bit: UInt8) {
        guard count < Self.capacity else { return }
        bits[count] = bit
        count &+= 1
    }

    /// Writes bits `range`, up to 32 in one write.
    @inline(__always)
    func write<Sink: JPEGEntropySink>(_ range: Range<Int>, into sink: inout Sink) {
        var i = range.lowerBound
        while i < range.upperBound {
            let n = min(32, range.upperBound &- i)
            var value: UInt32 = 0
            for j in 0..<n { value = value &<< 1 | UInt32(bits[i &+ j]) }
            sink.bits(value, n)
            i &+= n
        }
    }

    /// Drops the first `n` bits (n ≤ count).
    func removeFirst(_ n: Int) {
        guard n > 0 else { return }
        for j in 0..<(count &- n) { bits[j] = bits[j &+ n] }
        count &-= n
    }
}
