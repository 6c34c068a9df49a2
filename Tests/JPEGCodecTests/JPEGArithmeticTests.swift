@testable import CodecCore
import Foundation
import ImageCodecs
@testable import JPEGCodec
import TestSupport
import Testing

/// The QM decoder (T.81 Annex D) and the arithmetic-coded scans (F.2.4, G.1.3) on their own;
/// the fixtures and the corpus check them against djpeg in JPEGConformanceTests.
struct JPEGArithmeticTests {
    // MARK: Probability estimation

    /// Table D.2 as the decoder holds it: 113 states and the fixed one; every next state is a
    /// state, Qe stays below one half of A's range, the MPS switches exactly at the states of
    /// Qe ≈ 0.5 that Table D.2 marks, and every state but the fixed one is reachable from 0.
    @Test func probabilityTableKeepsTableD2Invariants() {
        let table = JPEGQMTable.entries
        #expect(table.count == 114)
        func qe(_ s: Int) -> UInt32 { table[s] >> 16 }
        func nextMPS(_ s: Int) -> Int { Int((table[s] >> 8) & 0xFF) }
        func nextLPS(_ s: Int) -> Int { Int(table[s] & 0x7F) }
        func switches(_ s: Int) -> Bool { table[s] & 0x80 != 0 }
        for s in table.indices {
            #expect(qe(s) > 0 && qe(s) < 0x8000, "state \(s)")
            #expect(nextMPS(s) < table.count && nextLPS(s) < table.count, "state \(s)")
        }
        #expect((0..<113).filter(switches) == [0, 14, 36, 64, 80, 88, 95, 105, 110, 112])
        // Spot values of Table D.2.
        #expect(qe(0) == 0x5A1D && qe(13) == 0x0001 && qe(46) == 0x0BFB && qe(112) == 0x59EB)
        // The fixed state keeps one half and never moves, whatever is decoded.
        let fixed = Int(JPEGQMTable.fixedState)
        #expect(qe(fixed) == 0x5A1D && nextMPS(fixed) == fixed && nextLPS(fixed) == fixed && !switches(fixed))
        var reached: Set<Int> = [0], frontier = [0]
        while let s = frontier.popLast() {
            for n in [nextMPS(s), nextLPS(s)] where reached.insert(n).inserted { frontier.append(n) }
        }
        #expect(reached == Set(0..<113))
    }

    // MARK: The decoder against an encoder

