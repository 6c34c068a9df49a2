/// Bit costs of VP8's boolean decisions and the intra mode trees of RFC 6386 11.2–11.4, used
/// by the mode decision and by the header writer (which follows the same paths).
enum VP8ModeCost {
    /// `-log2(p / 256)` for p = 0…256 (index 0 priced as p = 1).
    static let bitCost: [Double] = (0...256).map { 8 - VP8LLog.exactLog2(Double(max($0, 1))) }

    /// The cost in bits of deciding `bit` with probability `probability` (of a 0).
    @inline(__always)
    static func cost(_ bit: Bool, _ probability: Int) -> Double {
        bitCost[bit ? 256 - probability : probability]
    }

    /// The branches of bmode_tree (RFC 6386 11.2) leading to each sub-block mode (DC, TM, VE,
    /// HE, LD, RD, VR, VL, HD, HU): pairs of (probability index, bit).
    static let subblockPaths: [[(Int, Bool)]] = [
        [(0, false)],
        [(0, true), (1, false)],
        [(0, true), (1, true), (2, false)],
        [(0, true), (1, true), (2, true), (3, false), (4, false)],
        [(0, true), (1, true), (2, true), (3, true), (6, false)],
        [(0, true), (1, true), (2, true), (3, false), (4, true), (5, false)],
        [(0, true), (1, true), (2, true), (3, false), (4, true), (5, true)],
        [(0, true), (1, true), (2, true), (3, true), (6, true), (7, false)],
        [(0, true), (1, true), (2, true), (3, true), (6, true), (7, true), (8, false)],
        [(0, true), (1, true), (2, true), (3, true), (6, true), (7, true), (8, true)],
    ]

    /// kf_ymode_tree with kf_ymode_prob {145, 156, 163, 128} (RFC 6386 11.2), after the first
    /// branch (145: B_PRED or not), for the modes numbered DC, TM, V, H.
    static let lumaPaths: [[(Int, Bool)]] = [
        [(156, false), (163, false)], [(156, true), (128, true)],
        [(156, false), (163, true)], [(156, true), (128, false)],
    ]

    /// uv_mode_tree with kf_uv_mode_prob {142, 114, 183} (RFC 6386 11.4), modes DC, TM, V, H.
    static let chromaPaths: [[(Int, Bool)]] = [
        [(142, false)], [(142, true), (114, true), (183, true)],
        [(142, true), (114, false)], [(142, true), (114, true), (183, false)],
    ]

    /// The cost of a 16×16 luma mode, the B_PRED branch included.
    static func lumaBits(_ mode: Int) -> Double {
        lumaPaths[mode].reduce(cost(true, 145)) { $0 + cost($1.1, $1.0) }
    }

    static func chromaBits(_ mode: Int) -> Double {
        chromaPaths[mode].reduce(0) { $0 + cost($1.1, $1.0) }
    }

    /// The cost of sub-block mode `mode` with the contexts `above` and `left` (RFC 6386 11.3).
    @inline(__always)
    static func subblockBits(_ mode: Int, above: Int, left: Int) -> Double {
        subblockCosts.withUnsafeBufferPointer { $0[(above &* 10 &+ left) &* 10 &+ mode] }
    }

    /// `subblockBits` for every context pair and mode, `[above][left][mode]`.
    static let subblockCosts: [Double] = (0..<1000).map { i in
        let base = (i / 10) * 9
        let probs = VP8Tables.keyFrameSubblockModeProbabilities
        return subblockPaths[i % 10].reduce(0) { $0 + cost($1.1, Int(probs[base + $1.0])) }
    }
}
