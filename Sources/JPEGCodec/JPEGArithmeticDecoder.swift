/// The probability estimation of the QM coder (T.81 D.1.5, Table D.2), one entry per state.
///
/// A statistics bin (T.81 D.1.4: one per context) is one byte: the sense of its more probable
/// symbol (MPS) in bit 7 and its state, an index into ``entries``, in bits 0–6. Every bin starts
/// at zero (state 0, MPS 0), as D.2.1's initialisation asks.
enum JPEGQMTable {
    /// Per state: Qe in bits 16–31, Next_Index_MPS in bits 8–15, and Next_Index_LPS in bits 0–6
    /// with Switch_MPS in bit 7, so that one exclusive-or with a bin's MPS bit gives the bin's
    /// next value after a less probable symbol.
    static let entries: [UInt32] = {
        // (Qe, Next_Index_LPS, Next_Index_MPS, Switch_MPS): T.81 Table D.2, states 0–112, then
        // state 113, which keeps the probability at one half (T.851 10.3, Table 5: the "fixed"
        // estimate the sign of an AC coefficient and refinement bits are coded with).
        let rows: [(UInt32, UInt32, UInt32, UInt32)] = [
            (0x5A1D, 1, 1, 1), (0x2586, 14, 2, 0), (0x1114, 16, 3, 0), (0x080B, 18, 4, 0),
            (0x03D8, 20, 5, 0), (0x01DA, 23, 6, 0), (0x00E5, 25, 7, 0), (0x006F, 28, 8, 0),
            (0x0036, 30, 9, 0), (0x001A, 33, 10, 0), (0x000D, 35, 11, 0), (0x0006, 9, 12, 0),
            (0x0003, 10, 13, 0), (0x0001, 12, 13, 0), (0x5A7F, 15, 15, 1), (0x3F25, 36, 16, 0),
            (0x2CF2, 38, 17, 0), (0x207C, 39, 18, 0), (0x17B9, 40, 19, 0), (0x1182, 42, 20, 0),
            (0x0CEF, 43, 21, 0), (0x09A1, 45, 22, 0), (0x072F, 46, 23, 0), (0x055C, 48, 24, 0),
            (0x0406, 49, 25, 0), (0x0303, 51, 26, 0), (0x0240, 52, 27, 0), (0x01B1, 54, 28, 0),
            (0x0144, 56, 29, 0), (0x00F5, 57, 30, 0), (0x00B7, 59, 31, 0), (0x008A, 60, 32, 0),
            (0x0068, 62, 33, 0), (0x004E, 63, 34, 0), (0x003B, 32, 35, 0), (0x002C, 33, 9, 0),
            (0x5AE1, 37, 37, 1), (0x484C, 64, 38, 0), (0x3A0D, 65, 39, 0), (0x2EF1, 67, 40, 0),
            (0x261F, 68, 41, 0), (0x1F33, 69, 42, 0), (0x19A8, 70, 43, 0), (0x1518, 72, 44, 0),
            (0x1177, 73, 45, 0), (0x0E74, 74, 46, 0), (0x0BFB, 75, 47, 0), (0x09F8, 77, 48, 0),
            (0x0861, 78, 49, 0), (0x0706, 79, 50, 0), (0x05CD, 48, 51, 0), (0x04DE, 50, 52, 0),
            (0x040F, 50, 53, 0), (0x0363, 51, 54, 0), (0x02D4, 52, 55, 0), (0x025C, 53, 56, 0),
            (0x01F8, 54, 57, 0), (0x01A4, 55, 58, 0), (0x0160, 56, 59, 0), (0x0125, 57, 60, 0),
            (0x00F6, 58, 61, 0), (0x00CB, 59, 62, 0), (0x00AB, 61, 63, 0), (0x008F, 61, 32, 0),
            (0x5B12, 65, 65, 1), (0x4D04, 80, 66, 0), (0x412C, 81, 67, 0), (0x37D8, 82, 68, 0),
            (0x2FE8, 83, 69, 0), (0x293C, 84, 70, 0), (0x2379, 86, 71, 0), (0x1EDF, 87, 72, 0),
            (0x1AA9, 87, 73, 0), (0x174E, 72, 74, 0), (0x1424, 72, 75, 0), (0x119C, 74, 76, 0),
            (0x0F6B, 74, 77, 0), (0x0D51, 75, 78, 0), (0x0BB6, 77, 79, 0), (0x0A40, 77, 48, 0),
            (0x5832, 80, 81, 1), (0x4D1C, 88, 82, 0), (0x438E, 89, 83, 0), (0x3BDD, 90, 84, 0),
            (0x34EE, 91, 85, 0), (0x2EAE, 92, 86, 0), (0x299A, 93, 87, 0), (0x2516, 86, 71, 0),
            (0x5570, 88, 89, 1), (0x4CA9, 95, 90, 0), (0x44D9, 96, 91, 0), (0x3E22, 97, 92, 0),
            (0x3824, 99, 93, 0), (0x32B4, 99, 94, 0), (0x2E17, 93, 86, 0), (0x56A8, 95, 96, 1),
            (0x4F46, 101, 97, 0), (0x47E5, 102, 98, 0), (0x41CF, 103, 99, 0), (0x3C3D, 104, 100, 0),
            (0x375E, 99, 93, 0), (0x5231, 105, 102, 0), (0x4C0F, 106, 103, 0), (0x4639, 107, 104, 0),
            (0x415E, 103, 99, 0), (0x5627, 105, 106, 1), (0x50E7, 108, 107, 0), (0x4B85, 109, 103, 0),
            (0x5597, 110, 109, 0), (0x504F, 111, 107, 0), (0x5A10, 110, 111, 1), (0x5522, 112, 109, 0),
            (0x59EB, 112, 111, 1), (0x5A1D, 113, 113, 0),
        ]
        return rows.map { qe, lps, mps, switchMPS in qe << 16 | mps << 8 | switchMPS << 7 | lps }
    }()