    /// Decisions coded by a QM encoder written from T.81 D.1 (CODELPS, CODEMPS, RENORME, a
    /// byte output with carry, and a flush) come back from the decoder, on skewed and even
    /// sources, many contexts and the fixed bin: the decoder is the encoder's inverse.
    @Test(arguments: [(UInt64(1), 0.5), (2, 0.9), (3, 0.99), (4, 0.999), (5, 0.7)])
    func decoderInvertsTheEncoder(seed: UInt64, skew: Double) {
        var rng = SplitMix(seed)
        let contexts = 24
        // Each context leans to its own symbol; context `contexts` is the fixed bin.
        var decisions: [(context: Int, bit: Int)] = []
        for _ in 0..<20_000 {
            let context = Int(rng.next() % UInt64(contexts + 1))
            let lean = context & 1
            let bit = Double(rng.next() % 1_000_000) / 1_000_000 < skew ? lean : 1 - lean
            decisions.append((context, bit))
        }
        var encoder = QMEncoder()
        var bins = [UInt8](repeating: 0, count: contexts + 1)
        bins[contexts] = JPEGQMTable.fixedState
        for d in decisions { encoder.encode(d.bit, &bins[d.context]) }
        let bytes = encoder.finish()
        bins = [UInt8](repeating: 0, count: contexts + 1)
        bins[contexts] = JPEGQMTable.fixedState
        var decoded: [Int] = []
        bytes.withUnsafeBufferPointer { input in
            JPEGQMTable.entries.withUnsafeBufferPointer { table in
                bins.withUnsafeMutableBufferPointer { bin in
                    var decoder = JPEGArithmeticDecoder(registers: JPEGQMRegisters(), position: 0, bytes: input,
                                                        table: table.baseAddress!)
                    for d in decisions { decoded.append(decoder.decode(bin.baseAddress! + d.context)) }
                }
            }
        }
        #expect(decoded == decisions.map(\.bit))
        #expect(bins[contexts] == JPEGQMTable.fixedState)
        if skew > 0.98 { #expect(bytes.count < decisions.count / 8 / 3) }   // skewed input compresses
    }

    /// Past the data the decoder reads zeros, as libjpeg does after a marker: it never traps and
    /// reads no byte beyond the end, however many decisions are asked of it.
    @Test func decoderReadsZerosPastTheEnd() {
        let data: [UInt8] = [0xFF, 0x12]
        var bins = [UInt8](repeating: 0, count: 8)
        data.withUnsafeBufferPointer { input in
            JPEGQMTable.entries.withUnsafeBufferPointer { table in
                bins.withUnsafeMutableBufferPointer { bin in
                    var decoder = JPEGArithmeticDecoder(registers: JPEGQMRegisters(), position: 0, bytes: input,
                                                        table: table.baseAddress!)
                    for i in 0..<10_000 { _ = decoder.decode(bin.baseAddress! + i % 8) }
                    #expect(decoder.position == 2)
                }
            }
        }
    }

    // MARK: Conditioning

    /// B.2.4.3: DC entries set L and U, AC entries Kx; what libjpeg-turbo refuses is refused.
    @Test func dacSegmentsSetTheConditioning() throws {
        var c = JPEGArithmeticConditioning()
        #expect(c.dcL[0] == 0 && c.dcU[0] == 1 && c.acK[0] == 5)
        try c.define([0x01, 0x64, 0x13, 0x06])
        #expect(c.dcL[1] == 4 && c.dcU[1] == 6 && c.acK[3] == 6 && c.dcU[0] == 1)
        #expect(throws: DecodingError.self) { try c.define([0x00, 0x12]) }   // L above U
        #expect(throws: DecodingError.self) { try c.define([0x20, 0x05]) }   // class 2
        #expect(throws: DecodingError.self) { try c.define([0x10, 0x05, 0x11]) }   // half a pair
    }

    /// The byte margin of the largest MCU (ten blocks, sequential) fits the half of the staging
    /// buffer that staging always makes available, so decoding can never wait forever.
    @Test func marginFitsTheStagingBuffer() throws {
        // Sampling 2×2, 2×2, 2×1: ten blocks an MCU.
        let frame = try JPEGFrameHeader(marker: JPEGMarker.sof9, [8, 0, 48, 0, 48, 3, 1, 0x22, 0, 2, 0x22, 0, 3, 0x21, 0])
        let header = try JPEGScanHeader([3, 1, 0x00, 2, 0x00, 3, 0x00, 0, 63, 0], frame: frame)
        let scan = JPEGScan(header: header, dcTables: [nil, nil, nil], acTables: [nil, nil, nil], restartInterval: 0,
                            conditioning: JPEGArithmeticConditioning(), dataStart: 0, dataEnd: nil)
        let decoder = try JPEGArithmeticScanDecoder(frame: frame, scan: scan)
        #expect(decoder.margin > 40_000 && decoder.margin <= JPEGArithmeticScanDecoder.stagingCapacity / 2)
    }

    // MARK: Whole files

    static let fixtures = ["q75-420-arith-rst1row-48x40.jpg", "q90-420-64x64-jt-arith.jpg",
                           "kodim05-q95-444-arith-prog-200x136.jpg", "q75-422-33x17-jt-prog-arith.jpg"]

    static func fixture(_ name: String) throws -> [UInt8] {
        try Corpus.bytes(Corpus.conformance.appendingPathComponent("fixtures/jpeg/\(name)"))
    }

    /// The restart-interval fixture, and the others, fed a byte at a time and in odd splits,
    /// eager or not, give the image decoded whole: decoding waits for its margin, never
    /// guessing at bytes that have not arrived.
    @Test(arguments: fixtures)
    func piecesEqualWhole(_ name: String) throws {
        let bytes = try Self.fixture(name)
        let whole = Decoding.whole(bytes)
        #expect(whole.status == .complete && whole.error == nil)
        var eager = DecodingOptions()
        eager.decodesImmediately = true
        // Small pieces only for the small files: a buffered (progressive) image is rendered
        // again after every append.
        let splits = bytes.count < 4000 ? [[1], [2, 3, 5, 7, 11, 13], Decoding.randomSizes(count: 12, max: 97, seed: 11)]
            : [Decoding.randomSizes(count: 12, max: 997, seed: 11)]
        for sizes in splits {
            #expect(Decoding.chunked(bytes, sizes: sizes, options: eager).result == whole, "\(name) \(sizes.prefix(3))")
        }
        #expect(Decoding.chunked(bytes, sizes: [bytes.count - 40, 40]).result == whole)
    }

    /// Files cut inside their entropy-coded data equal djpeg's image of the same prefix
    /// (libjpeg-turbo 2.1.5, `djpeg -dct int`, "Premature end of JPEG file"): the data ends as
    /// at a marker (zeros), and with restart intervals every later interval is empty, as after
    /// the EOI libjpeg's source manager supplies. The Huffman file shows the stream does this
    /// for both codings. Whole and fed in pieces alike.
    @Test(arguments: [
        ("q75-420-arith-rst1row-48x40.jpg", 500, "48x40 f902ce724124bac3ded16c1c2d25bbdb9741b6c5ed864b2c5b531bb0162124e1"),
        ("q75-420-arith-rst1row-48x40.jpg", 700, "48x40 a418298ad8d2f9655b3f83f5babaa8d38ba2d276f0b0f0a731155a29eed4a52c"),
        ("q90-420-64x64-jt-arith.jpg", 1200, "64x64 c43d3ff03e419067444b981e4d0860bc7d6e0b2a6880c5f80f5a2948fbc4f168"),
        ("q75-420-rst1row-48x40.jpg", 900, "48x40 56be54cf57e9f247720d75e4700fe805e56443fae8d2c5379c5ac6ce9c73d53e"),
    ])
    func truncatedDataEqualsDjpeg(_ name: String, _ length: Int, _ expected: String) throws {
        let bytes = Array(try Self.fixture(name).prefix(length))
        let whole = Decoding.whole(bytes)
        #expect(whole.frames == [expected], "\(name) cut at \(length): \(whole)")
        #expect(Decoding.chunked(bytes, sizes: [3, 11]).result.frames == [expected])
    }

    /// Corrupt entropy-coded data (bytes flipped, replaced by 0xFF 0x00 runs that drive every
    /// decision to the less probable symbol, or zeroed) decodes to an image without trapping,
    /// and to the same image whole and fed in pieces: spectral and magnitude overflows halt the
    /// interval as libjpeg-turbo does, and nothing depends on the split.
    @Test(arguments: fixtures)
    func corruptDataNeverTraps(_ name: String) throws {
        let original = try Self.fixture(name)
        guard let sos = (0..<(original.count - 1)).first(where: { original[$0] == 0xFF && original[$0 + 1] == 0xDA }) else {
            Issue.record("no SOS in \(name)")
            return
        }
        let dataStart = sos + 2 + (Int(original[sos + 2]) << 8 | Int(original[sos + 3]))
        var variants: [[UInt8]] = []
        var rng = SplitMix(UInt64(original.count))
        for _ in 0..<6 {
            var bytes = original
            for _ in 0..<8 {
                let i = dataStart + Int(rng.next() % UInt64(original.count - 2 - dataStart))
                bytes[i] = UInt8(truncatingIfNeeded: rng.next())
            }
            variants.append(bytes)
        }
        for fill: [UInt8] in [[0xFF, 0x00], [0x00], [0x7F, 0xFE]] {
            var bytes = original
            var i = dataStart
            while i + fill.count < min(original.count - 2, dataStart + 64) {
                for (k, b) in fill.enumerated() { bytes[i + k] = b }
                i += fill.count
            }
            variants.append(bytes)
        }
        for bytes in variants {
            let whole = Decoding.whole(bytes)
            let sizes = [max(1, bytes.count / 50), 3, max(1, bytes.count / 17)]
            #expect(Decoding.chunked(bytes, sizes: sizes).result == whole, "\(name): \(whole)")
        }
    }
}

/// A QM encoder after T.81 D.1 (INITENC, CODELPS, CODEMPS, RENORME, BYTEOUT), test-only: it
/// writes unstuffed bytes, as the decoder reads them, and propagates a carry into the bytes
/// already written instead of stacking 0xFF bytes.
private struct QMEncoder {
    private var c = 0
    private var a = 0x10000
    private var ct = 11
    private var output: [UInt8] = []

