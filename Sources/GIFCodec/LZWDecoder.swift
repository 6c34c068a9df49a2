/// The variable-length-code LZW decompressor of GIF89a Appendix F, resumable at any input byte.
///
/// Codes are packed least-significant bit first. They start `minimumCodeSize + 1` bits wide and
/// grow by one bit each time the next free table entry reaches a power of two, up to 12 bits
/// (Appendix F, "The code size"). `clearCode` (2^minimumCodeSize) resets the table and
/// `clearCode + 1` ends the stream. Decisions where the appendix is silent, as browsers decode:
///
/// - A full table (4096 entries) without a clear code is kept: decoding goes on with 12-bit
///   codes and no new entries ("deferred clear").
/// - The code equal to the next free entry is the previous string plus its own first byte
///   (the KwKwK case); right after a clear, when there is no previous string, it is invalid.
/// - A code above the next free entry is invalid: decoding stops with ``Outcome/invalidCode``
///   and the bytes already produced stand.
/// - Minimum code sizes 0 to 8 decode (§22 names 2 to 8; Wuffs and giflib accept 0 and 1 too).
///   The code width grows as soon as the next free entry no longer fits it, also right after a
///   clear code, which matters for sizes 0 and 1 (as giflib and Wuffs count).
///
/// Speed: every entry keeps the first eight bytes of its string beside it, so a string of up to
/// eight bytes (a photo's codes are almost all literals and short strings) is one 8-byte store,
/// with no branch on the kind of code and no read of output written a moment before (such a
/// read spans several recent stores, which the processor cannot forward, and waits for them).
/// The rest of a longer string already lies in the output: an entry's string is its
/// predecessor's string plus one byte, and both were written one after the other, so the whole
/// string starts where its predecessor's string began. While that position is still in the
/// caller's window the rest is copied from there eight bytes at a time; otherwise the prefix
/// chain is walked back to front.
struct LZWDecoder {
    /// Why decoding stopped for good, or `running`; `paused` after the clear code that ends at
    /// the `stopAtBit` of a ``decode(_:into:base:fill:limit:stopAtBit:)`` call (the next call
    /// goes on from there).
    enum Outcome: Equatable { case running, paused, endCode, invalidCode }

    /// Table entries (2^12).
    static let tableSize = 4096
    /// The longest string one code can stand for (entries 4 to 4095 each add one byte).
    static let maxStringLength = 4096
    /// Bytes past `limit + maxStringLength` that the output must have: copies run in 8-byte steps.
    static let copySlack = 8
    /// Bytes past `limit` that the output of a ``decode(_:into:base:fill:limit:stopAtBit:)``
    /// call must have.
    static let outputSlack = maxStringLength + copySlack

    let minimumCodeSize: Int
    let clearCode: Int
    private(set) var outcome = Outcome.running
    private var codeSize: Int
    private var nextCode: Int
    /// The code read before the current one, or -1 right after a clear code.
    private var previousCode = -1
    /// Input bits not yet used, the oldest in the low bits.
    private var bitBuffer: UInt64 = 0
    private var bitCount = 0
    /// Two words per entry. Word `2c` packs entry `c`'s prefix code (bits 0–11), last byte
    /// (bits 12–19), string length (bits 20–31) and the absolute output position where its
    /// string was written (bits 32–63; positions stay below 65535² + 4096 < 2^32). Word `2c + 1`
    /// holds the string's first eight bytes, little-endian, zero past its end. Literals have
    /// length 1.
    private var table: [UInt64]
    /// The absolute output position where the previous code's string began.
    private var previousStart = 0

    /// Whether `size` is a minimum code size this decoder accepts (§22 allows 2–8).
    static func accepts(minimumCodeSize size: Int) -> Bool { (0...8).contains(size) }

    /// A decoder for `minimumCodeSize` in 0…8 (checked by the caller with ``accepts(minimumCodeSize:)``).
    init(minimumCodeSize: Int) {
        self.minimumCodeSize = minimumCodeSize
        clearCode = 1 << minimumCodeSize
        codeSize = minimumCodeSize + 1
        nextCode = clearCode + 2
        table = [UInt64](repeating: 0, count: 2 * Self.tableSize)
        for c in 0..<clearCode {
            table[2 * c] = UInt64(c) << 12 | 1 << 20
            table[2 * c + 1] = UInt64(c)
        }
    }

