import CodecCore

/// The progression status libjpeg-turbo keeps for block smoothing (`coef_bits`, set up by the
/// progressive entropy decoders' `start_pass`): for each component and each of the first ten
/// coefficients in zigzag order (`SAVED_COEFS`: the DC and the nine lowest ACs), the
/// successive-approximation bit Al of the last scan that carried it (T.81 G.1.1.1), −1 while no
/// scan has; and the same values as they stood before the component's latest scan began.
///
/// libjpeg updates the status when a scan's header has been read, not when its data ends, so
/// a scan cut short counts as sent; ``JPEGBlockSmoothing`` falls back on the earlier values for
/// the rows such a scan did not reach.
struct JPEGProgression: Equatable {
    /// SAVED_COEFS: the DC and the nine ACs smoothing can estimate, in zigzag order.
    static let savedCoefficients = 10

    let componentCount: Int
    /// libjpeg's `input_scan_number` once every scan header has been read: the scans begun.
    private(set) var scansBegun = 0
    /// Per component, ``savedCoefficients`` entries: the bit known now, and the bit known
    /// before the component's latest scan.
    private(set) var current: [Int]
    private(set) var previous: [Int]

    /// The status before any scan: nothing known (−1) for every component and coefficient.
    init(componentCount: Int) {
        self.componentCount = componentCount
        current = [Int](repeating: -1, count: componentCount * Self.savedCoefficients)
        previous = current
    }

    /// The bit position known for zigzag coefficient `k` (0...9) of component `c`: now, or
    /// (`previous`) before the component's latest scan.
    func bits(component c: Int, coefficient k: Int, previous before: Bool = false) -> Int {
        (before ? previous : current)[c * Self.savedCoefficients + k]
    }

    /// Records the start of `scan`, a progressive scan whose parameters have been accepted
    /// (libjpeg checks them first and fails the decode on bad ones).
    ///
    /// What libjpeg does for each component of the scan: the previous bits of coefficients
    /// min(Ss, 1) through 9 (and beyond, to Se, which smoothing never reads) take the current
    /// ones, except during the file's first scan, when they become 0, not the current −1; then
    /// the current bits of coefficients Ss...Se become Al.
    mutating func begin(_ scan: JPEGScanHeader) {
        scansBegun += 1
        let n = Self.savedCoefficients
        for component in scan.components {
            let base = component.index * n
            for k in min(scan.ss, 1)..<n {
                previous[base + k] = scansBegun > 1 ? current[base + k] : 0
            }
            if scan.ss <= min(scan.se, n - 1) {
                for k in scan.ss...min(scan.se, n - 1) { current[base + k] = scan.al }
            }
        }
    }
}

/// libjpeg-turbo's interblock smoothing (jdcoefct.c, `smoothing_ok` and
/// `decompress_smooth_data`, 2.1 series; `do_block_smoothing` is on by default and djpeg
/// leaves it on): when a progressive image is output before its lowest coefficients are known
/// to full precision, the nine lowest ACs of each block (and, when no AC data has been
/// received at all, the DC too) are estimated from the DC values of the block and its 24
/// neighbours, in the manner of T.81 K.8 but over a 5×5 window.
///
/// A value of this type is libjpeg's decision and latched state for one output pass: made
/// once all the input the pass will see has been read, then asked for each block.
struct JPEGBlockSmoothing {
    private let blocksPerLine: [Int]
    /// Per component, the blocks that hold samples (libjpeg's `width_in_blocks` and
    /// `height_in_blocks`: the rest only pad MCUs out, and libjpeg transforms none of them).
    private let widthInBlocks: [Int]
    private let heightInBlocks: [Int]
    private let v: [Int]
    /// libjpeg's `total_iMCU_rows - 1` and `last_good_iMCU_row`, in frame MCU rows.
    private let lastMCURow: Int
    private let lastGoodMCURow: Int
    /// Per component: the quantizer of each of the ten saved coefficients (zigzag order).
    private let quantizers: [Int]
    /// Per component, two sets of ten bits: those for the MCU rows up to ``lastGoodMCURow``
    /// (the status now), then those for the rows after it (the status before each component's
    /// latest scan).
    private let latched: [Int]
    /// Per component and set: whether no AC among the nine has any data (libjpeg's
    /// `change_dc`), which replaces the DC and estimates all nine with the wider kernels.
    private let interpolatesDC: [Bool]

