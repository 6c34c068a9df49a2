import Foundation
import ImageCodecs
import Testing
@testable import GIFCodec

/// Inputs built to exhaust memory or time end in a typed error or a bounded decode.
struct GIFHostileInputTests {
    static let palette: [[UInt8]] = [[0, 0, 0], [255, 255, 255]]

    /// Resident memory in bytes (Linux), or nil.
    static func residentBytes() -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
              let kb = Int(line.split(separator: " ").dropFirst().first ?? "") else { return nil }
        return kb * 1024
    }

    /// A 10000 × 10000 screen of 1 × 1 frames: one canvas and frame-sized rasters, never a
    /// canvas per frame (peak ≤ 1.25 × canvas + a margin, measured on resident memory).
    @Test func hugeScreenOfTinyFrames() throws {
        var b = GIFBuilder(width: 10_000, height: 10_000, globalTable: Self.palette)
        b.loop(0)
        for i in 0..<200 {
            b.graphicControl(disposal: [0, 1, 2, 3][i % 4], delay: 1)
            b.image(x: (i * 4999) % 10_000, y: (i * 37) % 10_000, width: 1, height: 1, indices: [1], minimumCodeSize: 2)
        }
        b.trailer()
        let before = Self.residentBytes()
        // 20 billion canvas pixels over the frames: past the default Limits.maxAnimationPixels,
        // which this test raises to measure the memory of such a file.
        var options = DecodingOptions()
        options.limits.maxAnimationPixels = 200 * 10_000 * 10_000
        let decoder = GIFDecoder(options: options)
        let input = InputBuffer(b.bytes, isFinal: true)
        try decoder.advance(input)
        #expect(decoder.frameCount == 200)
        var peak = 0
        for index in 0..<200 {
            let image = try decoder.rendered(at: index, input: input).converted(.init())
            let offset = (((index * 37) % 10_000) * 10_000 + (index * 4999) % 10_000) * 4
            #expect(image.pixels[offset..<(offset + 4)] == [255, 255, 255, 255])
            peak = max(peak, Self.residentBytes() ?? 0)
        }
        if let before {
            #expect(peak - before <= 10_000 * 10_000 * 4 * 5 / 4 + (100 << 20), "peak grew by \(peak - before) bytes")
        }
    }

    @Test func screenBeyondTheLimitsIsRefusedAtTheHeader() throws {
        var b = GIFBuilder(width: 65535, height: 65535, globalTable: Self.palette)
        b.image(width: 1, height: 1, indices: [1], minimumCodeSize: 2)
        b.trailer()
        let source = ImageSource(bytes: b.bytes)
        #expect(source.error == .limitExceeded("pixel count exceeds Limits.maxPixels"))
        #expect(source.properties?.width == 65535)
        var options = DecodingOptions()
        options.limits.maxPixels = 100
        var small = GIFBuilder(width: 11, height: 10, globalTable: Self.palette)
        small.image(width: 1, height: 1, indices: [1], minimumCodeSize: 2)
        small.trailer()
        #expect(ImageSource(bytes: small.bytes, options: options).status == .invalidData)
        options.limits.maxPixels = 110
        #expect(ImageSource(bytes: small.bytes, options: options).status == .complete)
    }

    @Test func frameCountLimit() {
        var b = GIFBuilder(width: 1, height: 1, globalTable: Self.palette)
        for _ in 0..<6 { b.image(width: 1, height: 1, indices: [1], minimumCodeSize: 2) }
        b.trailer()
        var options = DecodingOptions()
        options.limits.maxFrames = 5
        let source = ImageSource(bytes: b.bytes, options: options)
        #expect(source.error == .limitExceeded("frame count exceeds Limits.maxFrames"))
        options.limits.maxFrames = 6
        #expect(ImageSource(bytes: b.bytes, options: options).status == .complete)
    }

    /// A 60000 × 60000 image on a 4 × 4 screen with maximally expanding LZW data: decoding
    /// stops after the four visible rows.
    @Test func hugeFrameOnASmallScreenStopsAfterTheVisibleRows() throws {
        let rows = [UInt8](repeating: 1, count: 60_000 * 5)
        var b = GIFBuilder(width: 4, height: 4, globalTable: Self.palette)
        b.image(width: 60_000, height: 60_000, minimumCodeSize: 2,
                data: ReferenceLZWEncoder.encode(rows, minimumCodeSize: 2, deferredClear: true, endCode: false))
        b.trailer()
        let source = ImageSource(bytes: b.bytes)
        let image = try source.image(at: 0)
        #expect(image.pixels == [UInt8](repeating: 255, count: 64))
        // Too little data for the visible rows is an error, found without decoding further.
        var short = GIFBuilder(width: 4, height: 4, globalTable: Self.palette)
        short.image(width: 60_000, height: 60_000, minimumCodeSize: 2, data: ReferenceLZWEncoder.encode([1, 1, 1], minimumCodeSize: 2))
        short.trailer()
        #expect(throws: DecodingError.invalidData("LZW end code before the last pixel")) { try ImageSource(bytes: short.bytes).image(at: 0) }
    }

    /// An image entirely off the screen is not decoded at all.
    @Test func imageOffTheScreenIsNotDecoded() throws {
        var b = GIFBuilder(width: 2, height: 2, globalTable: Self.palette)
        b.image(width: 2, height: 2, indices: [1, 1, 1, 1], minimumCodeSize: 2)
        b.image(x: 65000, y: 65000, width: 535, height: 535, minimumCodeSize: 2, data: [0xFF, 0xFF])
        b.trailer()
        let source = ImageSource(bytes: b.bytes)
        #expect(try source.image(at: 1).pixels == [UInt8](repeating: 255, count: 16))
    }

    /// Every byte value in every position of a small animation: no crash, a typed outcome.
    @Test func everySingleByteMutation() {
        var model = GIFModel.random(seed: 5, frames: 3)
        model.loopCount = 2
        let bytes = model.bytes
        var options = DecodingOptions()
        options.limits.maxPixels = 1 << 20
        for position in bytes.indices {
            for value in [0x00, 0x01, 0x08, 0x0C, 0x21, 0x2C, 0x3B, 0x7F, 0xFF] as [UInt8] {
                var mutated = bytes
                mutated[position] = value
                let source = ImageSource(bytes: mutated, options: options)
                for index in 0..<min(source.count, 8) { _ = try? source.image(at: index) }
            }
        }
    }

    /// Large metadata arrives in many sub-blocks: each is appended in place, and the properties
    /// asked for after every piece are not rebuilt from scratch each time.
    @Test func largeCommentInManySubBlocks() throws {
        var b = GIFBuilder(width: 1, height: 1, globalTable: Self.palette)
        let text = [UInt8](repeating: 0x61, count: 4 << 20)
        b.append([0x21, 0xFE] + GIFBuilder.subBlocks(text))
        b.image(width: 1, height: 1, indices: [1], minimumCodeSize: 2)
        b.trailer()
        let source = ImageSource(incremental: .init())
        var offset = 0
        while offset < b.bytes.count {
            let end = min(b.bytes.count, offset + 4096)
            source.append(b.bytes[offset..<end], final: end == b.bytes.count)
            _ = source.status
            offset = end
        }
        #expect(source.status == .complete)
        #expect(source.properties?.text.first?.text.utf8.count == 4 << 20)
    }
}
