/// Writes entropy-coded data MSB first, stuffing a zero byte after every 0xFF (T.81
/// B.1.1.5); padding to a byte boundary is with 1 bits (F.1.2.3, as libjpeg's `flush_bits`).
/// The bytes go to a growing heap buffer written through its pointer.
struct JPEGBitWriter {
    private let output = JPEGByteBuffer()
    /// Bits not yet written, right-aligned in `buffer`; `count` of them (< 32 between calls).
    private var buffer: UInt64 = 0
    private var count: Int = 0

    /// The bytes written so far.
    var bytes: [UInt8] { output.array }

    /// Appends the low `length` bits of `value` (length ≤ 32; `value` has no higher bits set).
    @inline(__always)
    mutating func write(_ value: UInt32, _ length: Int) {
        buffer = buffer &<< UInt64(length) | UInt64(value)
        count &+= length
        if count >= 32 { drain32() }
    }

    /// Writes the top 32 pending bits as four bytes, stuffed.
    @inline(__always)
    private mutating func drain32() {
        count &-= 32
        let word = UInt32(truncatingIfNeeded: buffer &>> UInt64(count))
        let p = output.reserve(8)
        // A byte of `word` is 0xFF when the same byte of ~word is zero: test the four at once.
        let notWord = ~word
        if (notWord &- 0x0101_0101) & ~notWord & 0x8080_8080 != 0 {
            var n = 0
            for shift in stride(from: 24, through: 0, by: -8) {
                let byte = UInt8(truncatingIfNeeded: word &>> UInt32(shift))
                p[n] = byte
                n &+= 1
                if byte == 0xFF {
                    p[n] = 0
                    n &+= 1
                }
            }
            output.count &+= n
        } else {
            UnsafeMutableRawPointer(p).storeBytes(of: word.bigEndian, as: UInt32.self)
            output.count &+= 4
        }
    }

    /// Pads with 1 bits to a byte boundary and writes every pending byte.
    mutating func flush() {
        let pad = (8 - count % 8) % 8
        if pad > 0 { write((1 << UInt32(pad)) - 1, pad) }
        while count >= 8 {
            count -= 8
            let byte = UInt8(truncatingIfNeeded: buffer &>> UInt64(count))
            output.append(byte)
            if byte == 0xFF { output.append(0) }
        }
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
