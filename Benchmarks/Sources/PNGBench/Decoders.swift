import BenchSupport
import CLibPNGShim
import CSpng
import ImageCodecs

/// The decoders under comparison, each giving RGBA8 (straight alpha, no gamma): ours with the
/// default `maxThreads` (the processors online, at most 8) and with one thread, and the two C
/// libraries (one thread each).
enum Decoder: Int, BenchDecoder {
    case ours, oursOneCore, libspng, libpng

    var name: String {
        switch self {
        case .ours: "ours"
        case .oursOneCore: "ours (1 thread)"
        case .libspng: "libspng"
        case .libpng: "libpng"
        }
    }

    /// Decodes `bytes` whole, as a user would: everything from the file's bytes to the pixels,
    /// output allocation included.
    func decode(_ bytes: [UInt8], info: PNGInfo) throws(BenchError) -> [UInt8] {
        switch self {
        case .ours: try decodeOurs(bytes)
        case .oursOneCore: try decodeOurs(bytes, options: oneThread)
        case .libspng: try decodeSpng(bytes, format: SPNG_FMT_RGBA8)
        case .libpng: try decodeLibPNG(bytes, info: info)
        }
    }
}

/// libspng: a context over the buffer, `spng_decode_image` to `format` with tRNS applied
/// (`SPNG_DECODE_TRNS`), no gamma. CRC and Adler-32 are checked, as ours does by default.
func decodeSpng(_ bytes: [UInt8], format: spng_format) throws(BenchError) -> [UInt8] {
    guard let ctx = spng_ctx_new(0) else { throw BenchError("spng_ctx_new failed") }
    defer { spng_ctx_free(ctx) }
    let fmt = Int32(format.rawValue)
    var failure: Int32 = 0
    let pixels = bytes.withUnsafeBytes { raw -> [UInt8] in
        var rc = spng_set_png_buffer(ctx, raw.baseAddress, raw.count)
        var size = 0
        if rc == 0 { rc = spng_decoded_image_size(ctx, fmt, &size) }
        guard rc == 0 else {
            failure = rc
            return []
        }
        return [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
            rc = spng_decode_image(ctx, buffer.baseAddress, size, fmt, Int32(SPNG_DECODE_TRNS.rawValue))
            failure = rc
            count = rc == 0 ? size : 0
        }
    }
    guard failure == 0 else {
        throw BenchError("libspng: " + String(cString: spng_strerror(failure)))
    }
    return pixels
}

/// libpng's classic API through the C shim (expand, strip_16, gray_to_rgb, add_alpha).
func decodeLibPNG(_ bytes: [UInt8], info: PNGInfo) throws(BenchError) -> [UInt8] {
    let size = info.canvasBytes
    var rc: Int32 = 0
    let pixels = bytes.withUnsafeBytes { raw in
        [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
            var width: UInt32 = 0
            var height: UInt32 = 0
            rc = pngshim_decode_rgba8(raw.baseAddress, raw.count, buffer.baseAddress, size, &width, &height)
            count = rc == 0 ? size : 0
        }
    }
    guard rc == 0 else { throw BenchError("libpng: error \(rc)") }
    return pixels
}

/// libspng's RGBA16 output cut to the high byte of each sample (`v >> 8`): the canonical 8-bit
/// form of a 16-bit source.
func decodeSpngSixteenToHighBytes(_ bytes: [UInt8]) throws(BenchError) -> [UInt8] {
    let wide = try decodeSpng(bytes, format: SPNG_FMT_RGBA16)
    return wide.withUnsafeBytes { raw in
        raw.withMemoryRebound(to: UInt16.self) { samples in // host order, per libspng
            samples.map { UInt8(truncatingIfNeeded: $0 &>> 8) }
        }
    }
}
