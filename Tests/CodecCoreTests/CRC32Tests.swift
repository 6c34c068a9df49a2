import Testing
@testable import CodecCore

struct CRC32Tests {
    @Test func knownVectors() {
        let check = Array("123456789".utf8)
        #expect(check.withUnsafeBufferPointer { CRC32.checksum($0) } == 0xCBF4_3926)
        let empty: [UInt8] = []
        #expect(empty.withUnsafeBufferPointer { CRC32.checksum($0) } == 0)
    }

    @Test func slicedEqualsBytewise() {
        let data = (0..<1000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        var table = [UInt32](repeating: 0, count: 256)
        for n in 0..<256 {
            var c = UInt32(n)
            for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
            table[n] = c
        }
        for length in [0, 1, 7, 8, 9, 63, 1000] {
            var c: UInt32 = 0xFFFF_FFFF
            for b in data[0..<length] { c = table[Int((c ^ UInt32(b)) & 0xFF)] ^ (c >> 8) }
            let sliced = data[0..<length].withUnsafeBufferPointer { CRC32.checksum($0) }
            #expect(sliced == ~c, "length \(length)")
        }
    }

    @Test func incrementalEqualsWhole() {
        let data = (0..<300).map { UInt8(truncatingIfNeeded: $0 * 13) }
        var crc = CRC32()
        data[0..<100].withUnsafeBufferPointer { crc.update($0) }
        data[100...].withUnsafeBufferPointer { crc.update($0) }
        #expect(crc.value == data.withUnsafeBufferPointer { CRC32.checksum($0) })
    }
}
