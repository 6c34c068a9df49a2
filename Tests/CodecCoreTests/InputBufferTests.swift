import Testing
@testable import CodecCore

struct InputBufferTests {
    @Test func readsReturnNilWhenShort() {
        var input = InputBuffer()
        input.append([0x12, 0x34, 0x56])
        #expect(input.u16LE(at: 1) == 0x5634)
        #expect(input.u32BE(at: 0) == nil)
        #expect(input.u8(at: -1) == nil)
        input.append([0x78])
        #expect(input.u32BE(at: 0) == 0x1234_5678)
        #expect(input.has(4, at: 0) && !input.has(1, at: 4) && !input.has(-1, at: 0))
    }

    /// Bytes appended in every size, small ones gathered and large ones kept whole, read back
    /// across segment borders by every reader.
    @Test func readsAcrossSegments() {
        let capacity = InputBuffer.segmentCapacity
        let all = (0..<(5 * capacity)).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 8) }
        var input = InputBuffer()
        var offset = 0
        for size in [1, 3, capacity - 10, 20, capacity + 5, 2, 7, capacity, 100] {
            input.append(all[offset..<(offset + size)])
            offset += size
        }
        input.append(all[offset...])
        #expect(input.count == all.count && input.segmentCount > 3)
        for position in stride(from: 0, to: all.count - 4, by: 997) + [capacity - 9, capacity - 1, capacity] {
            #expect(input.u8(at: position) == all[position])
            #expect(input.u16LE(at: position) == UInt16(all[position]) | UInt16(all[position + 1]) << 8)
            let be = all[position..<(position + 4)].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
            #expect(input.u32BE(at: position) == be)
        }
        let span = (capacity - 50)..<(3 * capacity + 50)
        #expect(input.copy(span) == Array(all[span]))
        #expect(input.withBytes(span) { Array($0) } == Array(all[span]))
        var runs: [UInt8] = []
        input.forEachRun(span) { runs += $0 }
        #expect(runs == Array(all[span]))
        var walked: [UInt8] = [], position = span.lowerBound
        while position < span.upperBound {
            let run = input.withContiguousRun(from: position, to: span.upperBound) { Array($0) }
            #expect(!run.isEmpty)
            walked += run
            position += run.count
        }
        #expect(walked == Array(all[span]))
        #expect(input.withContiguousRun(from: all.count, to: all.count + 10) { $0.count } == 0)
    }

    /// Appending never moves the bytes already held: small appends fill a tail segment in
    /// place, and a large array becomes a segment without a copy.
    @Test func appendsNeverRecopy() {
        var input = InputBuffer()
        input.append([1, 2, 3])
        let tail = input.withContiguousRun(from: 0, to: 1) { $0.baseAddress }
        for _ in 0..<1000 { input.append([4, 5, 6, 7]) }
        #expect(input.withContiguousRun(from: 0, to: 1) { $0.baseAddress } == tail)
        #expect(input.segmentCount == 1)
        let large = [UInt8](repeating: 9, count: InputBuffer.segmentCapacity * 2)
        input.append(large)
        let shared = large.withUnsafeBufferPointer { $0.baseAddress }
        #expect(input.withContiguousRun(from: 4003, to: 4004) { $0.baseAddress } == shared)
        #expect(input.segmentCount == 2)
        input.append([8])
        #expect(input.segmentCount == 3 && input.u8(at: input.count - 1) == 8)
    }

    @Test func byteReaderFlagsOverrun() {
        var r = ByteReader([1, 2, 0, 3])
        #expect(r.readNulTerminated() == [1, 2])
        #expect(r.readU16(bigEndian: true) == nil)
        #expect(r.overran)
    }
}
