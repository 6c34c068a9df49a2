import BenchSupport
import CSpng

/// One input decoded by libspng (never by our decoder): the RGBA raster a user hands to an
/// encoder, and the file's own layout (IHDR, samples, palette) that the C encoders take.
struct Source {
    let width: Int
    let height: Int
    let bitDepth: Int
    let colourType: Int
    /// RGBA8, or RGBA16 in host order for 16-bit files.
    let rgba: [UInt8]
    /// Rows in the file's layout (samples big-endian), not interlaced.
    let rows: [UInt8]
    let rowBytes: Int
    let palette: [UInt8]
    let transparency: [UInt8]

    var isSixteenBit: Bool { bitDepth == 16 }
    var megapixels: Double { Double(width * height) / 1e6 }

    init(_ bytes: [UInt8]) throws(BenchError) {
        guard let ctx = spng_ctx_new(0) else { throw BenchError("spng_ctx_new failed") }
        defer { spng_ctx_free(ctx) }
        var ihdr = spng_ihdr()
        let rc = bytes.withUnsafeBytes { spng_set_png_buffer(ctx, $0.baseAddress, $0.count) }
        guard rc == 0, spng_get_ihdr(ctx, &ihdr) == 0 else { throw BenchError("libspng cannot read the header") }
        width = Int(ihdr.width)
        height = Int(ihdr.height)
        bitDepth = Int(ihdr.bit_depth)
        colourType = Int(ihdr.color_type)
        var plte = spng_plte()
        if spng_get_plte(ctx, &plte) == 0 {
            let count = Int(plte.n_entries)
            palette = withUnsafeBytes(of: plte.entries) { raw -> [UInt8] in
                var rgb: [UInt8] = []
                for i in 0..<count { rgb += [raw[4 * i], raw[4 * i + 1], raw[4 * i + 2]] }
                return rgb
            }
        } else {
            palette = []
        }
        var trns = spng_trns()
        if colourType == 3, spng_get_trns(ctx, &trns) == 0 {
            transparency = withUnsafeBytes(of: trns.type3_alpha) { Array($0.prefix(Int(trns.n_type3_entries))) }
        } else {
            transparency = []
        }
        rgba = try decodeWithSpng(bytes, format: bitDepth == 16 ? SPNG_FMT_RGBA16 : SPNG_FMT_RGBA8)
        rows = try decodeWithSpng(bytes, format: SPNG_FMT_PNG)
        rowBytes = rows.count / max(height, 1)
    }

    /// "RGB8", "palette8", "RGBA16"…
    var category: String {
        let kind = [0: "grey", 2: "RGB", 3: "palette", 4: "grey+alpha", 6: "RGBA"][colourType] ?? "type\(colourType)"
        return "\(kind)\(bitDepth)"
    }
}

/// libspng's decode of a whole file to `format` (tRNS applied for the RGBA formats).
func decodeWithSpng(_ bytes: [UInt8], format: spng_format) throws(BenchError) -> [UInt8] {
    guard let ctx = spng_ctx_new(0) else { throw BenchError("spng_ctx_new failed") }
    defer { spng_ctx_free(ctx) }
    let fmt = Int32(format.rawValue)
    let flags = format == SPNG_FMT_PNG ? 0 : Int32(SPNG_DECODE_TRNS.rawValue)
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
            rc = spng_decode_image(ctx, buffer.baseAddress, size, fmt, flags)
            failure = rc
            count = rc == 0 ? size : 0
        }
    }
    guard failure == 0 else { throw BenchError("libspng: " + String(cString: spng_strerror(failure))) }
    return pixels
}