    mutating func encode(_ bit: Int, _ bin: inout UInt8) {
        let s = Int(bin), entry = Int(JPEGQMTable.entries[s & 0x7F])
        let qe = entry >> 16, mps = s >> 7
        a -= qe
        if bit != mps {
            // CODELPS: the LPS takes the upper sub-interval unless it is the smaller one.
            if a >= qe {
                c += a
                a = qe
            }
            bin = UInt8((s & 0x80) ^ (entry & 0xFF))
        } else {
            // CODEMPS: only a renormalisation updates the estimate.
            if a >= 0x8000 { return }
            if a < qe {
                c += a
                a = qe
            }
            bin = UInt8((s & 0x80) ^ ((entry >> 8) & 0xFF))
        }
        renormalise()
    }

    private mutating func renormalise() {
        repeat {
            a <<= 1
            c <<= 1
            ct -= 1
            if ct == 0 {
                byteOut()
                ct = 8
            }
        } while a < 0x8000
    }

    private mutating func byteOut() {
        var t = c >> 19
        if t > 0xFF {
            var i = output.count - 1
            while i >= 0 {
                output[i] &+= 1
                if output[i] != 0 { break }
                i -= 1
            }
            t &= 0xFF
        }
        output.append(UInt8(t))
        c &= 0x7FFFF
    }

    /// Ends the data with the interval's base: the decoder's zeros past the end complete it.
    mutating func finish() -> [UInt8] {
        for _ in 0..<4 {
            c <<= ct
            byteOut()
            ct = 8
        }
        return output
    }
}

/// A small seeded generator for reproducible tests (SplitMix64), shared by the module's tests.
struct SplitMix {
    private var state: UInt64
    init(_ seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
