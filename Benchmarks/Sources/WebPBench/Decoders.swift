import BenchSupport
import CLibWebP
import ImageCodecs

/// The two decoders under comparison, each giving straight RGBA8.
enum Decoder: Int, BenchDecoder {
    case ours, libwebp

    var name: String {
        switch self {
        case .ours: "ours"
        case .libwebp: "libwebp"
        }
    }

    /// Decodes `bytes` whole, as a user would: everything from the file's bytes to the pixels,
    /// output allocation included.
    func decode(_ bytes: [UInt8], info: WebPInfo) throws(BenchError) -> [UInt8] {
        switch self {
        case .ours: try decodeOurs(bytes)
        case .libwebp: try decodeLibWebP(bytes, info: info)
        }
    }
}

/// libwebp's `WebPDecodeRGBAInto` (what `dwebp`/`WebPDecodeRGBA` does) into an output allocated here.
func decodeLibWebP(_ bytes: [UInt8], info: WebPInfo) throws(BenchError) -> [UInt8] {
    let size = info.width * info.height * 4
    var ok = false
    let pixels = bytes.withUnsafeBufferPointer { input in
        [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
            ok = WebPDecodeRGBAInto(input.baseAddress, input.count, buffer.baseAddress, size, Int32(info.width * 4)) != nil
            count = ok ? size : 0
        }
    }
    guard ok else { throw BenchError("libwebp: WebPDecodeRGBAInto failed") }
    return pixels
}

/// The size and kind of a WebP file, from libwebp (`WebPGetFeatures`), not from our decoder.
struct WebPInfo {
    let width: Int
    let height: Int
    /// "lossless", "lossy" or "mixed" (libwebp's `format`), and whether it is animated.
    let category: String

    init?(_ bytes: [UInt8]) {
        var features = WebPBitstreamFeatures()
        let status = bytes.withUnsafeBufferPointer {
            WebPGetFeaturesInternal($0.baseAddress, $0.count, &features, WEBP_DECODER_ABI_VERSION)
        }
        guard status == VP8_STATUS_OK, features.has_animation == 0 else { return nil }
        width = Int(features.width)
        height = Int(features.height)
        category = features.format == 2 ? "lossless" : features.format == 1 ? "lossy" : "mixed"
    }

    var megapixels: Double { Double(width * height) / 1e6 }
}
