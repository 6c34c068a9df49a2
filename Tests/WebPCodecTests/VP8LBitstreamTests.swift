import CodecCore
import Foundation
import TestSupport
import Testing
@testable import WebPCodec

/// Hand-built VP8L bitstreams: what decodes, and every malformed shape refused with a typed
/// error (never a trap).
struct VP8LBitstreamTests {
    static func decode(_ bytes: [UInt8], limits: Limits = Limits()) -> Result<(width: Int, height: Int, pixels: [UInt8]), DecodingError> {
        do throws(DecodingError) {
            return .success(try bytes.withUnsafeBufferPointer { (p) throws(DecodingError) in
                try VP8LDecoder.decode(p, limits: limits)
            })
        } catch {
            return .failure(error)
        }
    }

    static func error(_ bytes: [UInt8], limits: Limits = Limits()) -> DecodingError? {
        if case .failure(let e) = decode(bytes, limits: limits) { return e }
        return nil
    }

    /// The five codes of a group as simple codes: green has `green`, the others one symbol.
    static func simpleGroup(_ w: inout VP8LBitWriter, green: [Int], red: Int = 0x11, blue: Int = 0x22, alpha: Int = 0xFF) {
        w.simpleCode(green)
        w.simpleCode([red])
        w.simpleCode([blue])
        w.simpleCode([alpha])
        w.simpleCode([0])
    }

    /// A 3×2 image without transforms: green is one bit per pixel (symbols 0x10 and 0x80).
    @Test func decodesLiteralsWithSimpleCodes() throws {
        var w = VP8LBitWriter()
        w.header(width: 3, height: 2, alpha: true)
        w.write(0, 1)               // no transform
        w.write(0, 1)               // no colour cache
        w.write(0, 1)               // no meta prefix codes
        Self.simpleGroup(&w, green: [0x10, 0x80])
        for bit in [0, 1, 1, 0, 0, 1] { w.writeCode(bit, 1) }
        let image = try Self.decode(w.bytes).get()
        #expect(image.width == 3 && image.height == 2)
        let greens = stride(from: 1, to: image.pixels.count, by: 4).map { image.pixels[$0] }
        #expect(greens == [0x10, 0x80, 0x80, 0x10, 0x10, 0x80])
        #expect(Array(image.pixels[0..<4]) == [0x11, 0x10, 0x22, 0xFF])
    }

    /// An LZ77 copy of distance code 2 (the left neighbour, (1, 0)) of length 4 repeats a pixel.
    @Test func decodesBackwardReference() throws {
        var w = VP8LBitWriter()
        w.header(width: 5, height: 1)
        w.write(0, 3)
        // green: literal 0x40 (code 0) and length prefix 2 (symbol 258: length 3) (code 1);
        // a simple code cannot name symbols past 255.
        w.twoSymbolNormalCode([0x40, 258], alphabetSize: 280)
        w.simpleCode([0x01]); w.simpleCode([0x02]); w.simpleCode([0xFF])
        w.simpleCode([1])            // distance prefix 1: distance code 2
        w.writeCode(0, 1)            // literal
        w.writeCode(1, 1)            // copy, length 3, distance code 2 → (1, 0) → 1 pixel back
        w.writeCode(0, 1)            // literal
        let image = try Self.decode(w.bytes).get()
        #expect(image.pixels == [UInt8]((0..<5).flatMap { _ in [0x01, 0x40, 0x02, 0xFF] }))
    }

    @Test func refusesBadSignatureAndVersion() {
        var w = VP8LBitWriter()
        w.header(width: 1, height: 1, version: 1)
        w.write(0, 32)
        #expect(Self.error(w.bytes) == .invalidData("VP8L version is not 0"))
        var bytes = w.bytes
        bytes[0] = 0x2e
        #expect(Self.error(bytes) == .invalidData("VP8L signature is not 0x2f"))
        #expect(Self.error([0x2f, 0, 0]) == .truncated("VP8L header is shorter than 5 bytes"))
    }

