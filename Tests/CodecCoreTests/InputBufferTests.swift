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

    @Test func byteReaderFlagsOverrun() {
        var r = ByteReader([1, 2, 0, 3])
        #expect(r.readNulTerminated() == [1, 2])
        #expect(r.readU16(bigEndian: true) == nil)
        #expect(r.overran)
    }
}
