/// Reading the lookup-table tag types.
extension ICCLut {
    /// CLUT samples larger than this are refused (a 33⁴ × 3 table has 3.6 million).
    static let maxGridSamples = 1 << 24

    /// Reads an `AToB` tag of type `mft1`, `mft2` or `mAB ` with `inputs` device channels.
    static func read(_ d: ICCBytes, at offset: Int, size: Int, inputs: Int, pcsIsLab: Bool) -> ICCLut? {
        guard let type = d.u32(offset), inputs >= 1 else { return nil }
        let end = offset + size
        switch ICCSignature(type) {
        case ICCSignature("mft1"): return readLutN(d, offset, end, inputs, wide: false, pcsIsLab)
        case ICCSignature("mft2"): return readLutN(d, offset, end, inputs, wide: true, pcsIsLab)
        case ICCSignature("mAB "): return readAToB(d, offset, end, inputs, pcsIsLab)
        default: return nil
        }
    }

    /// `lut8Type` / `lut16Type`: the matrix applies only to XYZ input and is skipped here
    /// (device input); tables of 256 bytes (lut8) or of the given entry counts (lut16).
    private static func readLutN(_ d: ICCBytes, _ offset: Int, _ end: Int, _ inputs: Int, wide: Bool, _ pcsIsLab: Bool) -> ICCLut? {
        guard let i8 = d.u8(offset + 8), let o8 = d.u8(offset + 9), let g8 = d.u8(offset + 10),
              Int(i8) == inputs, o8 == 3, g8 >= 2 else { return nil }
        let sampleSize = wide ? 2 : 1
        var cursor = offset + 48
        var inEntries = 256, outEntries = 256
        if wide {
            guard let n = d.u16(offset + 48), let m = d.u16(offset + 50), n >= 2, m >= 2 else { return nil }
            (inEntries, outEntries) = (Int(n), Int(m))
            cursor += 4
        }
        func tables(_ count: Int, _ entries: Int) -> [ICCCurve]? {
            var curves: [ICCCurve] = []
            for _ in 0..<count {
                guard let samples = readSamples(d, at: cursor, count: entries, wide: wide, end: end) else { return nil }
                curves.append(.table(samples))
                cursor += entries * sampleSize
            }
            return curves
        }
        guard let aCurves = tables(inputs, inEntries) else { return nil }
        let points = [Int](repeating: Int(g8), count: inputs)
        guard let n = ICCGrid.sampleCount(points: points, outputCount: 3, cap: maxGridSamples),
              let samples = readSamples(d, at: cursor, count: n, wide: wide, end: end) else { return nil }
        cursor += n * sampleSize
        guard let bCurves = tables(3, outEntries) else { return nil }
        let encoding: PCSEncoding = pcsIsLab ? (wide ? .legacyLab16 : .lab) : .xyz
        return ICCLut(inputCount: inputs, aCurves: aCurves,
                      grid: ICCGrid(points: points, outputCount: 3, values: samples),
                      bCurves: bCurves, encoding: encoding)
    }

    /// `lutAToBType` (clause 10.12): element offsets are from the tag's start; each present
    /// element is read with its own bounds check.
    private static func readAToB(_ d: ICCBytes, _ offset: Int, _ end: Int, _ inputs: Int, _ pcsIsLab: Bool) -> ICCLut? {
        guard let i8 = d.u8(offset + 8), let o8 = d.u8(offset + 9), Int(i8) == inputs, o8 == 3,
              let bOff = d.u32(offset + 12), let mxOff = d.u32(offset + 16), let mOff = d.u32(offset + 20),
              let cOff = d.u32(offset + 24), let aOff = d.u32(offset + 28), bOff != 0 else { return nil }
        func at(_ o: UInt32) -> Int? { Int(o) < end - offset ? offset + Int(o) : nil }
        guard let bStart = at(bOff), let bCurves = readCurves(d, at: bStart, count: 3, end: end) else { return nil }
        var lut = ICCLut(inputCount: inputs, aCurves: [ICCCurve](repeating: .identity, count: inputs),
                         grid: nil, bCurves: bCurves, encoding: pcsIsLab ? .lab : .xyz)
        if aOff != 0 {
            guard let s = at(aOff), let a = readCurves(d, at: s, count: inputs, end: end) else { return nil }
            lut.aCurves = a
        }
        if cOff != 0 {
            guard let s = at(cOff), let grid = readGrid(d, at: s, inputs: inputs, end: end) else { return nil }
            lut.grid = grid
        } else if inputs != 3 {
            return nil
        }
        if mOff != 0 {
            guard let s = at(mOff), let m = readCurves(d, at: s, count: 3, end: end) else { return nil }
            lut.mCurves = m
        }
        if mxOff != 0 {
            guard let s = at(mxOff) else { return nil }
            var e: [Double] = []
            for k in 0..<12 {
                guard let v = d.s15Fixed16(s + 4 * k) else { return nil }
                e.append(v)
            }
            guard s + 48 <= end else { return nil }
            lut.matrix = (Matrix3(rows: Array(e[0..<3]), Array(e[3..<6]), Array(e[6..<9])), Vector3(e[9], e[10], e[11]))
        }
        return lut
    }

    /// `count` curves one after another, each padded to four bytes (clause 10.12.2).
    private static func readCurves(_ d: ICCBytes, at start: Int, count: Int, end: Int) -> [ICCCurve]? {
        var curves: [ICCCurve] = []
        var cursor = start
        for _ in 0..<count {
            guard let (curve, length) = ICCCurve.read(d, at: cursor, end: end) else { return nil }
            curves.append(curve)
            cursor += (length + 3) & ~3
        }
        return curves
    }

    /// The CLUT of `lutAToBType` (clause 10.12.3): 16 grid-point bytes, a precision byte (1 or
    /// 2), three pad bytes, then the samples.
    private static func readGrid(_ d: ICCBytes, at start: Int, inputs: Int, end: Int) -> ICCGrid? {
        guard inputs <= 16, let precision = d.u8(start + 16), precision == 1 || precision == 2 else { return nil }
        var points: [Int] = []
        for i in 0..<inputs {
            guard let p = d.u8(start + i), p >= 2 else { return nil }
            points.append(Int(p))
        }
        guard let n = ICCGrid.sampleCount(points: points, outputCount: 3, cap: maxGridSamples),
              let samples = readSamples(d, at: start + 20, count: n, wide: precision == 2, end: end) else { return nil }
        return ICCGrid(points: points, outputCount: 3, values: samples)
    }

    /// `count` unsigned samples of one or two bytes, normalised to [0, 1].
    private static func readSamples(_ d: ICCBytes, at start: Int, count: Int, wide: Bool, end: Int) -> [Double]? {
        let size = wide ? 2 : 1
        guard count <= (end - start) / size, start >= 0, start + count * size <= d.count else { return nil }
        return d.bytes.withUnsafeBufferPointer { p -> [Double] in
            var out = [Double](repeating: 0, count: count)
            if wide {
                for i in 0..<count { out[i] = Double(UInt16(p[start + 2 * i]) << 8 | UInt16(p[start + 2 * i + 1])) / 65535 }
            } else {
                for i in 0..<count { out[i] = Double(p[start + i]) / 255 }
            }
            return out
        }
    }
}