    /// The size is checked against Limits before anything is allocated.
    @Test func checksLimitsBeforeAllocating() {
        var w = VP8LBitWriter()
        w.header(width: 16384, height: 16384)
        w.write(0, 64)
        var limits = Limits()
        limits.maxPixels = 1 << 20
        #expect(Self.error(w.bytes, limits: limits)?.kind == .limitExceeded)
        limits = Limits()
        limits.maxBytesHeld = 1 << 20
        #expect(Self.error(w.bytes, limits: limits)?.kind == .limitExceeded)
    }

    @Test func refusesTransformUsedTwice() {
        var w = VP8LBitWriter()
        w.header(width: 4, height: 4)
        w.write(1, 1); w.write(2, 2)       // subtract green
        w.write(1, 1); w.write(2, 2)       // subtract green again
        w.write(0, 32)
        #expect(Self.error(w.bytes) == .invalidData("VP8L transform is used twice"))
    }

    @Test func refusesColorCacheBitsAbove11() {
        var w = VP8LBitWriter()
        w.header(width: 4, height: 4)
        w.write(0, 1)
        w.write(1, 1); w.write(12, 4)
        w.write(0, 32)
        #expect(Self.error(w.bytes) == .invalidData("VP8L color cache bits are not 1 to 11"))
    }

    /// A copy reaching before the first pixel.
    @Test func refusesBackwardReferenceBeforeStart() {
        var w = VP8LBitWriter()
        w.header(width: 4, height: 4)
        w.write(0, 3)
        w.twoSymbolNormalCode([0x40, 256], alphabetSize: 280)
        w.simpleCode([0]); w.simpleCode([0]); w.simpleCode([0])
        w.simpleCode([30])                  // a far distance
        w.writeCode(1, 1)                   // copy at pixel 0
        w.write(0, 32)
        #expect(Self.error(w.bytes) == .invalidData("VP8L backward reference is outside the image"))
    }

    /// The green code's lengths from a normal code: three symbols of length 1.
    @Test func refusesOverSubscribedCodeInBitstream() {
        var w = VP8LBitWriter()
        w.header(width: 2, height: 2)
        w.write(0, 3)
        // Code length code: symbols 0 and 1, one bit each (0 → "0", 1 → "1").
        w.codeLengthCode([0: 1, 1: 1])
        w.write(0, 1)                                  // no max_symbol
        for s in 0..<280 { w.writeCode(s < 3 ? 1 : 0, 1) }
        w.write(0, 64)
        #expect(Self.error(w.bytes) == .invalidData("VP8L prefix code is over-subscribed"))
    }

    /// The CVE-2023-4863 shape in a bitstream: every symbol of the largest green alphabet (280
    /// + 2048 cache codes) gets length 15 by repeats: far too few codes to fill the tree, and
    /// long enough that each root prefix would get a second-level table.
    @Test func refusesLongIncompleteCodeInBitstream() {
        var w = VP8LBitWriter()
        w.header(width: 2, height: 2)
        w.write(0, 1)
        w.write(1, 1); w.write(11, 4)                  // colour cache of 2048
        w.write(0, 1)
        // Code length code: 15 → "0", 16 (repeat previous) → "1".
        w.codeLengthCode([15: 1, 16: 1])
        w.write(0, 1)
        w.writeCode(0, 1)                              // one length 15
        var left = 2328 - 1
        while left > 0 {
            let n = min(6, left)
            if left - n > 0 && left - n < 3 { w.writeCode(1, 1); w.write(3 - 3, 2); left -= 3; continue }
            w.writeCode(1, 1); w.write(n - 3, 2)
            left -= n
        }
        w.write(0, 64)
        #expect(Self.error(w.bytes) == .invalidData("VP8L prefix code is incomplete"))
    }

