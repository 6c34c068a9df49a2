/// The variable-length-code LZW compressor of GIF89a Appendix F, writing the Table Based Image
/// Data of §22: the LZW Minimum Code Size byte, the codes packed least-significant bit first in
/// Data Sub-blocks (§15) of up to 255 bytes, and the Block Terminator (§16).
///
/// - The stream starts with a clear code and ends with the end-of-information code.
/// - Codes are written with the width ``LZWDecoder`` reads them with: the width grows as soon as
///   the decoder's next free entry no longer fits it (the decoder adds its entries one code
///   behind the encoder).
/// - When the 4096th entry has been assigned, a clear code follows and the table starts over
///   (no deferred clear: every decoder handles a clear, not every one a full table).
/// - The string table is an open-addressed hash of (prefix code, byte) pairs, 8192 slots for at
///   most 4096 entries, so probes stay short; it is wiped on each clear.
/// - A pixel may have two acceptable indices (a pixel of an animation frame that the canvas
///   already shows can be the transparent index or its own colour): the string grows with the
///   one the table has, or when it has both, with the one from which the table matches more
///   pixels after it; a new string starts with the one from which the table matches more
///   (greedy, with one string of lookahead).
struct LZWEncoder {
    /// Hash slots: twice the most entries, a power of two.
    static let slotCount = 8192
    static let maxCode = 4096
    /// Pixels looked ahead when a pixel may take either of two indices: bounds the work per
    /// pixel (longer looks gain under 0.1% on the corpus animations).
    static let lookahead = 32

    /// The smallest minimum code size for indices below `colorCount`: the bits the largest
    /// index needs, and at least 2 (§22: 1-bit images use a code size of 2).
    static func minimumCodeSize(colorCount: Int) -> Int {
        var bits = 2
        while (1 << bits) < colorCount { bits += 1 }
        return bits
    }

    /// Appends the image data for `indices` (each below 2^`minimumCodeSize`, which is 2…8) to
    /// `output`; where `alternates` (as long as `indices`) differs from `indices`, either value
    /// may be written for that pixel.
    static func encode(_ indices: UnsafeBufferPointer<UInt8>, alternates: UnsafeBufferPointer<UInt8>? = nil,
                       minimumCodeSize: Int, into output: inout [UInt8]) {
        output.append(UInt8(truncatingIfNeeded: minimumCodeSize))
        var writer = SubBlockWriter()
        var slots = [UInt32](repeating: 0, count: slotCount)
        slots.withUnsafeMutableBufferPointer { table in
            compress(indices, alternates ?? indices, minimumCodeSize: minimumCodeSize, table: table,
                     writer: &writer, output: &output)
        }
        writer.finish(into: &output)
    }

    /// The compressor's hot loop (state in locals). A slot holds `key << 12 | code`, with
    /// `key = prefix << 8 | byte`; 0 is empty (no entry has code 0).
    private static func compress(_ indices: UnsafeBufferPointer<UInt8>, _ alternates: UnsafeBufferPointer<UInt8>,
                                 minimumCodeSize: Int,
                                 table: UnsafeMutableBufferPointer<UInt32>,
                                 writer: inout SubBlockWriter, output: inout [UInt8]) {
        let clear = 1 << minimumCodeSize
        let mask = slotCount - 1
        var width = minimumCodeSize + 1
        var free = clear + 2
        // The decoder's next free entry and whether it has a previous code (``LZWDecoder``).
        var decoderNext = clear + 2
        var decoderHasPrevious = false

        func emit(_ code: Int) {
            writer.write(code, width: width, output: &output)
            if code == clear {
                width = minimumCodeSize + 1
                decoderNext = clear + 2
                decoderHasPrevious = false
                return
            }
            if decoderHasPrevious && decoderNext < maxCode { decoderNext &+= 1 }
            decoderHasPrevious = true
            if decoderNext >= (1 << width) && width < 12 { width &+= 1 }
        }

        emit(clear)
        let count = min(indices.count, alternates.count)
        guard count > 0 else {
            emit(clear + 1)
            return
        }
        /// The code of `key`, or -1 and the empty slot where it would go.
        func find(_ key: Int) -> (code: Int, slot: Int) {
            var slot = Int(truncatingIfNeeded: (UInt32(truncatingIfNeeded: key) &* 0x9E37_79B1) >> 19)
            while true {
                let entry = table[slot]
                if entry == 0 { return (-1, slot) }
                if Int(entry >> 12) == key { return (Int(entry & 0xFFF), slot) }
                slot = (slot &+ 1) & mask
            }
        }
        /// How many pixels from `position` on extend the string whose code is `start`, as the
        /// table is.
        func reach(from position: Int, start: Int) -> Int {
            var code = start, j = position
            let end = min(count, position &+ lookahead)
            while j < end {
                var next = find(code << 8 | Int(indices[j])).code
                if next < 0 && alternates[j] != indices[j] { next = find(code << 8 | Int(alternates[j])).code }
                guard next >= 0 else { break }
                code = next
                j &+= 1
            }
            return j - position
        }
        var prefix = Int(indices[0])
        var i = 1
        while i < count {
            var byte = Int(indices[i])
            let other = Int(alternates[i])
            i &+= 1
            var key = prefix << 8 | byte
            var (code, slot) = find(key)
            if other != byte {
                let second = find(prefix << 8 | other)
                let better = code < 0 ? second.code >= 0 || reach(from: i, start: other) > reach(from: i, start: byte)
                    : second.code >= 0 && reach(from: i, start: second.code) > reach(from: i, start: code)
                if better {
                    (code, slot) = second
                    byte = other
                    key = prefix << 8 | other
                }
            }
            if code >= 0 {
                prefix = code
                continue
            }
            emit(prefix)
            table[slot] = UInt32(truncatingIfNeeded: key << 12 | free)
            free &+= 1
            if free == maxCode {
                emit(clear)
                table.update(repeating: 0)
                free = clear + 2
            }
            prefix = byte
        }
        emit(prefix)
        emit(clear + 1)
    }
}

/// Packs codes least-significant bit first into Data Sub-blocks (GIF89a §15) of 255 bytes.
struct SubBlockWriter {
    private var bits: UInt64 = 0
    private var bitCount = 0
    private var block = [UInt8](repeating: 0, count: 256)
    private var fill = 1

    mutating func write(_ code: Int, width: Int, output: inout [UInt8]) {
        bits |= UInt64(truncatingIfNeeded: code) << UInt64(bitCount)
        bitCount &+= width
        while bitCount >= 8 {
            put(UInt8(truncatingIfNeeded: bits), output: &output)
            bits >>= 8
            bitCount &-= 8
        }
    }

    private mutating func put(_ byte: UInt8, output: inout [UInt8]) {
        block[fill] = byte
        fill &+= 1
        if fill == 256 { flush(output: &output) }
    }

    /// Appends the block so far, its size byte first.
    private mutating func flush(output: inout [UInt8]) {
        guard fill > 1 else { return }
        block[0] = UInt8(truncatingIfNeeded: fill - 1)
        output.append(contentsOf: block[0..<fill])
        fill = 1
    }

    /// Writes the last partial byte and block and the Block Terminator (§16).
    mutating func finish(into output: inout [UInt8]) {
        if bitCount > 0 { put(UInt8(truncatingIfNeeded: bits), output: &output) }
        bits = 0
        bitCount = 0
        flush(output: &output)
        output.append(0)
    }
}