    /// libjpeg's `smoothing_ok`, with the status it latches; nil when smoothing does not apply.
    ///
    /// Smoothing applies to a progressive frame when every component has its quantization
    /// table latched (`quantization`, natural order, as latched at each component's first scan),
    /// no quantizer of the ten saved coefficients is zero, every component has at least part of
    /// its DC, and some component still lacks full precision (a current bit other than 0) in
    /// one of the nine ACs. The bits latched for the rows after `lastGoodMCURow` are the
    /// previous ones, or −1 (nothing known) when only one scan has begun.
    ///
    /// `lastGoodMCURow` is libjpeg's `last_good_iMCU_row`: the frame MCU row (for a scan of one
    /// component, its block row divided by its vertical sampling factor) of the last MCU of the
    /// latest scan that began decoding before that scan's data ran out; the last MCU row when
    /// the scan's data did not run out. libjpeg notes it before each MCU, ahead of any restart
    /// marker that MCU takes (an RSTn found clears the out-of-data state only from the next MCU
    /// on); its arithmetic decoder never reports running out, so there it is the last row.
    init?(frame: JPEGFrameHeader, quantization: [[UInt16]?], progression: JPEGProgression, lastGoodMCURow: Int) {
        guard frame.isProgressive, quantization.count == frame.components.count,
              progression.componentCount == frame.components.count else { return nil }
        let n = JPEGProgression.savedCoefficients
        var quantizers: [Int] = [], latched: [Int] = [], interpolatesDC: [Bool] = []
        var useful = false
        for c in frame.components.indices {
            guard let table = quantization[c], table.count == 64 else { return nil }
            let q = (0..<n).map { Int(table[naturalOrder[$0]]) }
            guard !q.contains(0), progression.bits(component: c, coefficient: 0) >= 0 else { return nil }
            quantizers += q
            let now = (0..<n).map { progression.bits(component: c, coefficient: $0) }
            let before = [now[0]] + (1..<n).map {
                progression.scansBegun > 1 ? progression.bits(component: c, coefficient: $0, previous: true) : -1
            }
            if now[1...].contains(where: { $0 != 0 }) { useful = true }
            latched += now + before
            interpolatesDC += [now[1...].allSatisfy { $0 == -1 }, before[1...].allSatisfy { $0 == -1 }]
        }
        guard useful else { return nil }
        blocksPerLine = frame.components.map(\.blocksPerLine)
        widthInBlocks = frame.components.map { ($0.width + 7) / 8 }
        heightInBlocks = frame.components.map { ($0.height + 7) / 8 }
        v = frame.components.map(\.v)
        lastMCURow = frame.mcuRows - 1
        self.lastGoodMCURow = lastGoodMCURow
        self.quantizers = quantizers
        self.latched = latched
        self.interpolatesDC = interpolatesDC
    }

    /// The frame MCU row (libjpeg's iMCU row) that MCU `n` of a scan lies in, given the scan's
    /// MCUs per line: an interleaved scan's MCU rows are the frame's; a one-component scan has
    /// one block per MCU, and `v` of its block rows make a frame MCU row.
    static func frameMCURow(ofScanMCU n: Int, mcusPerLine: Int, scan: JPEGScanHeader, frame: JPEGFrameHeader) -> Int {
        let row = n / mcusPerLine
        return scan.components.count == 1 ? row / frame.components[scan.components[0].index].v : row
    }