    /// The state of the fixed one-half bin (never changes: both its next states are itself).
    static let fixedState: UInt8 = 113
}

/// The registers of the QM decoder (T.81 D.2), kept between MCUs and decoding calls.
///
/// C holds both the code register and the bits not used yet: CT counts the fresh bits below
/// the part compared with A, so the comparison needs one shift by CT instead of a shift of C
/// at every renormalisation step. CT < 0 means C is still being filled after a (re)start
/// (D.2.7 INITDEC reads two bytes first).
struct JPEGQMRegisters {
    var c = 0
    var a = 0
    var ct = -16

    /// D.2.7 INITDEC, deferred: the next decision reads two bytes into C and sets A to 0x10000.
    mutating func reset() {
        c = 0
        a = 0
        ct = -16
    }
}

/// The QM decoder over unstuffed entropy-coded bytes (T.81 D.2): the registers, the staged
/// bytes with a read position, and the probability table, for the span of one MCU.
///
/// Bytes past the end of `bytes` read as zero, as libjpeg supplies zeros once the data has
/// met a marker (arithmetic-coded data may legally end before its decoder stops reading).
/// Each decision renormalises first, so it reads at most two bytes (A ≥ 1 after any decision
/// needs at most 15 doublings, and CT ≥ 0 covers all but two bytes of them).
struct JPEGArithmeticDecoder {
    var registers: JPEGQMRegisters
    /// The next byte of `bytes` to read.
    var position: Int
    let bytes: UnsafeBufferPointer<UInt8>
    let table: UnsafePointer<UInt32>

    @inline(__always)
    init(registers: JPEGQMRegisters, position: Int, bytes: UnsafeBufferPointer<UInt8>, table: UnsafePointer<UInt32>) {
        self.registers = registers
        self.position = position
        self.bytes = bytes
        self.table = table
    }

    /// D.2.4 DECODE with D.2.5's estimation and D.2.6 RENORMD (done before the decision, so a
    /// restart's two initial bytes are read by the first decision after it): the binary
    /// decision coded with statistics `bin`, which is updated. Returns 0 or 1.
    @inline(__always)
    mutating func decode(_ bin: UnsafeMutablePointer<UInt8>) -> Int {
        var a = registers.a, c = registers.c, ct = registers.ct
        if a < 0x8000 {
            // Fast path: the doublings that need no new byte, all at once.
            let shift = a.leadingZeroBitCount &- (Int.bitWidth &- 16)
            if shift <= ct {
                a &<<= shift
                ct &-= shift
            }
        }
        while a < 0x8000 {
            ct &-= 1
            if ct < 0 {
                // D.2.6 BYTEIN on unstuffed data: zeros past the end.
                var byte = 0
                if position < bytes.count {
                    byte = Int(bytes[position])
                    position &+= 1
                }
                c = c &<< 8 | byte
                ct &+= 8
                if ct < 0 {
                    // Still filling after INITDEC: with the second byte in, A becomes 0x10000
                    // (0x8000 doubled below) and CT starts at 0.
                    ct &+= 1
                    if ct == 0 { a = 0x8000 }
                }
            }
            a &<<= 1
        }
        let s = Int(bin.pointee)
        let entry = Int(table[s & 0x7F])
        let qe = entry &>> 16
        let mps = s & 0x80
        var symbol = s &>> 7
        a &-= qe
        let threshold = a &<< ct
        if c >= threshold {
            // The lower sub-interval, Qe's (D.2.4 Figure D.20), unless the exchange makes it
            // the MPS's (Figure D.21, LPS_EXCHANGE).
            c &-= threshold
            if a < qe {
                bin.pointee = UInt8(truncatingIfNeeded: mps ^ ((entry &>> 8) & 0xFF))
            } else {
                bin.pointee = UInt8(truncatingIfNeeded: mps ^ (entry & 0xFF))
                symbol ^= 1
            }
            a = qe
        } else if a < 0x8000 {
            // The MPS's sub-interval needs renormalising: D.2.4 Figure D.22, MPS_EXCHANGE.
            if a < qe {
                bin.pointee = UInt8(truncatingIfNeeded: mps ^ (entry & 0xFF))
                symbol ^= 1
            } else {
                bin.pointee = UInt8(truncatingIfNeeded: mps ^ ((entry &>> 8) & 0xFF))
            }
        }
        registers.a = a
        registers.c = c
        registers.ct = ct
        return symbol
    }
}
