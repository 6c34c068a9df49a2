/// Xiaolin Wu's colour quantizer ("Efficient Statistical Computations for Optimal Color
/// Quantization", Graphics Gems II, 1991): the RGB cube at 5 bits per channel is cut into boxes,
/// each time splitting the box of largest variance along the axis and position that most
/// reduce the total squared error, using cumulative moments so that every box sum costs eight
/// lookups. The palette is the boxes' mean colours (from exact 8-bit sums).
struct GIFWuQuantizer {
    /// 32 levels per axis plus a zero plane for the cumulative sums.
    static let side = 33
    private var weight: [Double]
    private var momentR: [Double]
    private var momentG: [Double]
    private var momentB: [Double]
    private var moment2: [Double]

    /// A box: lower bounds exclusive, upper inclusive, in 0…32.
    struct Box {
        var r0 = 0, r1 = 32, g0 = 0, g1 = 32, b0 = 0, b1 = 32
        var volume: Int { (r1 - r0) * (g1 - g0) * (b1 - b0) }
    }

    init(_ histogram: GIFColorHistogram) {
        let cells = Self.side * Self.side * Self.side
        weight = [Double](repeating: 0, count: cells)
        momentR = weight
        momentG = weight
        momentB = weight
        moment2 = weight
        for k in histogram.occupied {
            let r = (k >> 13) + 1, g = ((k >> 7) & 31) + 1, b = ((k >> 1) & 31) + 1
            let i = Self.cell(r, g, b)
            weight[i] += Double(histogram.count[k])
            momentR[i] += Double(histogram.sumR[k])
            momentG[i] += Double(histogram.sumG[k])
            momentB[i] += Double(histogram.sumB[k])
            moment2[i] += Double(histogram.sumSquares[k])
        }
        for stride in [1, Self.side, Self.side * Self.side] {
            Self.accumulate(&weight, stride: stride)
            Self.accumulate(&momentR, stride: stride)
            Self.accumulate(&momentG, stride: stride)
            Self.accumulate(&momentB, stride: stride)
            Self.accumulate(&moment2, stride: stride)
        }
    }

    @inline(__always)
    static func cell(_ r: Int, _ g: Int, _ b: Int) -> Int { (r * side + g) * side + b }

    /// Running sums along one axis (`stride` 1: blue, 33: green, 1089: red).
    private static func accumulate(_ m: inout [Double], stride: Int) {
        for i in 0..<m.count where (i / stride) % side != 0 { m[i] += m[i - stride] }
    }

    /// The sum of moment `m` over `box` (inclusion–exclusion on the cumulative table).
    private static func volume(_ box: Box, _ m: [Double]) -> Double {
        m[cell(box.r1, box.g1, box.b1)] - m[cell(box.r1, box.g1, box.b0)]
            - m[cell(box.r1, box.g0, box.b1)] + m[cell(box.r1, box.g0, box.b0)]
            - m[cell(box.r0, box.g1, box.b1)] + m[cell(box.r0, box.g1, box.b0)]
            + m[cell(box.r0, box.g0, box.b1)] - m[cell(box.r0, box.g0, box.b0)]
    }

    private struct Sums {
        var w = 0.0, r = 0.0, g = 0.0, b = 0.0
        var score: Double { w > 0 ? (r * r + g * g + b * b) / w : 0 }
    }

    private func sums(_ box: Box) -> Sums {
        Sums(w: Self.volume(box, weight), r: Self.volume(box, momentR), g: Self.volume(box, momentG),
             b: Self.volume(box, momentB))
    }

    /// The squared error of `box` around its mean.
    private func variance(_ box: Box) -> Double {
        let s = sums(box)
        guard s.w > 0 else { return 0 }
        return Self.volume(box, moment2) - s.score
    }

    /// Splits `box` where the two halves' summed squared error is least; nil when it cannot be
    /// split (one populated cell).
    private func cut(_ box: Box) -> (Box, Box)? {
        let whole = sums(box)
        var best = whole.score
        var result: (Box, Box)?
        for axis in 0..<3 {
            let (lower, upper) = axis == 0 ? (box.r0, box.r1) : axis == 1 ? (box.g0, box.g1) : (box.b0, box.b1)
            guard upper - lower > 1 else { continue }
            for position in (lower + 1)..<upper {
                var a = box, b = box
                switch axis {
                case 0: a.r1 = position; b.r0 = position
                case 1: a.g1 = position; b.g0 = position
                default: a.b1 = position; b.b0 = position
                }
                let half = sums(a)
                let rest = Sums(w: whole.w - half.w, r: whole.r - half.r, g: whole.g - half.g, b: whole.b - half.b)
                guard half.w > 0, rest.w > 0 else { continue }
                let score = half.score + rest.score
                if score > best {
                    best = score
                    result = (a, b)
                }
            }
        }
        return result
    }

    /// At most `maxColors` (≥ 1) mean colours, as RGB in 0…255.
    func palette(maxColors: Int) -> [(r: Double, g: Double, b: Double)] {
        var boxes = [Box()]
        var spread = [variance(Box())]
        while boxes.count < maxColors {
            var next = 0
            for i in spread.indices where spread[i] > spread[next] { next = i }
            guard spread[next] > 0, let (a, b) = cut(boxes[next]) else {
                spread[next] = 0
                if spread.allSatisfy({ $0 <= 0 }) { break }
                continue
            }
            boxes[next] = a
            spread[next] = a.volume > 1 ? variance(a) : 0
            boxes.append(b)
            spread.append(b.volume > 1 ? variance(b) : 0)
        }
        return boxes.compactMap { box in
            let s = sums(box)
            return s.w > 0 ? (s.r / s.w, s.g / s.w, s.b / s.w) : nil
        }
    }
}
