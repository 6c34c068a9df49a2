/// Where DCT tokens go: a counter of each coefficient probability's branches (the statistics
/// of RFC 6386 13.4's updates) or the boolean encoder of a token partition.
protocol VP8TokenSink {
    /// A branch decided with coefficient probability `index` (into the `[4][8][3][11]` table).
    mutating func put(_ bit: Bool, _ index: Int)
    /// A branch with a fixed probability (signs, DCTextra bits).
    mutating func putFixed(_ bit: Bool, _ probability: Int)
}

/// Counts the zeros and ones decided with each coefficient probability.
struct VP8TokenCounter: VP8TokenSink {
    var counts = [UInt32](repeating: 0, count: 2 * 1056)

    @inline(__always)
    mutating func put(_ bit: Bool, _ index: Int) { counts[2 &* index &+ (bit ? 1 : 0)] &+= 1 }
    @inline(__always)
    mutating func putFixed(_ bit: Bool, _ probability: Int) {}
}

/// Writes tokens with the frame's coefficient probabilities.
struct VP8TokenEncoder: VP8TokenSink {
    var encoder = VP8BoolEncoder()
    let probabilities: [UInt8]

    @inline(__always)
    mutating func put(_ bit: Bool, _ index: Int) { encoder.write(bit, Int(probabilities[index])) }
    @inline(__always)
    mutating func putFixed(_ bit: Bool, _ probability: Int) { encoder.write(bit, probability) }
}

/// The token tree of RFC 6386 13.2 written, the mirror of ``VP8Tokens/readBlock``.
enum VP8TokenWriter {
    /// Writes one block's levels (zigzag order) from position `first` with context `context`,
    /// `type` being the block type (0 Y after Y2, 1 Y2, 2 chroma, 3 Y with DC). Returns whether
    /// a non-zero level was written (the block's non-zero context flag).
    @inline(__always)
    static func writeBlock<S: VP8TokenSink>(_ sink: inout S, _ levels: UnsafePointer<Int16>, type: Int,
                                             context: Int, first: Int) -> Bool {
        let base = type &* 264
        var last = 15
        while last >= first && levels[last] == 0 { last &-= 1 }
        var p = base &+ VP8Tokens.bandOffset(first) &+ context &* 11
        guard last >= first else {
            sink.put(false, p)  // EOB
            return false
        }
        var n = first
        while n <= last {
            sink.put(true, p)
            while levels[n] == 0 {
                sink.put(false, p &+ 1)  // DCT_0
                n &+= 1
                p = base &+ VP8Tokens.bandOffset(n)
            }
            sink.put(true, p &+ 1)
            let level = Int32(levels[n])
            let v = level < 0 ? -level : level
            if v == 1 {
                sink.put(false, p &+ 2)
                p = base &+ VP8Tokens.bandOffset(n &+ 1) &+ 11
            } else {
                sink.put(true, p &+ 2)
                writeLarge(&sink, v, p)
                p = base &+ VP8Tokens.bandOffset(n &+ 1) &+ 22
            }
            sink.putFixed(level < 0, 128)
            n &+= 1
        }
        if n < 16 { sink.put(false, p) }  // EOB
        return true
    }

    /// A value of 2 or more: the coeff_tree below `ONE` and the DCTextra bits (RFC 6386 13.2).
    static func writeLarge<S: VP8TokenSink>(_ sink: inout S, _ v: Int32, _ p: Int) {
        if v <= 4 {
            sink.put(false, p &+ 3)
            sink.put(v != 2, p &+ 4)
            if v != 2 { sink.put(v == 4, p &+ 5) }
            return
        }
        sink.put(true, p &+ 3)
        if v <= 10 {
            sink.put(false, p &+ 6)
            if v <= 6 {
                sink.put(false, p &+ 7)
                sink.putFixed(v == 6, 159)  // DCT_CAT1
            } else {
                sink.put(true, p &+ 7)
                sink.putFixed((v &- 7) & 2 != 0, 165)  // DCT_CAT2
                sink.putFixed((v &- 7) & 1 != 0, 145)
            }
            return
        }
        sink.put(true, p &+ 6)
        let cat = v < 19 ? 0 : v < 35 ? 1 : v < 67 ? 2 : 3
        sink.put(cat >= 2, p &+ 8)
        sink.put(cat & 1 == 1, p &+ 9 &+ (cat >> 1))
        let table = cat == 0 ? VP8Tokens.cat3 : cat == 1 ? VP8Tokens.cat4 : cat == 2 ? VP8Tokens.cat5 : VP8Tokens.cat6
        let extra = v &- 3 &- Int32(8 << cat)
        let count = table.count - 1
        for i in 0..<count {
            sink.putFixed((extra >> Int32(count - 1 - i)) & 1 == 1, Int(table[i]))
        }
    }
}