    /// Starts with the high `8 − shift` bits of `byte` already read, ahead of the input of the
    /// first ``decode(_:into:base:fill:limit:)``: a decoder that starts at bit `shift` of a byte
    /// (right after a clear code; ``LZWSplitPoint``).
    mutating func hold(_ byte: UInt8, from shift: Int) {
        bitBuffer = UInt64(byte >> UInt8(shift))
        bitCount = 8 - shift
    }

    /// Decodes codes from `input` into `output`, starting at `fill`, while `fill < limit`.
    /// `output` must have room for `limit + outputSlack` bytes; its byte 0 is
    /// the absolute output position `base`, and the bytes before `fill` are earlier output
    /// (the window copies come from). Returns the input bytes used; bits left over from the
    /// last byte are kept for the next call. With `stopAtBit` (counted from bit 0 of this call's
    /// input) decoding pauses right after a clear code that ends there (``LZWSplitDecoding``).
    mutating func decode(_ input: UnsafeBufferPointer<UInt8>, into output: UnsafeMutablePointer<UInt8>,
                         base: Int, fill: inout Int, limit: Int, stopAtBit: Int = -1) -> Int {
        guard outcome == .running || outcome == .paused else { return 0 }
        let start = Registers(bits: bitBuffer, count: bitCount, size: codeSize, next: nextCode,
                              previous: previousCode, previousStart: previousStart &- base, used: 0, out: fill,
                              outcome: .running)
        let minimumCodeSize = minimumCodeSize
        let end = table.withUnsafeMutableBufferPointer { t in
            Self.run(start, input, output, base: base, limit: limit, table: t.baseAddress!, minimumCodeSize: minimumCodeSize,
                     stopAtBit: stopAtBit)
        }
        previousStart = end.previousStart &+ base
        bitBuffer = end.bits
        bitCount = end.count
        codeSize = end.size
        nextCode = end.next
        previousCode = end.previous
        outcome = end.outcome
        fill = end.out
        return end.used
    }

    /// The decoder's state while it runs, kept in registers.
    private struct Registers {
        var bits: UInt64
        var count: Int
        var size: Int
        var next: Int
        var previous: Int
        /// Where the previous code's string began, relative to the output.
        var previousStart: Int
        var used: Int
        var out: Int
        var outcome: Outcome
    }

