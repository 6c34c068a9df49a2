import CodecCore
import Testing
@testable import WebPCodec

/// Canonical code construction (RFC 9649 3.7.2.1): complete codes and the single-symbol code are
/// accepted and decode every symbol; incomplete, over-subscribed and empty codes are refused
/// before any table entry is written, whatever their shape.
struct VP8LPrefixCodeTests {
    /// Builds the table for `lengths`, or returns the error; `tables` starts with a sentinel
    /// prefix so that offsets are exercised.
    static func build(_ lengths: [UInt8], rootBits: Int = VP8LPrefixCode.rootBits) -> (tables: [UInt32], start: Int, error: DecodingError?) {
        var tables: [UInt32] = [0xDEAD_BEEF, 0xDEAD_BEEF, 0xDEAD_BEEF]
        do throws(DecodingError) {
            let start = try lengths.withUnsafeBufferPointer { (p) throws(DecodingError) in
                try VP8LPrefixCode.appendTable(codeLengths: p, rootBits: rootBits, to: &tables)
            }
            return (tables, start, nil)
        } catch {
            return (tables, 0, error)
        }
    }

    /// The canonical codes of `lengths` (RFC 9649 3.7.2.1.1), most significant bit first.
    static func canonicalCodes(_ lengths: [UInt8]) -> [Int: (code: Int, length: Int)] {
        var codes: [Int: (Int, Int)] = [:]
        var code = 0
        for length in 1...15 {
            for (symbol, l) in lengths.enumerated() where Int(l) == length {
                codes[symbol] = (code, length)
                code += 1
            }
            code <<= 1
        }
        return codes
    }

    /// Decodes every symbol of a complete code from its canonical code followed by junk bits.
    static func expectDecodesEverySymbol(_ lengths: [UInt8]) {
        let built = build(lengths)
        #expect(built.error == nil)
        guard built.error == nil else { return }
        for (symbol, c) in canonicalCodes(lengths) {
            var writer = VP8LBitWriter()
            writer.writeCode(c.code, c.length)
            writer.write(0x5A5A, 16)
            writer.write(0, 32)
            var reader = LSBBitReader()
            writer.bytes.withUnsafeBufferPointer { buffer in
                reader.refill(buffer)
                built.tables.withUnsafeBufferPointer { t in
                    let decoded = VP8LPrefixCode.readSymbol(t.baseAddress! + built.start, &reader)
                    #expect(decoded == symbol, "symbol \(symbol) length \(c.length)")
                }
                // Exactly the code's bits were consumed: the junk follows.
                #expect(reader.read(16, buffer) == 0x5A5A, "symbol \(symbol) length \(c.length)")
            }
        }
    }

    @Test func completeShortCode() {
        Self.expectDecodesEverySymbol([2, 1, 3, 3])
    }

    /// Random complete codes with lengths up to 15 over the largest alphabet (280 + 2048):
    /// many second-level tables of different widths.
    @Test(arguments: [UInt64(1), 2, 3, 4, 5, 6, 7, 8])
    func randomCompleteCodes(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        let alphabet = 2328
        let target = Int.random(in: 2...alphabet, using: &rng)
        // Split random leaves (below 15) until `target` leaves: always complete.
        var leaves: [UInt8] = [0]
        while leaves.count < target {
            let candidates = leaves.indices.filter { leaves[$0] < 15 }
            guard let i = candidates.randomElement(using: &rng) else { break }
            leaves[i] += 1
            leaves.append(leaves[i])
        }
        var lengths = [UInt8](repeating: 0, count: alphabet)
        var symbols = Array(0..<alphabet)
        symbols.shuffle(using: &rng)
        for (i, l) in leaves.enumerated() { lengths[symbols[i]] = l }
        Self.expectDecodesEverySymbol(lengths)
        // The table is exactly as large as the layout needs: at most 256 + 256 × 128.
        let built = Self.build(lengths)
        #expect(built.tables.count - built.start <= 256 + 256 * 128)
    }

