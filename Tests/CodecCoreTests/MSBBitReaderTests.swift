import Testing
@testable import CodecCore

struct MSBBitReaderTests {
    /// Bits come out most significant first, across byte and word boundaries, in any widths.
    @Test func readsMostSignificantBitFirst() {
        var rng = SystemRandomNumberGenerator()
        let bytes = (0..<203).map { _ in UInt8.random(in: 0...255, using: &rng) }
        let bits = bytes.flatMap { b in (0..<8).map { Int(b >> (7 - $0)) & 1 } }
        var reader = MSBBitReader()
        var at = 0
        bytes.withUnsafeBufferPointer { buffer in
            while at + 32 <= bits.count {
                let n = Int.random(in: 0...32, using: &rng)
                let expected = bits[at..<(at + n)].reduce(UInt32(0)) { $0 << 1 | UInt32($1) }
                #expect(reader.read(n, buffer) == expected)
                at += n
            }
        }
        // Refills may load zeros past the end ahead of need; none of them was read.
        #expect(reader.count >= reader.zeroBitsRead)
    }

    /// Past the end come zero bits, counted.
    @Test func suppliesZerosPastTheEnd() {
        var reader = MSBBitReader()
        [UInt8]([0xFF, 0x80]).withUnsafeBufferPointer { buffer in
            #expect(reader.read(9, buffer) == 0x1FF)
            #expect(reader.read(7, buffer) == 0)
            #expect(reader.read(20, buffer) == 0)
        }
        #expect(reader.zeroBitsRead > 0 && reader.count < reader.zeroBitsRead)
    }

    /// T.81 B.1.1.5: FF 00 is a data byte FF; fill bytes FF before a marker or a stuffed 00 go;
    /// the first FF xx with xx ∉ {00, FF} is a marker, and unstuffing stops before its code.
    @Test(arguments: [1, 2, 3, 64])
    func unstuffsAndStopsAtMarkers(chunk: Int) {
        let input: [UInt8] = [0x12, 0xFF, 0x00, 0x34, 0xFF, 0xFF, 0x00, 0x56, 0xFF, 0xFF, 0xD0, 0x78]
        var unstuffer = ByteUnstuffer()
        var out = [UInt8](repeating: 0, count: 16), produced = 0, position = 0
        var marker: UInt8?
        while marker == nil && position < input.count {
            let end = min(input.count, position + chunk)
            let result = input[position..<end].withUnsafeBufferPointer { src in
                out.withUnsafeMutableBufferPointer { dst in
                    unstuffer.unstuff(src, into: UnsafeMutableBufferPointer(rebasing: dst[produced...]))
                }
            }
            position += result.consumed
            produced += result.produced
            marker = result.marker
        }
        #expect(Array(out[0..<produced]) == [0x12, 0xFF, 0x34, 0xFF, 0x56])
        #expect(marker == 0xD0 && position == 10)
    }
}