    /// Writes to `workspace` (64 Int16, natural order) the block to inverse-transform in place
    /// of block (`bx`, `by`) of component `c`, whose blocks (every block of the frame, row-major,
    /// ``JPEGCoefficients`` layout) start at `blocks`: its coefficients with the estimates.
    ///
    /// libjpeg's rules, per block: the rows after ``lastGoodMCURow`` use the earlier bits. An
    /// AC is estimated only where its bit is not 0 (not fully known) and its stored value is 0;
    /// the estimate is Q00 × (kernel · DCs), divided by 256 × its own quantizer and rounded
    /// half away from zero, and when the bit Al is positive its magnitude is held below 2^Al
    /// (a larger value would have been sent). Without any AC data the DC is replaced by its own
    /// smoothed estimate. Padding blocks (outside the component's samples) are copied unchanged:
    /// libjpeg does not transform them, and nothing reads their samples.
    func smooth(_ blocks: UnsafePointer<Int16>, component c: Int, x bx: Int, y by: Int,
                into workspace: UnsafeMutablePointer<Int16>) {
        let line = blocksPerLine[c]
        workspace.update(from: blocks + (by * line + bx) * 64, count: 64)
        guard bx < widthInBlocks[c], by < heightInBlocks[c] else { return }
        let n = JPEGProgression.savedCoefficients
        let set = c * 2 + (by / v[c] > lastGoodMCURow ? 1 : 0)
        let interpolate = interpolatesDC[set]
        let rows = neighbourRows(component: c, y: by), columns = neighbourColumns(component: c, x: bx)
        withUnsafeTemporaryAllocation(of: Int.self, capacity: 35) { scratch in
            // The five rows' first blocks, the five columns, then the 25 DC values.
            let r = scratch.baseAddress!, x = r + 5, dc = r + 10
            (r[0], r[1], r[2], r[3], r[4]) = rows
            (x[0], x[1], x[2], x[3], x[4]) = columns
            for i in 0..<5 {
                for j in 0..<5 { dc[i * 5 + j] = Int(blocks[(r[i] * line + x[j]) * 64]) }
            }
            let d = UnsafePointer(dc)
            let q00 = quantizers[c * n]
            for k in 1..<(interpolate ? n : 6) {
                let al = latched[set * n + k], position = naturalOrder[k]
                guard al != 0, workspace[position] == 0 else { continue }
                let kernel = interpolate ? Self.interpolatingKernels[k] : Self.kernels[k]
                workspace[position] = Self.estimate(Self.dot(kernel, d), q00: q00, q: quantizers[c * n + k], al: al)
            }
            if interpolate {
                workspace[0] = Self.estimate(Self.dot(Self.interpolatingKernels[0], d), q00: q00, q: q00, al: 0)
            }
        }
    }

    /// The block rows libjpeg reads as the rows two above, one above, at, one below and two
    /// below block row `by` of component `c`.
    ///
    /// libjpeg decides each from the block's place in its MCU row (m = by / v, r = by % v) and
    /// the count of real block rows in that MCU row (`block_rows`: v, but in the last MCU row
    /// only those within the component's height): the row above is by − 1 unless by is 0; two
    /// above is by − 2 when r > 1 or m > 1, else the row taken as above; the row below is by + 1
    /// when r < block_rows − 1 or m is not the last MCU row, else by; two below is by + 2 when
    /// r < block_rows − 2 or m + 1 is below the last MCU row, else the row taken as below. With
    /// v = 1 that is clamping to the component; with v ≥ 2 the second MCU row's first rows and
    /// the last MCU row but one see the nearer row twice though the farther one exists.
    func neighbourRows(component c: Int, y by: Int) -> (Int, Int, Int, Int, Int) {
        let v = v[c], m = by / v, r = by % v
        var blockRows = v
        if m == lastMCURow { blockRows = heightInBlocks[c] % v == 0 ? v : heightInBlocks[c] % v }
        let above = by > 0 ? by - 1 : by
        let twoAbove = r > 1 || m > 1 ? by - 2 : above
        let below = r < blockRows - 1 || m < lastMCURow ? by + 1 : by
        let twoBelow = r < blockRows - 2 || m + 1 < lastMCURow ? by + 2 : below
        return (twoAbove, above, by, below, twoBelow)
    }

    /// The block columns libjpeg reads as the columns two left of block column `bx` of
    /// component `c` through two right of it.
    ///
    /// libjpeg slides five DC registers along each block row: all start with column 0; at the
    /// first block the second from the right is loaded with column 1 (if the row has it), and
    /// at each block bx the rightmost is loaded with column bx + 2 while that is a real column;
    /// after each block every register takes its right neighbour's value, the rightmost keeping
    /// its own. For rows of three or more blocks that clamps to the row; a row of two blocks
    /// never loads the rightmost register, so both blocks see column 0 two to their right (and
    /// the second block one to its right).
    func neighbourColumns(component c: Int, x bx: Int) -> (Int, Int, Int, Int, Int) {
        let last = widthInBlocks[c] - 1
        func register(_ k: Int, at x: Int) -> Int {
            // Register k at block x holds what register k + 1 held at block x − 1.
            let steps = min(4 - k, x), k = k + steps, x = x - steps
            if k == 4 { return last >= 2 ? min(x + 2, last) : 0 }
            return k == 3 && last > 0 ? 1 : 0
        }
        return (register(0, at: bx), register(1, at: bx), register(2, at: bx), register(3, at: bx), register(4, at: bx))
    }

    /// libjpeg's estimate from Q00 × `sum`: divided by 256 × `q`, rounded half away from zero,
    /// its magnitude held at most 2^`al` − 1 when `al` is positive.
    static func estimate(_ sum: Int, q00: Int, q: Int, al: Int) -> Int16 {
        let numerator = q00 * sum
        var magnitude = ((q << 7) + abs(numerator)) / (q << 8)
        if al > 0 && magnitude >= 1 << al { magnitude = (1 << al) - 1 }
        return Int16(truncatingIfNeeded: numerator < 0 ? -magnitude : magnitude)
    }

