/// A matrix kernel's three output sums in one 64-bit word, for matrices whose sums span fewer
/// than 2¹⁶ encoding indices (``ColorMatrixKernel/packedTerms8``).
///
/// Output channel `c` has a field of its own: red bits 0–20, green 21–41, blue 42–63. A field
/// holds a sum with 5 (red, green) or 6 (blue) bits of fraction below its 16-bit index, so each
/// 2.28 term is rounded to 1/32 or 1/64 of an index step before it is packed. Terms may be
/// negative and borrow from the field above, but the three terms of a pixel add up to fields
/// that are each non-negative and within their width (the bias and ``margin`` see to it), so
/// the word's sum holds every field's sum exactly. A pixel is then three byte reads, three
/// table reads, two adds, three shifts and masks, three encoding reads and three byte writes,
/// all in general registers: 19.5 instructions a pixel against 21 for the same sums as 2.28
/// vector lanes taken out with `pextrw`, and 18 % faster (24 Mi pixels in place, rows in
/// cache: 26.2–26.5 → 21.4–21.8 ms). A sum's index can differ from the 2.28 one by a step
/// where the exact sum lies within 1.5/32 of a step of a boundary; an output code changes
/// only where that step also crosses a code: 0.026 % of the samples of a photo-like 24 MP
/// raster through a P3 matrix, by one.
enum PackedTerms {
    /// Index steps added below the lowest and above the highest sum of the 2.28 terms: the
    /// rounded terms can carry a sum at most 1.5/32 of a step past either end.
    static let margin: Int64 = 1
    /// Where each output channel's field starts.
    static let fieldShifts: [Int64] = [0, 21, 42]
    /// Bits of fraction below each field's index.
    static let fractionBits: [Int64] = [5, 5, 6]

    /// The packed word of three biased 2.28 terms (`term(c)` for output channel `c`), each
    /// rounded to its field's fraction.
    static func word(_ term: (Int) -> Int64) -> UInt64 {
        (0..<3).reduce(UInt64(0)) { word, c in
            let dropped = 14 - fractionBits[c]
            let rounded = (term(c) + (1 << (dropped - 1))) >> dropped
            return word &+ UInt64(bitPattern: rounded &<< fieldShifts[c])
        }
    }

    /// Converts `count` RGBA8 pixels (``ColorMatrixKernel/apply8(_:_:count:)``), four a step:
    /// in place the alpha byte is left where it is; into other storage it is copied.
    @inline(__always)
    static func apply(_ t: UnsafePointer<UInt64>, _ e: UnsafePointer<UInt8>, _ input: UnsafeRawPointer,
                      _ output: UnsafeMutableRawPointer, count: Int, copiesAlpha: Bool) {
        let red = t, green = t + 256, blue = t + 512
        /// Writes pixel `i`'s three sRGB codes over its R, G and B bytes; the indices start at
        /// bits 5, 26 and 48 (each field's start plus its fraction bits).
        @inline(__always) func convert(_ i: Int) {
            let p = input + i &* 4, o = output + i &* 4
            let sums = red[Int(p.load(as: UInt8.self))] &+ green[Int(p.load(fromByteOffset: 1, as: UInt8.self))]
                &+ blue[Int(p.load(fromByteOffset: 2, as: UInt8.self))]
            o.storeBytes(of: e[Int(truncatingIfNeeded: sums &>> 5 & 0xFFFF)], toByteOffset: 0, as: UInt8.self)
            o.storeBytes(of: e[Int(truncatingIfNeeded: sums &>> 26 & 0xFFFF)], toByteOffset: 1, as: UInt8.self)
            o.storeBytes(of: e[Int(truncatingIfNeeded: sums &>> 48)], toByteOffset: 2, as: UInt8.self)
            if copiesAlpha { o.storeBytes(of: p.load(fromByteOffset: 3, as: UInt8.self), toByteOffset: 3, as: UInt8.self) }
        }
        var i = 0
        while i &+ 4 <= count {
            convert(i)
            convert(i &+ 1)
            convert(i &+ 2)
            convert(i &+ 3)
            i &+= 4
        }
        while i < count {
            convert(i)
            i &+= 1
        }
    }
}