    /// One used symbol, whatever its length, is a zero-bit code.
    @Test(arguments: [UInt8(1), 3, 15])
    func singleSymbolTakesNoBits(length: UInt8) {
        var lengths = [UInt8](repeating: 0, count: 40)
        lengths[37] = length
        let built = Self.build(lengths)
        #expect(built.error == nil)
        var reader = LSBBitReader()
        [UInt8]([0xFF, 0xFF, 0xFF, 0xFF]).withUnsafeBufferPointer { buffer in
            reader.refill(buffer)
            built.tables.withUnsafeBufferPointer { t in
                #expect(VP8LPrefixCode.readSymbol(t.baseAddress! + built.start, &reader) == 37)
            }
            #expect(reader.read(32, buffer) == 0xFFFF_FFFF)
        }
    }

    @Test func refusesNoSymbol() {
        let built = Self.build([UInt8](repeating: 0, count: 256))
        #expect(built.error == .invalidData("VP8L prefix code has no symbol"))
        #expect(built.tables.count == 3)
    }

    @Test func refusesIncomplete() {
        let built = Self.build([1, 2, 0, 0])
        #expect(built.error == .invalidData("VP8L prefix code is incomplete"))
        #expect(built.tables.count == 3)
    }

    @Test func refusesOverSubscribed() {
        let built = Self.build([1, 1, 1])
        #expect(built.error == .invalidData("VP8L prefix code is over-subscribed"))
        #expect(built.tables.count == 3)
    }

    @Test func refusesLengthsAbove15() {
        #expect(Self.build([1, 16]).error != nil)
    }

    /// The CVE-2023-4863 shape: lengths whose second-level tables, sized from the remaining
    /// counts while filling, would need more room than any complete code of the alphabet (a
    /// decoder with a fixed-size table and a completeness check only at the end writes past its
    /// buffer). Here: a complete prefix of short codes, then far more 15-bit codes than fit
    /// (over-subscribed only at the last level), and the incomplete twin with long codes spread
    /// over every root prefix. Both are refused and nothing is written.
    @Test func refusesTableOverflowShapes() {
        // Over-subscribed at depth 15 only: lengths 1…14 once each leave two 15-bit slots; give 2000.
        var over = [UInt8](repeating: 0, count: 2328)
        for l in 1...14 { over[l - 1] = UInt8(l) }
        for s in 14..<2014 { over[s] = 15 }
        let a = Self.build(over)
        #expect(a.error == .invalidData("VP8L prefix code is over-subscribed"))
        #expect(a.tables.count == 3)

        // Incomplete: 9-bit codes on most root prefixes, then 15-bit codes: every root entry
        // would point to a second-level table of 128 entries.
        var under = [UInt8](repeating: 0, count: 2328)
        for s in 0..<300 { under[s] = 9 }
        for s in 300..<2328 { under[s] = 15 }
        let b = Self.build(under)
        #expect(b.error == .invalidData("VP8L prefix code is incomplete"))
        #expect(b.tables.count == 3)

        // libwebp's kTableSize budget for the green code without cache is 630 entries; a
        // complete code may need more second-level room than that only if it is not complete.
        // A complete code with the deepest possible tables fits in our exact allocation.
        var deep = [UInt8](repeating: 0, count: 280)
        for l in 1...14 { deep[l - 1] = UInt8(l) }
        deep[14] = 15
        deep[15] = 15
        Self.expectDecodesEverySymbol(deep)
    }

    /// The code length code uses a 7-bit single-level table.
    @Test func codeLengthCodeTable() {
        var lengths = [UInt8](repeating: 0, count: 19)
        lengths[0] = 1; lengths[8] = 2; lengths[18] = 2
        let built = Self.build(lengths, rootBits: VP8LPrefixCode.codeLengthRootBits)
        #expect(built.error == nil)
        #expect(built.tables.count - built.start == 128)
    }
}

/// SplitMix64: reproducible random numbers for the tests.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
