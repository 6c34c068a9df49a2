@testable import JPEGCodec
import Testing

/// Frames, scans and coefficient grids for the block smoothing tests.
enum JPEGSmoothingFixtures {
    /// A frame header of `width`×`height` with components 1, 2, … sampled as `sampling` (HiVi
    /// bytes), all using quantization table 0.
    static func frame(width: Int, height: Int, sampling: [UInt8], progressive: Bool = true) throws -> JPEGFrameHeader {
        var p: [UInt8] = [8, UInt8(height >> 8), UInt8(height & 255), UInt8(width >> 8), UInt8(width & 255), UInt8(sampling.count)]
        for (i, s) in sampling.enumerated() { p += [UInt8(i + 1), s, 0] }
        return try JPEGFrameHeader(marker: progressive ? 0xC2 : 0xC0, p)
    }

    /// A scan header over the frame components `components` (indices).
    static func scan(_ frame: JPEGFrameHeader, _ components: [Int], ss: Int, se: Int, ah: Int = 0, al: Int) throws -> JPEGScanHeader {
        var p: [UInt8] = [UInt8(components.count)]
        for c in components { p += [UInt8(c + 1), 0] }
        p += [UInt8(ss), UInt8(se), UInt8(ah << 4 | al)]
        return try JPEGScanHeader(p, frame: frame)
    }

    /// The progression after `scans`, each (components, Ss, Se, Ah, Al).
    static func progression(_ frame: JPEGFrameHeader, _ scans: [([Int], Int, Int, Int, Int)]) throws -> JPEGProgression {
        var progression = JPEGProgression(componentCount: frame.components.count)
        for s in scans { progression.begin(try scan(frame, s.0, ss: s.1, se: s.2, ah: s.3, al: s.4)) }
        return progression
    }

    /// A natural-order quantization table of ones with the given (position, value) entries.
    static func table(_ entries: [(Int, UInt16)]) -> [UInt16] {
        var table = [UInt16](repeating: 1, count: 64)
        for (position, value) in entries { table[position] = value }
        return table
    }

    /// Q00 16, and distinct quantizers for the nine smoothed ACs: Q01 11, Q10 12, Q20 14,
    /// Q11 12, Q02 10, Q03 16, Q12 17, Q21 18, Q30 20.
    static let quantizers = table([(0, 16), (1, 11), (8, 12), (16, 14), (9, 12), (2, 10), (3, 16), (10, 17), (17, 18), (24, 20)])

    /// Coefficients for `frame` whose block DCs are `dc(component, x, y)`, other coefficients 0.
    static func coefficients(_ frame: JPEGFrameHeader, dc: (Int, Int, Int) -> Int16) -> JPEGCoefficients {
        var coefficients = JPEGCoefficients(frame: frame, mcuRowOnly: false)
        for (c, component) in frame.components.enumerated() {
            for y in 0..<component.blockRows {
                for x in 0..<component.blocksPerLine {
                    coefficients.storage[c][coefficients.offset(c, x: x, y: y)] = dc(c, x, y)
                }
            }
        }
        return coefficients
    }

    /// The block `smooth` gives for (`x`, `y`) of component `c`.
    static func smoothed(_ smoothing: JPEGBlockSmoothing, _ coefficients: JPEGCoefficients, _ c: Int, _ x: Int, _ y: Int) -> [Int16] {
        var out = [Int16](repeating: 0x5555, count: 64)
        out.withUnsafeMutableBufferPointer { w in
            coefficients.storage[c].withUnsafeBufferPointer { smoothing.smooth($0.baseAddress!, component: c, x: x, y: y, into: w.baseAddress!) }
        }
        return out
    }

    /// The five values of a neighbour tuple.
    static func list(_ t: (Int, Int, Int, Int, Int)) -> [Int] { [t.0, t.1, t.2, t.3, t.4] }
}

struct JPEGBlockSmoothingTests {
    typealias F = JPEGSmoothingFixtures

    /// The scans of wuffs' peacock.progressive.jpeg (Y 2×2, Cb, Cr): components, Ss, Se, Ah, Al.
    static let peacockScans: [([Int], Int, Int, Int, Int)] = [
        ([0, 1, 2], 0, 0, 0, 1), ([0], 1, 5, 0, 2), ([2], 1, 63, 0, 1), ([1], 1, 63, 0, 1), ([0], 6, 63, 0, 2),
        ([0], 1, 63, 2, 1), ([0, 1, 2], 0, 0, 1, 0), ([2], 1, 63, 1, 0), ([1], 1, 63, 1, 0), ([0], 1, 63, 1, 0),
    ]

