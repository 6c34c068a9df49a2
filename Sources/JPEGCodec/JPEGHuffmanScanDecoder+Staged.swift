import CodecCore

/// The sequential block decoder's fast path (T.81 F.2.2.1 and F.2.2.2), for a block whose every
/// bit is known to be staged: at least ``stagedBlockMargin`` bytes lie past the reader's
/// position, so the bit buffer refills eight bytes at a time with no bounds check and never runs
/// into the zero bits past the data. The careful path (``JPEGHuffmanScanDecoder`` `decodeBlock`)
/// decodes the same values and takes the blocks nearer the end of the data.
///
/// The bit buffer lives in three locals for the whole block, and the function is kept out of
/// the MCU loop (`@inline(never)`), so that the coefficient loop has the registers to itself.
extension JPEGHuffmanScanDecoder {
    /// The staged bytes a block may need: 64 symbols of at most 32 bits with their appended
    /// bits, the bytes the reader holds ahead of its bits (fewer than 8), and the eight bytes a
    /// refill loads.
    static let stagedBlockMargin = 64 * 4 + 16

    /// Decodes one sequential block into `block` (zeroed by the caller) with the DC and AC
    /// tables at `dc` and `ac` (``JPEGHuffmanTable/data`` runs), updating the component's DC
    /// `predictor`; `base` is the staged data, with ``stagedBlockMargin`` bytes available past
    /// `reader.position`.
    @inline(never)
    static func decodeStagedSequentialBlock(_ block: UnsafeMutablePointer<Int16>, _ dc: UnsafePointer<Int32>,
                                            _ ac: UnsafePointer<Int32>, _ zigzag: UnsafePointer<Int>,
                                            _ predictor: inout Int32, _ reader: inout MSBBitReader,
                                            _ base: UnsafePointer<UInt8>) {
        let raw = UnsafeRawPointer(base)
        var bits = reader.bits, count = reader.count, position = reader.position
        // At least 32 bits before each symbol: a code (≤ 16 bits, 17 for a bad one) and its
        // appended bits (≤ 15) never need a refill in between. A refill keeps the whole bytes
        // that fit below the bits held (the bits of a partly taken byte are loaded again, to
        // the same places, by the next refill).
        @inline(__always) func refill() {
            if count < 32 {
                let word = UInt64(bigEndian: raw.loadUnaligned(fromByteOffset: position, as: UInt64.self))
                bits |= word &>> UInt64(truncatingIfNeeded: count)
                let taken = (63 &- count) &>> 3
                position &+= taken
                count &+= taken &<< 3
            }
        }
        @inline(__always) func symbol(_ table: UnsafePointer<Int32>) -> Int {
            let entry = table[Int(truncatingIfNeeded: bits &>> UInt64(64 &- JPEGHuffmanTable.lookaheadBits))]
            let length = Int(truncatingIfNeeded: entry &>> 8)
            if length <= JPEGHuffmanTable.lookaheadBits {
                bits &<<= UInt64(truncatingIfNeeded: length)
                count &-= length
                return Int(truncatingIfNeeded: entry & 0xFF)
            }
            let (codeLength, value) = JPEGHuffmanTable.decodeLong(table, bits)
            bits &<<= UInt64(truncatingIfNeeded: codeLength)
            count &-= codeLength
            return value
        }
        @inline(__always) func appended(_ s: Int) -> Int32 {
            let v = Int32(truncatingIfNeeded: bits &>> UInt64(truncatingIfNeeded: 64 &- s))
            bits &<<= UInt64(truncatingIfNeeded: s)
            count &-= s
            return extend(v, s)
        }

        // F.2.2.1: the DC difference.
        refill()
        let size = symbol(dc)
        if size != 0 { predictor = predictor &+ appended(size) }
        block[0] = Int16(truncatingIfNeeded: predictor)

        // F.2.2.2: the AC coefficients; a code whose appended bits fit the lookahead is taken
        // whole from the fast table.
        let fast = ac + JPEGHuffmanTable.fastACBase
        var k = 1
        while k < 64 {
            refill()
            let entry = fast[Int(truncatingIfNeeded: bits &>> UInt64(64 &- JPEGHuffmanTable.lookaheadBits))]
            if entry != 0 {
                k &+= Int(truncatingIfNeeded: (entry &>> 8) & 0xFF)
                block[zigzag[k]] = Int16(truncatingIfNeeded: entry &>> 16)
                let used = Int(truncatingIfNeeded: entry & 0xFF)
                bits &<<= UInt64(truncatingIfNeeded: used)
                count &-= used
                k &+= 1
                continue
            }
            let rs = symbol(ac)
            let r = rs &>> 4, s = rs & 15
            if s != 0 {
                k &+= r
                block[zigzag[k]] = Int16(truncatingIfNeeded: appended(s))
                k &+= 1
            } else {
                if r != 15 { break }
                k &+= 16
            }
        }
        reader.bits = bits
        reader.count = count
        reader.position = position
    }
}