    /// The kernel's weights applied to the 5×5 DC values (row-major, top left first).
    private static func dot(_ kernel: [Int], _ dc: UnsafePointer<Int>) -> Int {
        var sum = 0
        for i in 0..<25 where kernel[i] != 0 { sum += kernel[i] * dc[i] }
        return sum
    }

    /// The weights libjpeg gives the 5×5 DC values (rows top to bottom, columns left to right,
    /// the block at the centre) for zigzag coefficients 1...5 when some AC data exists: a 5-tap
    /// K.8-like difference along the centre row or column, and for AC11 a 3×4 cross difference.
    /// Index 0 is unused.
    static let kernels: [[Int]] = [
        [],
        // AC01 (natural position 1)
        [0, 0, 0, 0, 0,  0, 0, 0, 0, 0,  -7, 50, 0, -50, 7,  0, 0, 0, 0, 0,  0, 0, 0, 0, 0],
        // AC10 (8)
        [0, 0, -7, 0, 0,  0, 0, 50, 0, 0,  0, 0, 0, 0, 0,  0, 0, -50, 0, 0,  0, 0, 7, 0, 0],
        // AC20 (16)
        [0, 0, -1, 0, 0,  0, 0, 13, 0, 0,  0, 0, -24, 0, 0,  0, 0, 13, 0, 0,  0, 0, -1, 0, 0],
        // AC11 (9)
        [0, -1, 0, 1, 0,  -1, 10, 0, -10, 1,  0, 0, 0, 0, 0,  1, -10, 0, 10, -1,  0, 1, 0, -1, 0],
        // AC02 (2)
        [0, 0, 0, 0, 0,  0, 0, 0, 0, 0,  -1, 13, -24, 13, -1,  0, 0, 0, 0, 0,  0, 0, 0, 0, 0],
    ]

    /// The weights when no AC data exists (`change_dc`), for zigzag coefficients 0...9: index 0
    /// replaces the DC (its weights sum to 256, so a flat neighbourhood keeps its DC).
    static let interpolatingKernels: [[Int]] = [
        // DC (0)
        [-2, -6, -8, -6, -2,  -6, 6, 42, 6, -6,  -8, 42, 152, 42, -8,  -6, 6, 42, 6, -6,  -2, -6, -8, -6, -2],
        // AC01 (1)
        [-1, -1, 0, 1, 1,  -3, 13, 0, -13, 3,  -3, 38, 0, -38, 3,  -3, 13, 0, -13, 3,  -1, -1, 0, 1, 1],
        // AC10 (8)
        [-1, -3, -3, -3, -1,  -1, 13, 38, 13, -1,  0, 0, 0, 0, 0,  1, -13, -38, -13, 1,  1, 3, 3, 3, 1],
        // AC20 (16)
        [0, 0, 1, 0, 0,  0, 2, 7, 2, 0,  0, -5, -14, -5, 0,  0, 2, 7, 2, 0,  0, 0, 1, 0, 0],
        // AC11 (9)
        [-1, 0, 0, 0, 1,  0, 9, 0, -9, 0,  0, 0, 0, 0, 0,  0, -9, 0, 9, 0,  1, 0, 0, 0, -1],
        // AC02 (2)
        [0, 0, 0, 0, 0,  0, 2, -5, 2, 0,  1, 7, -14, 7, 1,  0, 2, -5, 2, 0,  0, 0, 0, 0, 0],
        // AC03 (3)
        [0, 0, 0, 0, 0,  0, 1, 0, -1, 0,  0, 2, 0, -2, 0,  0, 1, 0, -1, 0,  0, 0, 0, 0, 0],
        // AC12 (10)
        [0, 0, 0, 0, 0,  0, 1, -3, 1, 0,  0, 0, 0, 0, 0,  0, -1, 3, -1, 0,  0, 0, 0, 0, 0],
        // AC21 (17)
        [0, 0, 0, 0, 0,  0, 1, 0, -1, 0,  0, -3, 0, 3, 0,  0, 1, 0, -1, 0,  0, 0, 0, 0, 0],
        // AC30 (24)
        [0, 0, 0, 0, 0,  0, 1, 2, 1, 0,  0, 0, 0, 0, 0,  0, -1, -2, -1, 0,  0, 0, 0, 0, 0],
    ]
}
