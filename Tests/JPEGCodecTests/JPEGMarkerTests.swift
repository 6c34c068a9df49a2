@testable import JPEGCodec
import Testing

struct JPEGMarkerTests {
    /// T.81 Table B.1: SOF3/5–7/11/13–15 are lossless or hierarchical; SOF0–2 and SOF9–10 are not.
    @Test func unsupportedFramesAreTheLosslessAndHierarchicalOnes() {
        let unsupported = (0xC0...0xCF).map(UInt8.init).filter(JPEGMarker.isUnsupportedFrame)
        #expect(unsupported == [0xC3, 0xC5, 0xC6, 0xC7, 0xCB, 0xCD, 0xCE, 0xCF])
        #expect((0xD0...0xD7).allSatisfy { JPEGMarker.isRestart(UInt8($0)) } && !JPEGMarker.isRestart(0xD8))
    }
}
