/// The coefficients of a block that a scaled inverse DCT reads, for thumbnails that keep no
/// others (``JPEGIDCT/reduced(size:_:_:_:stride:)``): the DC alone for the 1×1 transform, rows
/// and columns 0, 1, 3, 5, 7 (25 coefficients) for the 2×2 one. The 4×4 and 8×8 transforms read
/// nearly every coefficient, so their components keep whole blocks.
///
/// A block is kept as a record: the kept coefficients, then a 64-bit mask (four `Int16`) of the
/// coefficients that are nonzero, bit i for natural index i. A progressive refinement scan
/// (T.81 G.1.2.3, G.1.3.3) reads a correction bit for each coefficient already nonzero, kept or
/// not, so the mask is what keeps the bitstream in step; the values of the others are never
/// needed.
///
/// A scan decodes a block of such a component in a 64-coefficient scratch block: ``expand``
/// gives it the values it had (a dropped nonzero coefficient as 1, which a refinement keeps
/// nonzero), the scan decodes as usual, and ``compact`` stores it back.
enum JPEGCoefficientSubset {
    /// The natural indices an `idctSize`×`idctSize` transform reads, in zigzag order; nil when
    /// it reads whole blocks.
    static func kept(idctSize: Int) -> [UInt8]? {
        let lines: [Int]
        switch idctSize {
        case 1: lines = [0]
        case 2: lines = [0, 1, 3, 5, 7]
        default: return nil
        }
        return naturalOrder.prefix(64).filter { lines.contains($0 / 8) && lines.contains($0 % 8) }.map { UInt8($0) }
    }

    /// `Int16` per record for `keptCount` kept coefficients.
    static func recordSize(keptCount: Int) -> Int { keptCount + 4 }

    /// Writes `record` into `block` (64, natural order): the `keptCount` coefficients at
    /// `kept` as stored, every other one 1 if nonzero so far, else 0.
    @inline(__always)
    static func expand(_ record: UnsafePointer<Int16>, keptCount: Int, kept: UnsafePointer<UInt8>,
                       into block: UnsafeMutablePointer<Int16>) {
        let mask = UnsafeRawPointer(record + keptCount).loadUnaligned(as: UInt64.self)
        let raw = UnsafeMutableRawPointer(block)
        // Moves bit i of a byte to bit 7 in lane i (arithmetic rather than lane masks, which
        // compile to a loop over the lanes).
        let toBit7 = SIMD8<Int16>(128, 64, 32, 16, 8, 4, 2, 1)
        for row in 0..<8 {
            let byte = SIMD8<Int16>(repeating: Int16((mask &>> UInt64(row &* 8)) & 0xFF))
            let values = ((byte &* toBit7) & 0x80) &>> 7
            raw.storeBytes(of: values, toByteOffset: row &* 16, as: SIMD8<Int16>.self)
        }
        for slot in 0..<keptCount { block[Int(kept[slot])] = record[slot] }
    }

    /// Stores `block` back into `record`: the kept coefficients, and the mask of nonzero ones.
    @inline(__always)
    static func compact(_ block: UnsafePointer<Int16>, keptCount: Int, kept: UnsafePointer<UInt8>,
                        into record: UnsafeMutablePointer<Int16>) {
        let raw = UnsafeRawPointer(block)
        let laneBits = SIMD8<Int16>(1, 2, 4, 8, 16, 32, 64, 128)
        var mask: UInt64 = 0
        for row in 0..<8 {
            let values = raw.loadUnaligned(fromByteOffset: row &* 16, as: SIMD8<Int16>.self)
            let nonzero = (values | (0 &- values)) &>> 15   // −1 where nonzero, else 0
            let bits = nonzero & laneBits
            mask |= UInt64(UInt16(bitPattern: bits.wrappedSum())) &<< UInt64(row &* 8)
        }
        for slot in 0..<keptCount { record[slot] = block[Int(kept[slot])] }
        UnsafeMutableRawPointer(record + keptCount).storeBytes(of: mask, as: UInt64.self)
    }

    /// Writes the kept coefficients of `record` into `block` (64, natural order), whose other
    /// coefficients the caller keeps at zero: the block the scaled transform reads.
    @inline(__always)
    static func expandKept(_ record: UnsafePointer<Int16>, keptCount: Int, kept: UnsafePointer<UInt8>,
                           into block: UnsafeMutablePointer<Int16>) {
        for slot in 0..<keptCount { block[Int(kept[slot])] = record[slot] }
    }
}
