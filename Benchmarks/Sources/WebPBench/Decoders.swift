import BenchSupport
import CLibWebP
import ImageCodecs

/// The decoders under comparison, each giving straight RGBA8: a still's pixels, or every
/// frame of an animation composited to the full canvas. Ours with the default options
/// (`maxThreads`: the processors online, at most 8) and with `maxThreads` 1; libwebp on one
/// thread and with `use_threads` (a second thread for lossy filtering and output).
enum Decoder: Int, BenchDecoder {
    case ours, oursOneCore, libwebp, libwebpThreads

    var name: String {
        switch self {
        case .ours: "ours"
        case .oursOneCore: "ours (1 thread)"
        case .libwebp: "libwebp"
        case .libwebpThreads: "libwebp (use_threads)"
        }
    }

    /// Our options with `maxThreads` 1.
    static let oneCore: DecodingOptions = {
        var options = DecodingOptions()
        options.maxThreads = 1
        return options
    }()

    /// Decodes `bytes` whole, as a user would: everything from the file's bytes to the pixels
    /// (every frame of an animation, in order), output allocation included. Returns the still
    /// or the last canvas; `frames`, when given, sees every frame's canvas (the check, never timed).
    func decode(_ bytes: [UInt8], info: WebPInfo, frames: FrameHashes? = nil) throws(BenchError) -> [UInt8] {
        switch (self, info.isAnimated) {
        case (.ours, false): try decodeOurs(bytes)
        case (.ours, true): try decodeOursEveryFrame(bytes, frames: frames)
        case (.oursOneCore, false): try decodeOurs(bytes, options: Self.oneCore)
        case (.oursOneCore, true): try decodeOursEveryFrame(bytes, options: Self.oneCore, frames: frames)
        case (.libwebp, false): try decodeLibWebP(bytes, info: info, threads: false)
        case (.libwebp, true): try decodeLibWebPAnimation(bytes, info: info, threads: false, frames: frames)
        case (.libwebpThreads, false): try decodeLibWebP(bytes, info: info, threads: true)
        case (.libwebpThreads, true): try decodeLibWebPAnimation(bytes, info: info, threads: true, frames: frames)
        }
    }
}

/// libwebp's `WebPDecode` with `MODE_RGBA` into an output allocated here (what
/// `WebPDecodeRGBAInto` does, which has no threads option), `use_threads` as `threads` says.
func decodeLibWebP(_ bytes: [UInt8], info: WebPInfo, threads: Bool) throws(BenchError) -> [UInt8] {
    let size = info.width * info.height * 4
    var config = WebPDecoderConfig()
    guard WebPInitDecoderConfigInternal(&config, WEBP_DECODER_ABI_VERSION) != 0 else {
        throw BenchError("libwebp: WebPInitDecoderConfig failed")
    }
    config.options.use_threads = threads ? 1 : 0
    var ok = false
    let pixels = bytes.withUnsafeBufferPointer { input in
        [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
            config.output.colorspace = MODE_RGBA
            config.output.is_external_memory = 1
            config.output.u.RGBA.rgba = buffer.baseAddress
            config.output.u.RGBA.stride = Int32(info.width * 4)
            config.output.u.RGBA.size = size
            ok = WebPDecode(input.baseAddress, input.count, &config) == VP8_STATUS_OK
            count = ok ? size : 0
        }
    }
    guard ok else { throw BenchError("libwebp: WebPDecode failed") }
    return pixels
}

/// libwebp's `WebPAnimDecoder` (MODE_RGBA, straight alpha) over the whole file, `GetNext` for
/// every frame; its canvas is its own buffer, which a user reads and which is copied here
/// for the last frame only (ours returns a new image per frame).
func decodeLibWebPAnimation(_ bytes: [UInt8], info: WebPInfo, threads: Bool,
                            frames: FrameHashes?) throws(BenchError) -> [UInt8] {
    let size = info.width * info.height * 4
    var options = WebPAnimDecoderOptions()
    guard WebPAnimDecoderOptionsInitInternal(&options, WEBP_DEMUX_ABI_VERSION) != 0 else {
        throw BenchError("libwebp: WebPAnimDecoderOptionsInit failed")
    }
    options.color_mode = MODE_RGBA
    options.use_threads = threads ? 1 : 0
    return try bytes.withUnsafeBufferPointer { (input) throws(BenchError) -> [UInt8] in
        var data = WebPData(bytes: input.baseAddress, size: input.count)
        guard let decoder = WebPAnimDecoderNewInternal(&data, &options, WEBP_DEMUX_ABI_VERSION) else {
            throw BenchError("libwebp: WebPAnimDecoderNew failed")
        }
        defer { WebPAnimDecoderDelete(decoder) }
        var canvas: UnsafeMutablePointer<UInt8>?
        var timestamp: Int32 = 0
        var count = 0
        while WebPAnimDecoderHasMoreFrames(decoder) != 0 {
            guard WebPAnimDecoderGetNext(decoder, &canvas, &timestamp) != 0, let canvas else {
                throw BenchError("libwebp: WebPAnimDecoderGetNext failed at frame \(count)")
            }
            frames?.append(UnsafeBufferPointer(start: canvas, count: size))
            count += 1
        }
        guard let canvas, count == info.frames else { throw BenchError("libwebp: \(count) frames, not \(info.frames)") }
        return Array(UnsafeBufferPointer(start: canvas, count: size))
    }
}

/// The size, kind and frame count of a WebP file, from libwebp (`WebPGetFeatures`, the
/// demuxer), not from our decoder.
struct WebPInfo {
    let width: Int
    let height: Int
    let isAnimated: Bool
    let frames: Int
    /// "lossless", "lossy", "lossy+alpha" or "mixed" (libwebp's `format`, and `has_alpha` for
    /// lossy), or "animated" (libwebp gives no format for an animation).
    let category: String

    init?(_ bytes: [UInt8]) {
        var features = WebPBitstreamFeatures()
        let status = bytes.withUnsafeBufferPointer {
            WebPGetFeaturesInternal($0.baseAddress, $0.count, &features, WEBP_DECODER_ABI_VERSION)
        }
        guard status == VP8_STATUS_OK else { return nil }
        width = Int(features.width)
        height = Int(features.height)
        isAnimated = features.has_animation != 0
        if isAnimated {
            let count = bytes.withUnsafeBufferPointer { input -> Int in
                var data = WebPData(bytes: input.baseAddress, size: input.count)
                guard let demuxer = WebPDemuxInternal(&data, 0, nil, WEBP_DEMUX_ABI_VERSION) else { return 0 }
                defer { WebPDemuxDelete(demuxer) }
                return Int(WebPDemuxGetI(demuxer, WEBP_FF_FRAME_COUNT))
            }
            guard count > 0 else { return nil }
            frames = count
            category = "animated"
        } else {
            frames = 1
            let lossy = features.has_alpha != 0 ? "lossy+alpha" : "lossy"
            category = features.format == 2 ? "lossless" : features.format == 1 ? lossy : "mixed"
        }
    }

    var megapixels: Double { Double(width * height) / 1e6 }
    var totalMegapixels: Double { megapixels * Double(frames) }
}
