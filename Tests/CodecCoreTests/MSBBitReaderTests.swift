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

struct ByteSearchTests {
    /// The eight-at-a-time search finds the same first 0xFF as the byte loop, at every length
    /// and alignment, with 0xFF next to bytes that borrow in the word test (0x00, 0xFE).
    @Test func firstFFEqualsTheScalarTwin() {
        var rng = SystemRandomNumberGenerator()
        let alphabet: [UInt8] = [0x00, 0x01, 0x7F, 0x80, 0xFE, 0xFF]
        for _ in 0..<2000 {
            let count = Int.random(in: 0...40, using: &rng)
            let sparse = Bool.random(using: &rng)
            let bytes = (0..<count + 8).map { _ in
                sparse ? UInt8.random(in: 0...0xFE, using: &rng) : alphabet.randomElement(using: &rng)!
            }
            bytes.withUnsafeBufferPointer { b in
                for start in 0..<8 {
                    let base = b.baseAddress! + start
                    #expect(ByteSearch.firstFF(base, count: count) == ByteSearch.firstFFScalar(base, count: count))
                }
            }
        }
    }

    /// Unstuffing with the bulk copy gives what T.81 B.1.1.5 says, byte by byte: FF 00 is a
    /// data FF, fill FFs are dropped, FF xx (xx ∉ {00, FF}) is a marker, whatever the chunks
    /// of input and room of output.
    @Test func unstuffingEqualsTheByteRule() {
        var rng = SystemRandomNumberGenerator()
        for _ in 0..<300 {
            let input = (0..<Int.random(in: 0...300, using: &rng)).map { _ in
                Int.random(in: 0..<4, using: &rng) == 0 ? [UInt8(0xFF), 0x00, 0xD0, 0x12].randomElement(using: &rng)!
                    : UInt8.random(in: 0...255, using: &rng)
            }
            // The rule, one byte at a time.
            var expected: [UInt8] = [], expectedMarker: UInt8?, i = 0
            while i < input.count {
                if input[i] != 0xFF { expected.append(input[i]); i += 1; continue }
                var j = i + 1
                while j < input.count && input[j] == 0xFF { j += 1 }
                guard j < input.count else { break }
                if input[j] == 0 { expected.append(0xFF); i = j + 1; continue }
                expectedMarker = input[j]
                break
            }
            var unstuffer = ByteUnstuffer()
            var output: [UInt8] = [], marker: UInt8?, consumed = 0
            while consumed < input.count && marker == nil {
                let chunk = min(Int.random(in: 1...40, using: &rng), input.count - consumed)
                let room = Int.random(in: 1...40, using: &rng)
                var out = [UInt8](repeating: 0, count: room)
                let (used, produced, code) = input[consumed..<(consumed + chunk)].withUnsafeBufferPointer { src in
                    out.withUnsafeMutableBufferPointer { unstuffer.unstuff(src, into: $0) }
                }
                output += out[0..<produced]
                consumed += used
                marker = code
            }
            #expect(output == expected)
            #expect(marker == expectedMarker)
        }
    }
}