    /// A repeat past the alphabet's end, and max_symbol above the alphabet size.
    @Test func refusesCodeLengthOverruns() {
        var w = VP8LBitWriter()
        w.header(width: 2, height: 2)
        w.write(0, 3)
        w.codeLengthCode([0: 1, 18: 1])               // 0 → "0", 18 → "1"
        w.write(0, 1)
        w.writeCode(1, 1); w.write(127, 7)             // 138 zeros
        w.writeCode(1, 1); w.write(127, 7)             // 276
        w.writeCode(1, 1); w.write(127, 7)             // past 280
        w.write(0, 64)
        #expect(Self.error(w.bytes) == .invalidData("VP8L code length repeat passes the alphabet's end"))

        var m = VP8LBitWriter()
        m.header(width: 2, height: 2)
        m.write(0, 3)
        m.codeLengthCode([0: 1, 1: 1])
        m.write(1, 1); m.write(4, 3); m.write(300, 10)  // max_symbol = 2 + 300 > 280
        m.write(0, 64)
        #expect(Self.error(m.bytes) == .invalidData("VP8L max_symbol exceeds the alphabet size"))
    }

    /// Every prefix of real files is refused with an error (a typed one, no trap), and random
    /// corruption of their bytes ends in an image or an error.
    @Test(arguments: ["plasma-blur-z6-64x48.webp", "pal4-z6-37x23.webp", "alpha-ramp-exact-z9-48x40.webp",
                      "pal600-z6-64x48.webp"])
    func truncatedAndCorruptInputNeverTraps(name: String) throws {
        let file = try Corpus.bytes(Corpus.conformance.appendingPathComponent("fixtures/webp/\(name)"))
        let payload = try file.withUnsafeBufferPointer { (p) throws(DecodingError) in try WebPContainer.losslessBitstream(p) }
        let bitstream = Array(file[payload])
        #expect(throws: Never.self) { try Self.decode(bitstream).get() }
        // Cut at every byte (stride keeps debug builds quick on the bigger files).
        let step = max(1, bitstream.count / 400)
        for cut in stride(from: 0, to: bitstream.count - 1, by: step) {
            let e = Self.error(Array(bitstream[0..<cut]))
            #expect(e != nil, "\(name) cut at \(cut) decoded")
        }
        var rng = SplitMix64(seed: UInt64(bitstream.count))
        for _ in 0..<60 {
            var corrupt = bitstream
            for _ in 0..<Int.random(in: 1...4, using: &rng) {
                let i = Int.random(in: VP8LHeader.size..<corrupt.count, using: &rng)
                corrupt[i] ^= UInt8(1) << UInt8.random(in: 0...7, using: &rng)
            }
            _ = Self.decode(corrupt)
        }
    }

    /// As in libwebp, the VP8L bits run on past the chunk to the end of the data: a bitstream
    /// whose chunk size leaves out its last byte (there, the pad byte of an odd-sized chunk)
    /// decodes the same as the whole one.
    @Test func bitsRunPastTheChunkAsInLibwebp() throws {
        for width in 3...12 {
            var w = VP8LBitWriter()
            w.header(width: width, height: 9)
            w.write(0, 3)
            Self.simpleGroup(&w, green: [0x10, 0x80])
            for i in 0..<(width * 9) { w.writeCode(i % 3 == 0 ? 1 : 0, 1) }
            guard w.bytes.count % 2 == 0 && w.bitCount % 8 != 0 else { continue }
            let n = w.bytes.count
            func le32(_ v: Int) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: v >> (8 * $0)) } }
            let file = Array("RIFF".utf8) + le32(12 + n) + Array("WEBPVP8L".utf8) + le32(n - 1) + w.bytes
            let whole = try Self.decode(w.bytes).get()
            #expect(Self.error(Array(w.bytes.dropLast())) != nil)
            let fromFile = try file.withUnsafeBufferPointer { (p) throws(DecodingError) in try WebPContainer.decodeLossless(p) }
            #expect(fromFile.pixels == whole.pixels)
            return
        }
        Issue.record("no width gave an even-sized bitstream")
    }

    /// A container cut anywhere is refused, never trapped on.
    @Test func truncatedContainer() throws {
        let file = try Corpus.bytes(Corpus.conformance.appendingPathComponent("fixtures/webp/plasma-blur-z6-icc-64x48.webp"))
        for cut in stride(from: 0, to: file.count - 1, by: 7) {
            let prefix = Array(file[0..<cut])
            let failed: Bool = prefix.withUnsafeBufferPointer { p in
                do throws(DecodingError) { _ = try WebPContainer.decodeLossless(p); return false } catch { return true }
            }
            #expect(failed, "cut at \(cut)")
        }
    }
}
