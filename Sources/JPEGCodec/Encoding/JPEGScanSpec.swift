/// One scan of the file being written (T.81 B.2.3): its components (indices into the frame's
/// components), spectral selection Ss…Se and successive approximation Ah, Al (G.1.1.1).
public struct JPEGScanSpec: Sendable, Equatable {
    /// The frame's components the scan codes, by index (one, or several interleaved).
    public var components: [Int]
    /// Start of spectral selection: the first coefficient, 0 (DC) … 63, in zigzag order.
    public var ss: Int
    /// End of spectral selection: the last coefficient, `ss` … 63.
    public var se: Int
    /// Successive approximation high bit: 0 for a first scan, the previous scan's `al` for a refinement.
    public var ah: Int
    /// Successive approximation low bit: the point transform, the bits left out of this scan.
    public var al: Int

    /// A scan of `components`; the defaults give a sequential scan of every coefficient.
    public init(components: [Int], ss: Int = 0, se: Int = 63, ah: Int = 0, al: Int = 0) {
        self.components = components
        self.ss = ss
        self.se = se
        self.ah = ah
        self.al = al
    }

    /// libjpeg's `jpeg_simple_progression` (jcparam.c): for YCbCr a DC scan at Al 1, luma AC
    /// 1–5 at Al 2, chroma AC 1–63 at Al 1, luma AC 6–63 at Al 2, luma AC refinement to Al 1,
    /// DC refinement, chroma then luma AC refinement to Al 0; for one component the same
    /// pattern with 6 scans.
    public static func progressiveScript(componentCount: Int) -> [JPEGScanSpec] {
        if componentCount == 3 {
            return [
                JPEGScanSpec(components: [0, 1, 2], ss: 0, se: 0, ah: 0, al: 1),
                JPEGScanSpec(components: [0], ss: 1, se: 5, ah: 0, al: 2),
                JPEGScanSpec(components: [2], ss: 1, se: 63, ah: 0, al: 1),
                JPEGScanSpec(components: [1], ss: 1, se: 63, ah: 0, al: 1),
                JPEGScanSpec(components: [0], ss: 6, se: 63, ah: 0, al: 2),
                JPEGScanSpec(components: [0], ss: 1, se: 63, ah: 2, al: 1),
                JPEGScanSpec(components: [0, 1, 2], ss: 0, se: 0, ah: 1, al: 0),
                JPEGScanSpec(components: [2], ss: 1, se: 63, ah: 1, al: 0),
                JPEGScanSpec(components: [1], ss: 1, se: 63, ah: 1, al: 0),
                JPEGScanSpec(components: [0], ss: 1, se: 63, ah: 1, al: 0),
            ]
        }
        let all = Array(0..<componentCount)
        func each(_ ss: Int, _ se: Int, _ ah: Int, _ al: Int) -> [JPEGScanSpec] {
            all.map { JPEGScanSpec(components: [$0], ss: ss, se: se, ah: ah, al: al) }
        }
        return [JPEGScanSpec(components: all, ss: 0, se: 0, ah: 0, al: 1)] + each(1, 5, 0, 2) + each(6, 63, 0, 2)
            + each(1, 63, 2, 1) + [JPEGScanSpec(components: all, ss: 0, se: 0, ah: 1, al: 0)] + each(1, 63, 1, 0)
    }
}
