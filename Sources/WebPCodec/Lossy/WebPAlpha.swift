import CodecCore

/// The `ALPH` chunk of a lossy image (RFC 9649 section 2.7.1.2 "Alpha"): a header byte, then
/// the alpha plane, raw or as a headerless VP8L image stream whose green channel is the alpha,
/// filtered by one of four predictors.
///
/// Decoded as libwebp's alpha decoder decodes it (src/dec/alpha_dec.c, read for behaviour
/// only): any fault (a header byte it refuses, raw data shorter than the plane, a VP8L stream
/// that is invalid or runs out) makes the whole image fail, which is `invalidData` here.
package struct WebPAlpha: Sendable, Equatable {
    /// RFC 9649 2.7.1.2 "Compression method" (bits 0–1): 0 raw, 1 VP8L-compressed.
    package let compression: Int
    /// "Filtering method" (bits 2–3): 0 none, 1 horizontal, 2 vertical, 3 gradient.
    package let filtering: Int
    /// "Pre-processing" (bits 4–5): 0 none, 1 level reduction. Informative: with dwebp's
    /// defaults (no alpha dithering) it changes nothing.
    package let preprocessing: Int

    /// Reads the header byte. libwebp refuses compression methods 2–3, pre-processing 2–3 and
    /// reserved bits (6–7) that are not zero; so does this.
    package init(headerByte byte: UInt8) throws(DecodingError) {
        compression = Int(byte & 3)
        filtering = Int(byte >> 2 & 3)
        preprocessing = Int(byte >> 4 & 3)
        guard compression <= 1 else { throw .invalidData("ALPH compression method is not 0 or 1") }
        guard preprocessing <= 1 else { throw .invalidData("ALPH pre-processing is not 0 or 1") }
        guard byte >> 6 == 0 else { throw .invalidData("ALPH reserved bits are not zero") }
    }

    /// Decodes an ALPH chunk's payload to the alpha plane of a `width × height` image (one
    /// byte per pixel, rows top to bottom). The payload must hold more than the header byte.
    package static func decode(_ payload: UnsafeBufferPointer<UInt8>, width: Int, height: Int,
                              limits: Limits) throws(DecodingError) -> [UInt8] {
        guard payload.count > 1 else { throw .invalidData("ALPH chunk has no alpha data") }
        let alpha = try WebPAlpha(headerByte: payload[0])
        let count = try limits.checkedRasterBytes(width: width, height: height, bytesPerPixel: 1)
        let data = UnsafeBufferPointer(rebasing: payload[1...])
        var plane: [UInt8]
        if alpha.compression == 0 {
            guard data.count >= count else { throw .invalidData("ALPH raw data is shorter than the image") }
            plane = Array(UnsafeBufferPointer(rebasing: data[0..<count]))
        } else {
            plane = try compressedPlane(data, width: width, height: height, limits: limits)
        }
        WebPAlphaFilter.unfilter(alpha.filtering, &plane, width: width, height: height)
        return plane
    }

    /// Compression method 1: a VP8L image stream (RFC 9649 5.2, no VP8L header) of the image's
    /// size; the alpha is its green channel. Its bit reader ends with the chunk, and a stream
    /// shorter than 8 bytes reads as if zero-padded to 8 (libwebp's first 64-bit window).
    static func compressedPlane(_ data: UnsafeBufferPointer<UInt8>, width: Int, height: Int,
                                limits: Limits) throws(DecodingError) -> [UInt8] {
        let header = VP8LHeader(width: width, height: height, alphaIsUsed: false)
        func run(_ bytes: UnsafeBufferPointer<UInt8>) throws(DecodingError) -> [UInt8] {
            do {
                var decoder = try VP8LDecoder(bytes, header: header, imageStreamAt: 0, limits: limits, outputsGreen: true)
                return try decoder.decodeAlphaStream(bytes)
            } catch where error.kind == .truncated {
                // libwebp: "Could not decode alpha data", whether the stream is bad or short.
                throw .invalidData("ALPH compressed data ends before the image does")
            }
        }
        if data.count >= 8 { return try run(data) }
        var padded = [UInt8](repeating: 0, count: 8)
        for i in 0..<data.count { padded[i] = data[i] }
        return try padded.withUnsafeBufferPointer { (p) throws(DecodingError) in try run(p) }
    }
}

/// The alpha plane's unfiltering (RFC 9649 2.7.1.2 "Filtering method"), as libwebp's
/// `WebPUnfilters`: each row is predicted from the row above, already unfiltered, and the
/// left pixel, and the coded bytes are added modulo 256.
enum WebPAlphaFilter {
    /// Unfilters `plane` (`width × height`) in place with method 0–3.
    ///
    /// The top-left pixel is predicted by 0; the rest of the first row by its left neighbour
    /// for every method but none; the first pixel of the other rows by the one above it
    /// (horizontal included, as libwebp); then horizontal uses the left neighbour, vertical the
    /// one above, gradient `clip(left + above − above-left)` to 0…255.
    static func unfilter(_ method: Int, _ plane: inout [UInt8], width: Int, height: Int) {
        guard method != 0, width > 0, height > 0 else { return }
        plane.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            var left: UInt8 = 0
            for x in 0..<width {
                base[x] = base[x] &+ left
                left = base[x]
            }
            for y in 1..<max(height, 1) {
                let row = base + y * width, above = row - width
                switch method {
                case 1: horizontalRow(row, above, width)
                case 2: for x in 0..<width { row[x] = row[x] &+ above[x] }
                default: gradientRow(row, above, width)
                }
            }
        }
    }

    /// Horizontal: the first pixel from the one above, the others from their left neighbour.
    private static func horizontalRow(_ row: UnsafeMutablePointer<UInt8>, _ above: UnsafeMutablePointer<UInt8>, _ width: Int) {
        var left = above[0]
        for x in 0..<width {
            row[x] = row[x] &+ left
            left = row[x]
        }
    }

    /// Gradient: `clip(left + above − above-left)`; the first pixel's left and above-left are
    /// the pixel above it, so it is predicted by the pixel above.
    private static func gradientRow(_ row: UnsafeMutablePointer<UInt8>, _ above: UnsafeMutablePointer<UInt8>, _ width: Int) {
        var left = Int(above[0]), aboveLeft = Int(above[0])
        for x in 0..<width {
            let top = Int(above[x])
            let predicted = min(max(left + top - aboveLeft, 0), 255)
            row[x] = row[x] &+ UInt8(truncatingIfNeeded: predicted)
            left = Int(row[x])
            aboveLeft = top
        }
    }
}