    /// The hot loop: one code per iteration, its first eight bytes stored from the table, the
    /// rest copied from where the same string was written before or written back to front from
    /// the table.
    @inline(__always)
    private static func run(_ r: Registers, _ input: UnsafeBufferPointer<UInt8>, _ output: UnsafeMutablePointer<UInt8>,
                            base: Int, limit: Int, table t: UnsafeMutablePointer<UInt64>, minimumCodeSize: Int,
                            stopAtBit: Int) -> Registers {
        var bits = r.bits, count = r.count, size = r.size, next = r.next, previous = r.previous
        var previousStart = r.previousStart, used = r.used, out = r.out, outcome = Outcome.running
        var mask = (1 &<< size) &- 1
        let available = input.count, clear = 1 &<< minimumCodeSize
        let source = UnsafeRawPointer(input.baseAddress)
        while out < limit {
            if let source, available &- used >= 8 {
                // Eight bytes at once, before every code (no branch on the bits held); keep the
                // whole bytes that fit above the bits held. Bits above `count` are zero or
                // already these same input bits, so the OR is right however many are held.
                bits |= UInt64(littleEndian: (source + used).loadUnaligned(as: UInt64.self)) &<< UInt64(truncatingIfNeeded: count)
                used &+= (63 &- count) &>> 3
                count |= 56
            } else if count < size {
                while count <= 56 && used < available {
                    bits |= UInt64(input[used]) &<< UInt64(truncatingIfNeeded: count)
                    count &+= 8
                    used &+= 1
                }
                if count < size { break }
            }
            let code = Int(truncatingIfNeeded: bits) & mask
            bits &>>= UInt64(truncatingIfNeeded: size)
            count &-= size
            if UInt(bitPattern: code &- clear) < 2 {
                if code != clear { outcome = .endCode; break }
                size = minimumCodeSize &+ 1
                mask = (1 &<< size) &- 1
                next = clear &+ 2
                previous = -1
                if used &<< 3 &- count == stopAtBit { outcome = .paused; break }
                continue
            }
            let length: Int, first: UInt64
            if code < next {
                let entry = t[2 &* code], head = t[2 &* code &+ 1]
                length = Int(truncatingIfNeeded: entry &>> 20) & 0xFFF
                first = head & 0xFF
                UnsafeMutableRawPointer(output + out).storeBytes(of: head.littleEndian, as: UInt64.self)
                if length > 8 {
                    let from = Int(truncatingIfNeeded: entry &>> 32) &- base
                    if from >= 0 {
                        copy(output + (from &+ 8), to: output + (out &+ 8), count: length &- 8)
                    } else {
                        walk(code, length: length, table: t, to: output + out)
                    }
                }
            } else if code == next && previous >= 0 {
                // KwKwK: the previous string, then its first byte again.
                let entry = t[2 &* previous], head = t[2 &* previous &+ 1]
                let previousLength = Int(truncatingIfNeeded: entry &>> 20) & 0xFFF
                length = previousLength &+ 1
                first = head & 0xFF
                UnsafeMutableRawPointer(output + out).storeBytes(of: head.littleEndian, as: UInt64.self)
                if previousLength > 8 {
                    if previousStart >= 0 {
                        copy(output + (previousStart &+ 8), to: output + (out &+ 8), count: previousLength &- 8)
                    } else {
                        walk(previous, length: previousLength, table: t, to: output + out)
                    }
                }
                output[out &+ previousLength] = UInt8(truncatingIfNeeded: first)
            } else {
                outcome = .invalidCode
                break
            }
            if previous >= 0 && next < tableSize {
                let entry = t[2 &* previous], head = t[2 &* previous &+ 1]
                let previousLength = (entry &>> 20) & 0xFFF
                t[2 &* next] = UInt64(truncatingIfNeeded: previous) | first &<< 12 | (previousLength &+ 1) &<< 20
                    | UInt64(truncatingIfNeeded: previousStart &+ base) &<< 32
                t[2 &* next &+ 1] = previousLength < 8 ? head | first &<< (previousLength &* 8) : head
                next &+= 1
            }
            if next > mask && size < 12 {
                size &+= 1
                mask = (1 &<< size) &- 1
            }
            previous = code
            previousStart = out
            out &+= length
        }
        return Registers(bits: bits, count: count, size: size, next: next, previous: previous,
                         previousStart: previousStart, used: used, out: out, outcome: outcome)
    }

    /// Copies `count` bytes forward in 8-byte steps, writing up to 7 bytes past the end. The
    /// source ends at or before the destination starts, so every step reads bytes already final.
    @inline(__always)
    private static func copy(_ from: UnsafeMutablePointer<UInt8>, to: UnsafeMutablePointer<UInt8>, count: Int) {
        var s = UnsafeRawPointer(from), d = UnsafeMutableRawPointer(to), n = count
        repeat {
            d.storeBytes(of: s.loadUnaligned(as: UInt64.self), as: UInt64.self)
            s += 8
            d += 8
            n &-= 8
        } while n > 0
    }

    /// Writes the string of `code` (`length` bytes) back to front from the table.
    @inline(__always)
    private static func walk(_ code: Int, length: Int, table t: UnsafeMutablePointer<UInt64>, to out: UnsafeMutablePointer<UInt8>) {
        var c = code, p = length &- 1
        while p > 0 {
            out[p] = UInt8(truncatingIfNeeded: t[2 &* c] &>> 12)
            c = Int(t[2 &* c] & 0xFFF)
            p &-= 1
        }
        out[0] = UInt8(truncatingIfNeeded: t[2 &* c] &>> 12)
    }
}
