/// How ``EncodingOptions/maxFileSize`` is met (SDWebImage's `encodeMaxFileSize`).
///
/// Lossy encoders: the highest quality, at most the one asked for, whose file fits, found by
/// bisection over quality (7 encodes at most after the first); when none fits, the file at
/// quality 0. Lossless encoders cannot trade pixels for bytes: the file at the effort asked for,
/// and when it does not fit, the smaller of it and the file at effort 9 (best effort; the result
/// may still be larger than asked).
enum FileSizeSearch {
    static func best(fitting maxFileSize: Int, options: EncodingOptions, lossy: Bool,
                     encode: (EncodingOptions) throws(EncodingError) -> [UInt8]) throws(EncodingError) -> [UInt8] {
        let first = try encode(options)
        guard first.count > maxFileSize else { return first }
        var trial = options
        guard lossy else {
            guard options.effort < 9 else { return first }
            trial.effort = 9
            let harder = try encode(trial)
            return harder.count < first.count ? harder : first
        }
        var low = 0.0, high = options.quality
        trial.quality = 0
        var best = try encode(trial)
        guard best.count <= maxFileSize else { return best }
        for _ in 0..<6 {
            let middle = (low + high) / 2
            trial.quality = middle
            let file = try encode(trial)
            if file.count <= maxFileSize {
                best = file
                low = middle
            } else {
                high = middle
            }
        }
        return best
    }
}
