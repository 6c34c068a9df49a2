import Foundation

/// Measures of how far a decoded image is from its source, for encoder tests.
public enum ImageMetrics {
    /// The peak signal-to-noise ratio in dB over the colour channels of two RGBA8 rasters of
    /// the same size (alpha left out); 99 when they are equal.
    public static func psnr(_ a: [UInt8], _ b: [UInt8]) -> Double {
        var sum = 0.0, n = 0.0
        for i in a.indices where i % 4 != 3 {
            let d = Double(a[i]) - Double(b[i])
            sum += d * d
            n += 1
        }
        return sum == 0 ? 99 : 10 * log10(255 * 255 * n / sum)
    }
}
