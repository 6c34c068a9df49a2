#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The alpha plane's filtering before compression (RFC 9649 2.7.1.2 "Filtering method"), the
/// inverse of ``WebPAlphaFilter/unfilter(_:_:above:_:)``: each value minus its prediction from
/// the original values to its left and above, modulo 256.
extension WebPAlphaFilter {
    /// The residuals of `alpha` (`width` × `height`, row-major) under `method` 1–3 (0: a copy).
    static func filter(_ alpha: [UInt8], width: Int, height: Int, method: Int) -> [UInt8] {
        guard method != 0 else { return alpha }
        var out = alpha
        alpha.withUnsafeBufferPointer { a in
        out.withUnsafeMutableBufferPointer { o in
            for y in 0..<height {
                let row = a.baseAddress! + y * width, res = o.baseAddress! + y * width
                for x in 0..<width {
                    res[x] = row[x] &- prediction(method, row, above: y == 0 ? nil : row - width, x)
                }
            }
        }}
        return out
    }

    /// The prediction of pixel `x` of `row` as the unfiltering makes it: on the first row the
    /// left neighbour (0 for the first pixel); on later rows the pixel above for the first
    /// pixel, else the left neighbour (1), the pixel above (2) or `clip(left + above −
    /// above-left)` (3).
    @inline(__always)
    static func prediction(_ method: Int, _ row: UnsafePointer<UInt8>, above: UnsafePointer<UInt8>?, _ x: Int) -> UInt8 {
        guard let above else { return x == 0 ? 0 : row[x - 1] }
        if x == 0 { return above[0] }
        switch method {
        case 1: return row[x - 1]
        case 2: return above[x]
        default: return UInt8(min(max(Int(row[x - 1]) + Int(above[x]) - Int(above[x - 1]), 0), 255))
        }
    }

    /// The method (0–3) whose residuals look cheapest: the entropy of their histogram over
    /// every other row and column (libwebp estimates from sums of gradients in the same spirit).
    static func estimatedMethod(_ alpha: [UInt8], width: Int, height: Int) -> Int {
        var histograms = [[Int]](repeating: [Int](repeating: 0, count: 256), count: 4)
        alpha.withUnsafeBufferPointer { a in
            for y in stride(from: 0, to: height, by: 2) {
                let row = a.baseAddress! + y * width
                let above = y == 0 ? nil : row - width
                for x in stride(from: 0, to: width, by: 2) {
                    histograms[0][Int(row[x])] += 1
                    for method in 1..<4 {
                        histograms[method][Int(row[x] &- prediction(method, row, above: above, x))] += 1
                    }
                }
            }
        }
        let costs = histograms.map { h in
            let total = Double(h.reduce(0, +))
            return h.reduce(0.0) { $1 == 0 ? $0 : $0 - Double($1) * log2(Double($1) / total) }
        }
        return costs.indices.min { costs[$0] < costs[$1] }!
    }
}
