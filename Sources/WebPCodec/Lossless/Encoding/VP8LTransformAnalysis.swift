/// Quick estimates that pick transforms without encoding twice: the entropy of the
/// horizontal differences of each component, with and without subtract green (RFC 9649 4.3).
enum VP8LTransformAnalysis {
    /// Whether red and blue minus green differ less from pixel to pixel than red and blue do:
    /// the summed entropy of the left-differences of red and blue, on a sample of rows.
    static func prefersSubtractGreen(_ pixels: UnsafeBufferPointer<UInt32>, width: Int) -> Bool {
        var plain = [UInt32](repeating: 0, count: 512)
        var minusGreen = [UInt32](repeating: 0, count: 512)
        let height = pixels.count / max(width, 1)
        let rowStep = max(1, height / 256)
        var y = 0
        while y < height {
            let row = y * width
            for x in 1..<max(1, width) {
                let a = pixels[row + x], b = pixels[row + x - 1]
                let dr = Int(((a >> 16) &- (b >> 16)) & 0xFF), db = Int((a &- b) & 0xFF)
                let dg = Int(((a >> 8) &- (b >> 8)) & 0xFF)
                plain[dr] += 1
                plain[256 + db] += 1
                minusGreen[(dr &- dg) & 0xFF] += 1
                minusGreen[256 + ((db &- dg) & 0xFF)] += 1
            }
            y += rowStep
        }
        return entropy(minusGreen) < entropy(plain)
    }

    static func entropy(_ counts: [UInt32]) -> Double {
        var total = 0.0, sum = 0.0
        for c in counts where c > 0 {
            let v = Double(c)
            total += v
            sum += v * VP8LLog.log2(v)
        }
        return total > 0 ? total * VP8LLog.log2(total) - sum : 0
    }
}
