import BenchSupport
import CLibPNGShim
import CSpng
import Foundation
import ImageCodecs

/// The encoders compared: ours, libspng's and libpng's at the same zlib level, and a plain zlib
/// deflate of the raw bytes (the floor: no filtering, no chunks).
enum Encoder: Int, BenchDecoder {
    case ours, libspng, libpng, zlib

    var name: String {
        switch self {
        case .ours: "ours"
        case .libspng: "libspng"
        case .libpng: "libpng"
        case .zlib: "zlib deflate"
        }
    }

    /// The encoded file (for zlib: the compressed raw bytes).
    func encode(_ source: Source, effort: Int, level: Int32) throws(BenchError) -> [UInt8] {
        switch self {
        case .ours: try encodeOurs(source, effort: effort)
        case .libspng: try encodeSpng(source, level: level)
        case .libpng: try encodeLibPNG(source, level: level)
        case .zlib: try deflateRaw(source, level: level)
        }
    }
}

/// Ours as a user calls it: an ``ImageDestination`` given the RGBA raster.
func encodeOurs(_ source: Source, effort: Int) throws(BenchError) -> [UInt8] {
    var options = EncodingOptions()
    options.effort = effort
    do {
        let destination = try ImageDestination(format: .png, options: options)
        try destination.add(EncodingFrame(raster: Raster(width: source.width, height: source.height,
                                                         bytesPerPixel: source.isSixteenBit ? 8 : 4, pixels: source.rgba)))
        return try destination.finalize()
    } catch {
        throw BenchError("ours: \(error)")
    }
}

/// libspng's encoder to a buffer (`SPNG_ENCODE_TO_BUFFER`), the file's IHDR, PLTE and tRNS,
/// `SPNG_IMG_COMPRESSION_LEVEL` = `level`, its default filter choice and strategy.
func encodeSpng(_ source: Source, level: Int32) throws(BenchError) -> [UInt8] {
    guard let ctx = spng_ctx_new(Int32(SPNG_CTX_ENCODER.rawValue)) else { throw BenchError("spng_ctx_new failed") }
    defer { spng_ctx_free(ctx) }
    var rc = spng_set_option(ctx, SPNG_ENCODE_TO_BUFFER, 1)
    if rc == 0 { rc = spng_set_option(ctx, SPNG_IMG_COMPRESSION_LEVEL, level) }
    var ihdr = spng_ihdr(width: UInt32(source.width), height: UInt32(source.height), bit_depth: UInt8(source.bitDepth),
                         color_type: UInt8(source.colourType), compression_method: 0, filter_method: 0,
                         interlace_method: 0)
    if rc == 0 { rc = spng_set_ihdr(ctx, &ihdr) }
    if rc == 0, source.colourType == 3 {
        var plte = spng_plte()
        plte.n_entries = UInt32(source.palette.count / 3)
        withUnsafeMutableBytes(of: &plte.entries) { raw in
            for i in 0..<Int(plte.n_entries) {
                raw[4 * i] = source.palette[3 * i]
                raw[4 * i + 1] = source.palette[3 * i + 1]
                raw[4 * i + 2] = source.palette[3 * i + 2]
            }
        }
        rc = spng_set_plte(ctx, &plte)
        if rc == 0, !source.transparency.isEmpty {
            var trns = spng_trns()
            trns.n_type3_entries = UInt32(source.transparency.count)
            withUnsafeMutableBytes(of: &trns.type3_alpha) { raw in
                for (i, a) in source.transparency.enumerated() { raw[i] = a }
            }
            rc = spng_set_trns(ctx, &trns)
        }
    }
    if rc == 0 {
        rc = source.rows.withUnsafeBytes { raw in
            spng_encode_image(ctx, raw.baseAddress, raw.count, Int32(SPNG_FMT_PNG.rawValue),
                              Int32(SPNG_ENCODE_FINALIZE.rawValue))
        }
    }
    guard rc == 0 else { throw BenchError("libspng: " + String(cString: spng_strerror(rc))) }
    var length = 0
    var error: Int32 = 0
    guard let buffer = spng_get_png_buffer(ctx, &length, &error), error == 0 else {
        throw BenchError("libspng: no buffer")
    }
    defer { free(buffer) }
    return Array(UnsafeRawBufferPointer(start: buffer, count: length))
}

/// libpng's classic writer through the C shim, default filters, `level`.
func encodeLibPNG(_ source: Source, level: Int32) throws(BenchError) -> [UInt8] {
    var out: UnsafeMutablePointer<UInt8>?
    var size = 0
    let rc = source.rows.withUnsafeBytes { rows in
        source.palette.withUnsafeBufferPointer { plte in
            source.transparency.withUnsafeBufferPointer { trns in
                pngshim_encode(rows.baseAddress, source.rowBytes, UInt32(source.width), UInt32(source.height),
                               Int32(source.bitDepth), Int32(source.colourType), plte.baseAddress,
                               Int32(source.palette.count / 3), trns.baseAddress, Int32(source.transparency.count),
                               level, &out, &size)
            }
        }
    }
    guard rc == 0, let out else { throw BenchError("libpng: error \(rc)") }
    defer { free(out) }
    return Array(UnsafeBufferPointer(start: out, count: size))
}

/// zlib's compress2 of the rows in the file's layout.
func deflateRaw(_ source: Source, level: Int32) throws(BenchError) -> [UInt8] {
    var out: UnsafeMutablePointer<UInt8>?
    var size = 0
    let rc = source.rows.withUnsafeBytes { pngshim_zlib_compress($0.baseAddress, $0.count, level, &out, &size) }
    guard rc == 0, let out else { throw BenchError("zlib: error \(rc)") }
    defer { free(out) }
    return Array(UnsafeBufferPointer(start: out, count: size))
}
