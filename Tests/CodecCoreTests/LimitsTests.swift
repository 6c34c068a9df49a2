import Testing
@testable import CodecCore

struct LimitsTests {
    @Test func overflowingSizesAreRefusedBeforeAllocation() {
        let limits = Limits()
        #expect(throws: DecodingError.limitExceeded("pixel count exceeds Limits.maxPixels")) {
            try limits.checkedRasterBytes(width: Int(Int32.max), height: Int(Int32.max), bytesPerPixel: 4)
        }
        #expect(throws: DecodingError.limitExceeded("pixel count exceeds Limits.maxPixels")) {
            try limits.checkedRasterBytes(width: Int.max, height: 2, bytesPerPixel: 4)
        }
        #expect(throws: DecodingError.invalidData("image dimension is zero")) {
            try limits.checkedRasterBytes(width: 0, height: 5, bytesPerPixel: 4)
        }
    }

    @Test func heldBytesLimit() throws {
        var limits = Limits()
        limits.maxBytesHeld = 1000
        #expect(try limits.checkedRasterBytes(width: 10, height: 25, bytesPerPixel: 4) == 1000)
        #expect(throws: DecodingError.self) { try limits.checkedRasterBytes(width: 10, height: 26, bytesPerPixel: 4) }
    }
}
