/// The colours a quantized frame must show, binned at 6 bits per channel: per bin the pixel
/// count, the sums of R, G and B and of R² + G² + B² (8-bit samples, exact), so that the
/// quantizer and its refinement work on at most 2^18 weighted points instead of every pixel.
/// The occupied bins are listed, so that going over them and clearing them for the next frame
/// costs what the frame has, not 2^18.
struct GIFColorHistogram {
    static let binCount = 1 << 18
    var count: [Int]
    var sumR: [Int]
    var sumG: [Int]
    var sumB: [Int]
    var sumSquares: [Int]
    /// The bins whose count is not zero, in the order they were first hit.
    private(set) var occupied: [Int] = []

    init() {
        count = [Int](repeating: 0, count: Self.binCount)
        sumR = count
        sumG = count
        sumB = count
        sumSquares = count
    }

    /// The bin of an opaque packed colour (R in the low byte).
    @inline(__always)
    static func bin(_ color: UInt32) -> Int {
        let r = Int(color & 0xFC), g = Int((color >> 8) & 0xFC), b = Int((color >> 16) & 0xFC)
        return r << 10 | g << 4 | b >> 2
    }

    /// Adds the pixels of `pixels` whose `mask` byte is nonzero.
    mutating func add(_ pixels: UnsafeBufferPointer<UInt32>, mask: UnsafeBufferPointer<UInt8>) {
        var hit = occupied
        count.withUnsafeMutableBufferPointer { n in
            sumR.withUnsafeMutableBufferPointer { sr in
                sumG.withUnsafeMutableBufferPointer { sg in
                    sumB.withUnsafeMutableBufferPointer { sb in
                        sumSquares.withUnsafeMutableBufferPointer { sq in
                            for i in 0..<min(pixels.count, mask.count) where mask[i] != 0 {
                                let c = pixels[i]
                                let r = Int(c & 0xFF), g = Int((c >> 8) & 0xFF), b = Int((c >> 16) & 0xFF)
                                let k = Self.bin(c)
                                if n[k] == 0 { hit.append(k) }
                                n[k] &+= 1
                                sr[k] &+= r
                                sg[k] &+= g
                                sb[k] &+= b
                                sq[k] &+= r &* r &+ g &* g &+ b &* b
                            }
                        }
                    }
                }
            }
        }
        occupied = hit
    }

    /// Empties the histogram for the next frame.
    mutating func removeAll() {
        for k in occupied {
            count[k] = 0
            sumR[k] = 0
            sumG[k] = 0
            sumB[k] = 0
            sumSquares[k] = 0
        }
        occupied.removeAll(keepingCapacity: true)
    }

    /// The occupied bins: mean colour and weight of each.
    func points() -> [(r: Double, g: Double, b: Double, weight: Double)] {
        var out: [(r: Double, g: Double, b: Double, weight: Double)] = []
        for k in occupied {
            let n = Double(count[k])
            out.append((Double(sumR[k]) / n, Double(sumG[k]) / n, Double(sumB[k]) / n, n))
        }
        return out
    }
}
