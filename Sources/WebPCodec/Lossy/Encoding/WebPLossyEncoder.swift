import CodecCore

/// Encodes a lossy WebP image: the `VP8 ` chunk (``VP8Encoder``) and, when a pixel is not
/// opaque, the ALPH chunk (RFC 9649 2.7.1.2): the alpha plane as the green channel of a VP8L
/// image stream without its header (compression method 1), or raw (method 0) when that is
/// smaller, as libwebp falls back.
enum WebPLossyEncoder {
    /// The VP8 chunk's payload and the ALPH chunk's, if any. With `maxThreads` above 1 the
    /// alpha is compressed on a second thread while the colour is coded (the bytes are the same).
    static func encode(argb: [UInt32], width: Int, height: Int, options: EncodingOptions)
        throws(EncodingError) -> (vp8: [UInt8], alpha: [UInt8]?) {
        let settings = VP8Encoder.Settings(quality: options.quality, effort: min(options.effort, 6),
                                           noiseShaping: options.noiseShaping)
        guard argb.contains(where: { $0 < 0xFF00_0000 }) else {
            return (try VP8Encoder.encode(argb: argb, width: width, height: height, settings: settings), nil)
        }
        var vp8 = Result<[UInt8], EncodingError>.success([])
        var alpha: [UInt8] = []
        WorkerPool.shared.concurrentForEach(count: 2, maxThreads: options.maxThreads) { job in
            if job == 0 {
                vp8 = Result { () throws(EncodingError) in
                    try VP8Encoder.encode(argb: argb, width: width, height: height, settings: settings)
                }
            } else {
                alpha = alphaPayload(argb: argb, width: width, height: height, effort: options.effort,
                                     quality: options.alphaQuality, maxThreads: options.maxThreads)
            }
        }
        return (try vp8.get(), alpha)
    }

    /// The number of alpha levels kept at `quality` (0…1), as cwebp's `-alpha_q` counts them:
    /// `2 + q/5` up to q = 70, then `16 + 8 (q − 70)`; 256 (exact) at 100.
    static func alphaLevels(quality: Double) -> Int {
        let q = Int((min(max(quality, 0), 1) * 100).rounded())
        return min(256, q <= 70 ? 2 + q / 5 : 16 + (q - 70) * 8)
    }

    /// ALPH: the header byte (pre-processing 1 when the levels were reduced, the filtering
    /// method, compression 1), then the VP8L image stream of the filtered alpha values in green
    /// (RFC 9649 2.7.1.2: the stream lacks the VP8L header's 5 bytes). Below 256 levels each
    /// alpha value first becomes the nearest of `levels` values spread evenly over the image's
    /// range of alpha. Each of ``filterMethods(_:width:height:effort:)`` is compressed
    /// (``WebPAlphaFilter/filter(_:width:height:method:)``, then VP8L; on up to `maxThreads`
    /// threads) and the smallest kept, the first of equals.
    static func alphaPayload(argb: [UInt32], width: Int, height: Int, effort: Int, quality: Double,
                             maxThreads: Int) -> [UInt8] {
        let levels = alphaLevels(quality: quality)
        var alpha = argb.map { UInt8(truncatingIfNeeded: $0 >> 24) }
        if levels < 256 {
            let low = Int(alpha.min() ?? 0), high = Int(alpha.max() ?? 255)
            let steps = max(1, levels - 1)
            let span = max(1, high - low)
            for i in alpha.indices {
                let k = ((Int(alpha[i]) - low) * steps + span / 2) / span
                alpha[i] = UInt8(low + (k * span + steps / 2) / steps)
            }
        }
        let methods = filterMethods(alpha, width: width, height: height, effort: effort)
        var payloads = [[UInt8]](repeating: [], count: methods.count)
        payloads.withUnsafeMutableBufferPointer { out in
            WorkerPool.shared.concurrentForEach(count: methods.count, maxThreads: maxThreads) { k in
                var green = WebPAlphaFilter.filter(alpha, width: width, height: height, method: methods[k])
                    .map { 0xFF00_0000 | UInt32($0) << 8 }
                let stream = VP8LEncoder.encode(argb: &green, width: width, height: height, effort: effort, exact: true)
                out[k] = [UInt8((levels < 256 ? 0x10 : 0) | methods[k] << 2 | 1)] + stream.dropFirst(5)
            }
        }
        let compressed = payloads.min { $0.count < $1.count }!
        // Raw (compression 0, no filter): one byte a pixel after the header.
        guard compressed.count > 1 + alpha.count else { return compressed }
        return [UInt8(levels < 256 ? 0x10 : 0)] + alpha
    }

    /// The filtering methods to try: none for at most 16 alpha values (VP8L codes so few
    /// values best as they are; a filter spreads them), else the estimated best
    /// (``WebPAlphaFilter/estimatedMethod(_:width:height:)``), from effort 4 with none beside it
    /// (VP8L's own predictors often do better than a filter), and from effort 8 all four, as
    /// libwebp chooses (`-alpha_filter fast`, `best`).
    static func filterMethods(_ alpha: [UInt8], width: Int, height: Int, effort: Int) -> [Int] {
        var seen = [Bool](repeating: false, count: 256), distinct = 0
        for a in alpha where !seen[Int(a)] {
            seen[Int(a)] = true
            distinct += 1
        }
        if distinct <= 16 { return [0] }
        if effort >= 8 { return [0, 1, 2, 3] }
        let estimate = WebPAlphaFilter.estimatedMethod(alpha, width: width, height: height)
        return effort >= 4 && estimate != 0 ? [0, estimate] : [estimate]
    }
}
