/// Writes entropy-coded data MSB first, stuffing a zero byte after every 0xFF (T.81
/// B.1.1.5); padding to a byte boundary is with 1 bits (F.1.2.3, as libjpeg's `flush_bits`).
/// The bytes go to a growing heap buffer written through its pointer, eight at a time when
/// none of them is 0xFF.
struct JPEGBitWriter {
    private let output = JPEGByteBuffer()
    /// Bits not yet written, right-aligned in `buffer`: 64 − `free` of them (libjpeg-turbo's
    /// 64-bit `put_buffer`); `free` is 1…64 between calls.
    private var buffer: UInt64 = 0
    private var free: Int = 64

    /// The bytes written so far.
    var bytes: [UInt8] { output.array }

    /// Appends the low `length` bits of `value` (length ≤ 32; `value` has no higher bits set).
    @inline(__always)
    mutating func write(_ value: UInt32, _ length: Int) {
        if length < free {
            buffer = buffer &<< UInt64(length) | UInt64(value)
            free &-= length
            return
        }
        // The top `free` bits of `value` complete 64 bits; the other `rest` start the next word.
        let rest = length &- free
        drain64(buffer &<< UInt64(free) | UInt64(value &>> UInt32(rest)))
        buffer = UInt64(value) & ((1 &<< UInt64(rest)) &- 1)
        free = 64 &- rest
    }

    /// Writes 64 bits as eight bytes, each 0xFF followed by a stuffed zero.
    @inline(__always)
    private func drain64(_ word: UInt64) {
        let p = output.reserve(16)
        // A byte of `word` is 0xFF when the same byte of ~word is zero: test the eight at once.
        let notWord = ~word
        if (notWord &- 0x0101_0101_0101_0101) & ~notWord & 0x8080_8080_8080_8080 != 0 {
            var n = 0
            for shift in stride(from: 56, through: 0, by: -8) {
                let byte = UInt8(truncatingIfNeeded: word &>> UInt64(shift))
                p[n] = byte
                n &+= 1
                if byte == 0xFF {
                    p[n] = 0
                    n &+= 1
                }
            }
            output.count &+= n
        } else {
            UnsafeMutableRawPointer(p).storeBytes(of: word.bigEndian, as: UInt64.self)
            output.count &+= 8
        }
    }

    /// Pads with 1 bits to a byte boundary and writes every pending byte.
    mutating func flush() {
        let pad = (64 - free) % 8 == 0 ? 0 : 8 - (64 - free) % 8
        if pad > 0 { write((1 << UInt32(pad)) - 1, pad) }
        var pending = 64 - free
        guard pending > 0 else { return }
        let word = buffer &<< UInt64(free)
        var shift: UInt64 = 56
        while pending > 0 {
            let byte = UInt8(truncatingIfNeeded: word &>> shift)
            output.append(byte)
            if byte == 0xFF { output.append(0) }
            pending -= 8
            shift &-= 8
        }
        buffer = 0
        free = 64
    }

    /// Writes a marker (after `flush`): 0xFF and its code, unstuffed.
    mutating func marker(_ code: UInt8) {
        output.append(0xFF)
        output.append(code)
    }

    /// Hands over the bytes written so far.
    mutating func take() -> [UInt8] {
        defer { output.count = 0 }
        return output.array
    }
}

/// A growable byte buffer on the heap, written through its pointer by ``JPEGBitWriter``.
final class JPEGByteBuffer {
    private(set) var pointer: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    var count = 0

    init(capacity: Int = 1 << 16) {
        self.capacity = capacity
        pointer = .allocate(capacity: capacity)
    }

    deinit { pointer.deallocate() }

    /// Room for `n` more bytes at the end; returns where they go.
    @inline(__always)
    func reserve(_ n: Int) -> UnsafeMutablePointer<UInt8> {
        if count &+ n > capacity { grow(count + n) }
        return pointer + count
    }

    private func grow(_ needed: Int) {
        let newCapacity = max(needed, capacity * 2)
        let newPointer = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newPointer.update(from: pointer, count: count)
        pointer.deallocate()
        pointer = newPointer
        capacity = newCapacity
    }

    func append(_ byte: UInt8) {
        reserve(1).pointee = byte
        count += 1
    }

    var array: [UInt8] { Array(UnsafeBufferPointer(start: pointer, count: count)) }
}