    static func peacockFrame() throws -> JPEGFrameHeader { try F.frame(width: 100, height: 75, sampling: [0x22, 0x11, 0x11]) }

    // MARK: - Progression status

    @Test func progressionStartsWithNothingKnown() {
        let p = JPEGProgression(componentCount: 3)
        #expect(p.scansBegun == 0)
        #expect(p.current == [Int](repeating: -1, count: 30) && p.previous == p.current)
    }

    /// Current and previous bits after each of peacock's scans; the first scan leaves the
    /// previous bits 0, not −1, and an AC scan copies coefficients 1...9 whatever its band.
    @Test func progressionFollowsThePeacockScans() throws {
        let frame = try Self.peacockFrame()
        var p = JPEGProgression(componentCount: 3)
        func bits(_ c: Int, previous: Bool = false) -> [Int] { (0..<10).map { p.bits(component: c, coefficient: $0, previous: previous) } }
        let unknown = [Int](repeating: -1, count: 9)
        let s = Self.peacockScans
        func begin(_ i: Int) throws { p.begin(try F.scan(frame, s[i].0, ss: s[i].1, se: s[i].2, ah: s[i].3, al: s[i].4)) }

        try begin(0)  // DC, all components, Al 1
        for c in 0..<3 {
            #expect(bits(c) == [1] + unknown)
            #expect(bits(c, previous: true) == [Int](repeating: 0, count: 10))
        }
        try begin(1)  // Y 1...5, Al 2
        #expect(bits(0) == [1, 2, 2, 2, 2, 2, -1, -1, -1, -1])
        #expect(bits(0, previous: true) == [0] + unknown)
        #expect(bits(1) == [1] + unknown && bits(1, previous: true) == [Int](repeating: 0, count: 10))
        try begin(2)  // Cr 1...63, Al 1
        #expect(bits(2) == [1, 1, 1, 1, 1, 1, 1, 1, 1, 1] && bits(2, previous: true) == [0] + unknown)
        try begin(3)  // Cb 1...63, Al 1
        try begin(4)  // Y 6...63, Al 2: the previous bits of 1...5 are copied too
        #expect(bits(0) == [1, 2, 2, 2, 2, 2, 2, 2, 2, 2])
        #expect(bits(0, previous: true) == [0, 2, 2, 2, 2, 2, -1, -1, -1, -1])
        try begin(5)  // Y 1...63 refined to Al 1
        #expect(bits(0) == [1, 1, 1, 1, 1, 1, 1, 1, 1, 1] && bits(0, previous: true) == [0, 2, 2, 2, 2, 2, 2, 2, 2, 2])
        try begin(6)  // DC refined to Al 0: a DC scan copies coefficient 0 as well
        #expect(bits(0) == [0, 1, 1, 1, 1, 1, 1, 1, 1, 1] && bits(0, previous: true) == [1, 1, 1, 1, 1, 1, 1, 1, 1, 1])
        #expect(bits(1) == [0, 1, 1, 1, 1, 1, 1, 1, 1, 1] && bits(1, previous: true) == [1, 1, 1, 1, 1, 1, 1, 1, 1, 1])
        for i in 7...9 { try begin(i) }
        #expect(p.scansBegun == 10)
        for c in 0..<3 { #expect(bits(c) == [Int](repeating: 0, count: 10)) }
        // An AC scan leaves coefficient 0's previous bit as the last DC scan set it.
        #expect(bits(0, previous: true) == [1, 1, 1, 1, 1, 1, 1, 1, 1, 1])
    }

    /// A band beyond the ten saved coefficients changes no bit, but still copies 1...9.
    @Test func progressionIgnoresHighBandsButCopiesPrevious() throws {
        let frame = try F.frame(width: 16, height: 16, sampling: [0x11])
        let p = try F.progression(frame, [([0], 0, 0, 0, 0), ([0], 1, 2, 0, 1), ([0], 10, 63, 0, 3)])
        #expect(p.current == [0, 1, 1, -1, -1, -1, -1, -1, -1, -1])
        #expect(p.previous == [0, 1, 1, -1, -1, -1, -1, -1, -1, -1])
    }

    // MARK: - Whether smoothing applies (smoothing_ok)

    @Test func noSmoothingOnceEveryCoefficientIsComplete() throws {
        let frame = try Self.peacockFrame()
        let q: [[UInt16]?] = [F.quantizers, F.quantizers, F.quantizers]
        let all = try F.progression(frame, Self.peacockScans)
        #expect(JPEGBlockSmoothing(frame: frame, quantization: q, progression: all, lastGoodMCURow: 4) == nil)
        // Even when the last scan was cut short: only the current bits decide.
        #expect(JPEGBlockSmoothing(frame: frame, quantization: q, progression: all, lastGoodMCURow: 0) == nil)
    }

    @Test func smoothingWhileAnACBandIsMissing() throws {
        let frame = try Self.peacockFrame()
        let q: [[UInt16]?] = [F.quantizers, F.quantizers, F.quantizers]
        for count in 1...9 {
            let p = try F.progression(frame, Array(Self.peacockScans.prefix(count)))
            #expect(JPEGBlockSmoothing(frame: frame, quantization: q, progression: p, lastGoodMCURow: 4) != nil, "after \(count) scans")
        }
    }

    @Test func noSmoothingWhenASavedQuantizerIsZero() throws {
        let frame = try Self.peacockFrame()
        let p = try F.progression(frame, Array(Self.peacockScans.prefix(2)))
        for position in [0, 1, 8, 16, 9, 2, 3, 10, 17, 24] {
            let zero = F.table([(position, 0)])
            #expect(JPEGBlockSmoothing(frame: frame, quantization: [F.quantizers, zero, F.quantizers], progression: p, lastGoodMCURow: 4) == nil)
        }
        // Zigzag 10 (natural 32) is not among the ten.
        let other = F.table([(32, 0), (4, 0)])
        #expect(JPEGBlockSmoothing(frame: frame, quantization: [F.quantizers, other, F.quantizers], progression: p, lastGoodMCURow: 4) != nil)
    }

    @Test func noSmoothingWithoutEveryComponentsTableAndDC() throws {
        let frame = try Self.peacockFrame()
        let q: [[UInt16]?] = [F.quantizers, F.quantizers, F.quantizers]
        let p = try F.progression(frame, Array(Self.peacockScans.prefix(2)))
        #expect(JPEGBlockSmoothing(frame: frame, quantization: [F.quantizers, nil, F.quantizers], progression: p, lastGoodMCURow: 4) == nil)
        // DC of Y only: Cb and Cr have no DC yet.
        let yOnly = try F.progression(frame, [([0], 0, 0, 0, 0), ([0], 1, 5, 0, 1)])
        #expect(JPEGBlockSmoothing(frame: frame, quantization: q, progression: yOnly, lastGoodMCURow: 4) == nil)
        // Nothing begun at all.
        #expect(JPEGBlockSmoothing(frame: frame, quantization: q, progression: JPEGProgression(componentCount: 3), lastGoodMCURow: 0) == nil)
    }

    @Test func noSmoothingForSequentialFrames() throws {
        let frame = try F.frame(width: 100, height: 75, sampling: [0x22, 0x11, 0x11], progressive: false)
        let p = try F.progression(frame, [([0, 1, 2], 0, 0, 0, 0)])
        let q: [[UInt16]?] = [F.quantizers, F.quantizers, F.quantizers]
        #expect(JPEGBlockSmoothing(frame: frame, quantization: q, progression: p, lastGoodMCURow: 4) == nil)
    }

    // MARK: - The estimates

    @Test func estimateRoundsHalfAwayFromZeroAndHoldsBelowTwoToTheAl() {
        #expect(JPEGBlockSmoothing.estimate(128, q00: 1, q: 1, al: -1) == 1)
        #expect(JPEGBlockSmoothing.estimate(127, q00: 1, q: 1, al: -1) == 0)
        #expect(JPEGBlockSmoothing.estimate(-128, q00: 1, q: 1, al: -1) == -1)
        #expect(JPEGBlockSmoothing.estimate(-127, q00: 1, q: 1, al: -1) == 0)
        // 16 × 100 / (256 × 5) = 1.25.
        #expect(JPEGBlockSmoothing.estimate(100, q00: 16, q: 5, al: 0) == 1)
        #expect(JPEGBlockSmoothing.estimate(256 * 5, q00: 1, q: 1, al: 2) == 3)
        #expect(JPEGBlockSmoothing.estimate(-256 * 5, q00: 1, q: 1, al: 2) == -3)
        #expect(JPEGBlockSmoothing.estimate(256 * 3, q00: 1, q: 1, al: 2) == 3)
        #expect(JPEGBlockSmoothing.estimate(256 * 9, q00: 1, q: 1, al: 4) == 9)
    }

    /// The kernels' structure: the ACs' weights cancel on a flat field, the DC's sum to 256,
    /// and the vertical kernels are the horizontal ones transposed.
    @Test func kernelsAreBalancedAndTransposed() {
        func transposed(_ k: [Int]) -> [Int] { (0..<25).map { k[($0 % 5) * 5 + $0 / 5] } }
        let plain = JPEGBlockSmoothing.kernels, wide = JPEGBlockSmoothing.interpolatingKernels
        for k in 1...5 { #expect(plain[k].count == 25 && plain[k].reduce(0, +) == 0) }
        for k in 1...9 { #expect(wide[k].count == 25 && wide[k].reduce(0, +) == 0) }
        #expect(wide[0].reduce(0, +) == 256 && transposed(wide[0]) == wide[0])
        // Zigzag 1 (AC01) and 2 (AC10); 3 (AC20) and 5 (AC02); 6 (AC03) and 9 (AC30); 7 (AC12)
        // and 8 (AC21); 4 (AC11) is its own transpose.
        #expect(transposed(plain[1]) == plain[2] && transposed(plain[3]) == plain[5] && transposed(plain[4]) == plain[4])
        #expect(transposed(wide[1]) == wide[2] && transposed(wide[3]) == wide[5] && transposed(wide[4]) == wide[4])
        #expect(transposed(wide[6]) == wide[9] && transposed(wide[7]) == wide[8])
    }

    /// 5×5 blocks, DC 8·x² (flat vertically); AC01 unknown (−1), AC10 at Al 1, the rest unknown.
    /// AC01 at the centre: −7·0 + 50·8 − 50·72 + 7·128 = −2304; ×Q00 16 = −36864;
    /// (11·128 + 36864) / (11·256) = 13.59 → −13. AC02: −0 + 13·8 − 24·32 + 13·72 − 128 = 144;
    /// 2304 → (1280 + 2304) / 2560 = 1.4 → 1. The vertical and cross kernels give 0.
    @Test func acEstimatesFromAHorizontalCurve() throws {
        let frame = try F.frame(width: 40, height: 40, sampling: [0x11])
        let p = try F.progression(frame, [([0], 0, 0, 0, 0), ([0], 2, 2, 0, 1)])
        let smoothing = try #require(JPEGBlockSmoothing(frame: frame, quantization: [F.quantizers], progression: p, lastGoodMCURow: 4))
        var coefficients = F.coefficients(frame) { _, x, _ in Int16(8 * x * x) }
        var expected = [Int16](repeating: 0, count: 64)
        expected[0] = 32; expected[1] = -13; expected[2] = 1
        #expect(F.smoothed(smoothing, coefficients, 0, 2, 2) == expected)
        // Left edge, columns (0, 0, 0, 1, 2): AC01 −50·8 + 7·32 = −176 → −2816 → 4224 / 2816
        // → −1; AC02 13·8 − 32 = 72 → 1152 → 2432 / 2560 → 0.
        expected = [Int16](repeating: 0, count: 64)
        expected[1] = -1
        #expect(F.smoothed(smoothing, coefficients, 0, 0, 2) == expected)
        // Right edge, columns (2, 3, 4, 4, 4): AC01 −7·32 + 50·72 − 50·128 + 7·128 = −2128
        // → −34048 → 35456 / 2816 → −12; AC02 −32 + 13·72 − 24·128 + 13·128 − 128 = −632
        // → −10112 → 11392 / 2560 → −4.
        expected[0] = 128; expected[1] = -12; expected[2] = -4
        #expect(F.smoothed(smoothing, coefficients, 0, 4, 2) == expected)
        // A coefficient already non-zero is kept.
        coefficients.storage[0][coefficients.offset(0, x: 2, y: 2) + 1] = 5
        expected = [Int16](repeating: 0, count: 64)
        expected[0] = 32; expected[1] = 5; expected[2] = 1
        #expect(F.smoothed(smoothing, coefficients, 0, 2, 2) == expected)
    }

    /// DC 8·y²: AC10 at Al 1 gives −2304 → −36864 → (1536 + 36864) / 3072 = 12.5 → 12, held
    /// at 2¹ − 1 → −1; AC20 (unknown) gives 144 → 2304 → (1792 + 2304) / 3584 → 1.
    @Test func acEstimateIsHeldBelowTwoToTheAl() throws {
        let frame = try F.frame(width: 40, height: 40, sampling: [0x11])
        let p = try F.progression(frame, [([0], 0, 0, 0, 0), ([0], 2, 2, 0, 1)])
        let smoothing = try #require(JPEGBlockSmoothing(frame: frame, quantization: [F.quantizers], progression: p, lastGoodMCURow: 4))
        let coefficients = F.coefficients(frame) { _, _, y in Int16(8 * y * y) }
        var expected = [Int16](repeating: 0, count: 64)
        expected[0] = 32; expected[8] = -1; expected[16] = 1
        #expect(F.smoothed(smoothing, coefficients, 0, 2, 2) == expected)
    }

    /// A coefficient known to full precision (bit 0) is never estimated.
    @Test func completeCoefficientIsNotEstimated() throws {
        let frame = try F.frame(width: 40, height: 40, sampling: [0x11])
        let p = try F.progression(frame, [([0], 0, 0, 0, 0), ([0], 1, 1, 0, 0)])
        let smoothing = try #require(JPEGBlockSmoothing(frame: frame, quantization: [F.quantizers], progression: p, lastGoodMCURow: 4))
        let coefficients = F.coefficients(frame) { _, x, _ in Int16(8 * x * x) }
        var expected = [Int16](repeating: 0, count: 64)
        expected[0] = 32; expected[2] = 1
        #expect(F.smoothed(smoothing, coefficients, 0, 2, 2) == expected)
    }

    /// No AC data: the DC is replaced and all nine ACs are estimated with the wide kernels.
    /// A DC of 100 at block (2, 2), 0 elsewhere: each estimate is the kernel's weight at the
    /// spike's place × 100 × Q00 16.
    @Test func dcInterpolationWithoutACData() throws {
        let frame = try F.frame(width: 40, height: 40, sampling: [0x11])
        let p = try F.progression(frame, [([0], 0, 0, 0, 0)])
        let smoothing = try #require(JPEGBlockSmoothing(frame: frame, quantization: [F.quantizers], progression: p, lastGoodMCURow: 4))
        let coefficients = F.coefficients(frame) { _, x, y in x == 2 && y == 2 ? 100 : 0 }
        // At the spike: DC 152 → 243200 → (2048 + 243200) / 4096 = 59.9 → 59; AC20 −14 →
        // −22400 → 24192 / 3584 → −6; AC02 −14 → 23680 / 2560 → −9; the others weigh it 0.
        var expected = [Int16](repeating: 0, count: 64)
        expected[0] = 59; expected[16] = -6; expected[2] = -9
        #expect(F.smoothed(smoothing, coefficients, 0, 2, 2) == expected)
        // To its right (the spike one column left): DC 42 → 67200 → 69248 / 4096 → 16;
        // AC01 38 → 60800 → 62208 / 2816 → 22; AC20 −5 → −8000 → 9792 / 3584 → −2; AC02 7
        // → 11200 → 12480 / 2560 → 4; AC03 2 → 3200 → 5248 / 4096 → 1; AC21 −3 → −4800
        // → 7104 / 4608 → −1.
        expected = [Int16](repeating: 0, count: 64)
        expected[0] = 16; expected[1] = 22; expected[16] = -2; expected[2] = 4; expected[3] = 1; expected[17] = -1
        #expect(F.smoothed(smoothing, coefficients, 0, 3, 2) == expected)
        // Below it (the spike one row up): DC 16; AC10 38 → 60800 → 62336 / 3072 → 20; AC20 7
        // → 11200 → 12992 / 3584 → 3; AC02 −5 → −8000 → 9280 / 2560 → −3; AC12 −3 → −4800
        // → 6976 / 4352 → −1; AC30 2 → 3200 → 5760 / 5120 → 1.
        expected = [Int16](repeating: 0, count: 64)
        expected[0] = 16; expected[8] = 20; expected[16] = 3; expected[2] = -3; expected[10] = -1; expected[24] = 1
        #expect(F.smoothed(smoothing, coefficients, 0, 2, 3) == expected)
    }

    /// A flat field keeps its DC (the DC kernel sums to 256) and gets no AC.
    @Test func flatFieldIsUnchanged() throws {
        let frame = try F.frame(width: 40, height: 40, sampling: [0x11])
        let p = try F.progression(frame, [([0], 0, 0, 0, 0)])
        let smoothing = try #require(JPEGBlockSmoothing(frame: frame, quantization: [F.quantizers], progression: p, lastGoodMCURow: 4))
        for value: Int16 in [37, -37, 0, 1023, -1024] {
            let coefficients = F.coefficients(frame) { _, _, _ in value }
            for (x, y) in [(0, 0), (2, 2), (4, 4), (4, 0)] {
                var expected = [Int16](repeating: 0, count: 64)
                expected[0] = value
                #expect(F.smoothed(smoothing, coefficients, 0, x, y) == expected)
            }
        }
    }

    // MARK: - Rows after the last good one

    /// DC scan, then AC 1...5 at Al 1 cut in MCU row 1: rows 0–1 have AC data (narrow kernels,
    /// held below 2); rows 2–4 fall back on the bits before that scan (all −1: DC interpolation).
    @Test func rowsAfterTheLastGoodUseThePreviousBits() throws {
        let frame = try F.frame(width: 40, height: 40, sampling: [0x11])
        let p = try F.progression(frame, [([0], 0, 0, 0, 0), ([0], 1, 5, 0, 1)])
        let smoothing = try #require(JPEGBlockSmoothing(frame: frame, quantization: [F.quantizers], progression: p, lastGoodMCURow: 1))
        let coefficients = F.coefficients(frame) { _, x, y in x == 2 && y == 2 ? 100 : 0 }
        // Above the spike, row 1: AC10 −50 → −80000 → 26 → held at 1 → −1; AC20 13 → 6 → 1.
        var expected = [Int16](repeating: 0, count: 64)
        expected[8] = -1; expected[16] = 1
        #expect(F.smoothed(smoothing, coefficients, 0, 2, 1) == expected)
        // Below it, row 3: as without AC data.
        expected = [Int16](repeating: 0, count: 64)
        expected[0] = 16; expected[8] = 20; expected[16] = 3; expected[2] = -3; expected[10] = -1; expected[24] = 1
        #expect(F.smoothed(smoothing, coefficients, 0, 2, 3) == expected)
        // The spike's own row 2 is after the last good row too.
        #expect(F.smoothed(smoothing, coefficients, 0, 2, 2)[0] == 59)
    }

    /// Each component falls back on its own bits before its latest scan: a component whose
    /// latest scan was the file's first has previous bits 0 (all known, nothing estimated).
    @Test func previousBitsAreEachComponentsOwn() throws {
        let frame = try F.frame(width: 40, height: 40, sampling: [0x11, 0x11, 0x11])
        let q: [[UInt16]?] = [F.quantizers, F.quantizers, F.quantizers]
        let p = try F.progression(frame, [([0, 1, 2], 0, 0, 0, 0), ([1], 1, 5, 0, 1)])
        let smoothing = try #require(JPEGBlockSmoothing(frame: frame, quantization: q, progression: p, lastGoodMCURow: 1))
        let coefficients = F.coefficients(frame) { _, x, y in x == 2 && y == 2 ? 100 : 0 }
        var spikeOnly = [Int16](repeating: 0, count: 64)
        spikeOnly[0] = 100
        // Component 0, row 2 (after the last good row): previous bits 0, so the block is as stored.
        #expect(F.smoothed(smoothing, coefficients, 0, 2, 2) == spikeOnly)
        // Component 0, row 1 (current bits, no AC data): DC interpolation, 42 → 16.
        #expect(F.smoothed(smoothing, coefficients, 0, 2, 1)[0] == 16)
        // With the first scan only, the bits after the last good row are −1 whatever was stored.
        let first = try F.progression(frame, [([0, 1, 2], 0, 0, 0, 0)])
        let early = try #require(JPEGBlockSmoothing(frame: frame, quantization: q, progression: first, lastGoodMCURow: 1))
        #expect(F.smoothed(early, coefficients, 0, 2, 2)[0] == 59)
    }

    // MARK: - Edges

    /// v = 1: the rows clamp to the component.
    @Test func neighbourRowsClampWithOneBlockRowPerMCURow() throws {
        let frame = try F.frame(width: 40, height: 40, sampling: [0x11])
        let p = try F.progression(frame, [([0], 0, 0, 0, 0)])
        let s = try #require(JPEGBlockSmoothing(frame: frame, quantization: [F.quantizers], progression: p, lastGoodMCURow: 4))
        let expected = [[0, 0, 0, 1, 2], [0, 0, 1, 2, 3], [0, 1, 2, 3, 4], [1, 2, 3, 4, 4], [2, 3, 4, 4, 4]]
        #expect((0..<5).map { F.list(s.neighbourRows(component: 0, y: $0)) } == expected)
    }

    /// v = 2: in MCU row 1 the row two above is the row above; in the last MCU row but one the
    /// row two below is the row below; the last MCU row holds only the rows within the height.
    @Test func neighbourRowsWithTwoBlockRowsPerMCURow() throws {
        let even = try F.frame(width: 16, height: 80, sampling: [0x22])
        let p = try F.progression(even, [([0], 0, 0, 0, 0)])
        let s = try #require(JPEGBlockSmoothing(frame: even, quantization: [F.quantizers], progression: p, lastGoodMCURow: 4))
        let expected = [
            [0, 0, 0, 1, 2], [0, 0, 1, 2, 3], [1, 1, 2, 3, 4], [2, 2, 3, 4, 5], [2, 3, 4, 5, 6],
            [3, 4, 5, 6, 7], [4, 5, 6, 7, 7], [5, 6, 7, 8, 8], [6, 7, 8, 9, 9], [7, 8, 9, 9, 9],
        ]
        #expect((0..<10).map { F.list(s.neighbourRows(component: 0, y: $0)) } == expected)
        // Height 72: nine block rows, the last MCU row has one.
        let odd = try F.frame(width: 16, height: 72, sampling: [0x22])
        let t = try #require(JPEGBlockSmoothing(frame: odd, quantization: [F.quantizers], progression: p, lastGoodMCURow: 4))
        #expect((6..<9).map { F.list(t.neighbourRows(component: 0, y: $0)) } == [[4, 5, 6, 7, 7], [5, 6, 7, 8, 8], [6, 7, 8, 8, 8]])
    }

    /// Columns clamp to rows of three or more blocks; a row of two sees column 0 on the right.
    @Test func neighbourColumnsFollowTheSlidingRegisters() throws {
        func columns(width: Int) throws -> [[Int]] {
            let frame = try F.frame(width: width, height: 8, sampling: [0x11])
            let p = try F.progression(frame, [([0], 0, 0, 0, 0)])
            let s = try #require(JPEGBlockSmoothing(frame: frame, quantization: [F.quantizers], progression: p, lastGoodMCURow: 0))
            return (0..<(width + 7) / 8).map { F.list(s.neighbourColumns(component: 0, x: $0)) }
        }
        #expect(try columns(width: 8) == [[0, 0, 0, 0, 0]])
        #expect(try columns(width: 16) == [[0, 0, 0, 1, 0], [0, 0, 1, 0, 0]])
        #expect(try columns(width: 24) == [[0, 0, 0, 1, 2], [0, 0, 1, 2, 2], [0, 1, 2, 2, 2]])
        #expect(try columns(width: 56) == [
            [0, 0, 0, 1, 2], [0, 0, 1, 2, 3], [0, 1, 2, 3, 4], [1, 2, 3, 4, 5], [2, 3, 4, 5, 6], [3, 4, 5, 6, 6], [4, 5, 6, 6, 6],
        ])
    }

    /// Two blocks wide, one high, DC 0 then 100, no AC data: the second block's DC estimate
    /// weighs the centre column (−8 + 42 + 152 + 42 − 8 = 220) only, since the columns to its
    /// right read as column 0: 22000 × 16 → (2048 + 352000) / 4096 = 86.4 → 86 (clamping
    /// would have given 93).
    @Test func twoBlockRowSeesColumnZeroOnTheRight() throws {
        let frame = try F.frame(width: 16, height: 8, sampling: [0x11])
        let p = try F.progression(frame, [([0], 0, 0, 0, 0)])
        let s = try #require(JPEGBlockSmoothing(frame: frame, quantization: [F.quantizers], progression: p, lastGoodMCURow: 0))
        let coefficients = F.coefficients(frame) { _, x, _ in x == 1 ? 100 : 0 }
        #expect(F.smoothed(s, coefficients, 0, 1, 0)[0] == 86)
    }

    /// Blocks that only pad MCUs out are copied unchanged.
    @Test func paddingBlocksAreCopied() throws {
        // Y 2×2 of 40×40: 6×6 blocks held, 5×5 with samples.
        let frame = try F.frame(width: 40, height: 40, sampling: [0x22, 0x11, 0x11])
        let q: [[UInt16]?] = [F.quantizers, F.quantizers, F.quantizers]
        let p = try F.progression(frame, [([0, 1, 2], 0, 0, 0, 0)])
        let s = try #require(JPEGBlockSmoothing(frame: frame, quantization: q, progression: p, lastGoodMCURow: 2))
        let coefficients = F.coefficients(frame) { _, x, y in Int16(10 * x + 100 * y) }
        for (x, y) in [(5, 0), (0, 5), (5, 5)] {
            var expected = [Int16](repeating: 0, count: 64)
            expected[0] = Int16(10 * x + 100 * y)
            #expect(F.smoothed(s, coefficients, 0, x, y) == expected)
        }
        #expect(F.smoothed(s, coefficients, 0, 4, 4)[1] != 0)
    }

    /// Where rows and columns clamp (v = 1, three or more blocks wide), every block equals a
    /// plain 5×5 gather clamped to the component, on random DCs and random AC gaps.
    @Test func clampedGatherAgreesOnRandomBlocks() throws {
        var g = JPEGKernelFixtures.Generator(seed: 0x5EED_B10C)
        let frame = try F.frame(width: 53, height: 44, sampling: [0x11])
        let width = 7, height = 6
        for round in 0..<4 {
            let acScan: [([Int], Int, Int, Int, Int)] = round == 0 ? [] : [([0], 1, 5, 0, round)]
            let p = try F.progression(frame, [([0], 0, 0, 0, 1)] + acScan)
            let s = try #require(JPEGBlockSmoothing(frame: frame, quantization: [F.quantizers], progression: p, lastGoodMCURow: 5))
            var coefficients = F.coefficients(frame) { _, _, _ in Int16(g.int(-300...300)) }
            for y in 0..<height {
                for x in 0..<width where g.chance(30) {
                    coefficients.storage[0][coefficients.offset(0, x: x, y: y) + naturalOrder[g.int(1...9)]] = Int16(g.int(-3...3))
                }
            }
            let interpolate = round == 0
            for y in 0..<height {
                for x in 0..<width {
                    let block = Array(coefficients.storage[0][coefficients.offset(0, x: x, y: y)..<coefficients.offset(0, x: x, y: y) + 64])
                    var dc = [Int]()
                    for dy in -2...2 {
                        for dx in -2...2 {
                            let yy = min(max(y + dy, 0), height - 1), xx = min(max(x + dx, 0), width - 1)
                            dc.append(Int(coefficients.storage[0][coefficients.offset(0, x: xx, y: yy)]))
                        }
                    }
                    var expected = block
                    for k in 1..<(interpolate ? 10 : 6) {
                        let al = p.bits(component: 0, coefficient: k), position = naturalOrder[k]
                        guard al != 0, block[position] == 0 else { continue }
                        let kernel = interpolate ? JPEGBlockSmoothing.interpolatingKernels[k] : JPEGBlockSmoothing.kernels[k]
                        let sum = zip(kernel, dc).reduce(0) { $0 + $1.0 * $1.1 }
                        expected[position] = JPEGBlockSmoothing.estimate(sum, q00: 16, q: Int(F.quantizers[position]), al: al)
                    }
                    if interpolate {
                        let sum = zip(JPEGBlockSmoothing.interpolatingKernels[0], dc).reduce(0) { $0 + $1.0 * $1.1 }
                        expected[0] = JPEGBlockSmoothing.estimate(sum, q00: 16, q: 16, al: 0)
                    }
                    #expect(F.smoothed(s, coefficients, 0, x, y) == expected, "round \(round) block \(x),\(y)")
                }
            }
        }
    }

    @Test func frameMCURowOfAScanMCU() throws {
        let frame = try Self.peacockFrame()
        // Y alone: 13 blocks a line, two block rows a frame MCU row.
        let y = try F.scan(frame, [0], ss: 1, se: 5, al: 2)
        #expect(JPEGBlockSmoothing.frameMCURow(ofScanMCU: 13 * 3 + 4, mcusPerLine: 13, scan: y, frame: frame) == 1)
        #expect(JPEGBlockSmoothing.frameMCURow(ofScanMCU: 13 * 9 + 12, mcusPerLine: 13, scan: y, frame: frame) == 4)
        // Cb alone: one block row a frame MCU row.
        let cb = try F.scan(frame, [1], ss: 1, se: 63, al: 1)
        #expect(JPEGBlockSmoothing.frameMCURow(ofScanMCU: 7 * 3, mcusPerLine: 7, scan: cb, frame: frame) == 3)
        // Interleaved: the frame's MCU rows.
        let dc = try F.scan(frame, [0, 1, 2], ss: 0, se: 0, al: 1)
        #expect(JPEGBlockSmoothing.frameMCURow(ofScanMCU: 7 * 2 + 6, mcusPerLine: 7, scan: dc, frame: frame) == 2)
    }
}
