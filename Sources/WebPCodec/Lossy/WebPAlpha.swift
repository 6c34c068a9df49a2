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
}

/// The alpha plane of a lossy image (an ALPH chunk) handed out a band of rows at a time, as the
/// colour rows come out (libwebp's `VP8DecompressAlphaRows`), so that the plane is never held
/// whole: raw rows are read from the input as they are needed, a compressed plane's VP8L
/// stream is decoded as far as the rows asked for (its coded image in a sliding window), and
/// each row is unfiltered from the row above it.
///
/// As in libwebp's alpha decoder (src/dec/alpha_dec.c, read for behaviour only), any fault — a
/// header byte it refuses, raw data shorter than the plane, a VP8L stream that is invalid or
/// runs out — makes the whole image fail (`invalidData`), when the rows it concerns are asked for.
package struct WebPAlphaRows: Sendable {
    /// Where the rows come from.
    private enum Source: Sendable {
        /// Compression 0: the plane is the chunk's data after the header byte, from `start` in
        /// the input (whose chunk has arrived whole: ALPH comes before the VP8 chunk).
        case raw(InputBuffer, start: Int)
        /// Compression 1: a headerless VP8L image stream (RFC 9649 5.2) of the image's size,
        /// whose green channel is the alpha, and its bytes; a stream shorter than 8 bytes reads
        /// as if zero-padded to 8 (libwebp's first 64-bit window), and its reader ends with the chunk.
        case lossless(VP8LDecoder, bytes: [UInt8])
        /// Held only while the VP8L decoder is out running, so that its buffers are not shared.
        case moving
    }

    package let header: WebPAlpha
    package let width: Int
    package let height: Int
    private var source: Source
    /// Rows handed out so far; the band holds the last batch of them, from ``bandStart``.
    private(set) var rowsDone = 0
    /// The rows of the last ``decode(through:)``, unfiltered, `width` bytes each.
    private(set) var band: [UInt8] = []
    private(set) var bandStart = 0
    /// The last row handed out, unfiltered: the next row is predicted from it.
    private var above: [UInt8] = []

    /// Reads the chunk at `chunk` (its payload) in `input` for a `width × height` image.
    package init(chunk: Range<Int>, of input: InputBuffer, width: Int, height: Int,
                 limits: Limits) throws(DecodingError) {
        guard chunk.count > 1, let byte = input.u8(at: chunk.lowerBound) else {
            throw .invalidData("ALPH chunk has no alpha data")
        }
        header = try WebPAlpha(headerByte: byte)
        self.width = width
        self.height = height
        let count = try limits.checkedRasterBytes(width: width, height: height, bytesPerPixel: 1)
        let data = chunk.lowerBound + 1..<chunk.upperBound
        guard header.compression == 1 else {
            guard data.count >= count else { throw .invalidData("ALPH raw data is shorter than the image") }
            source = .raw(input, start: data.lowerBound)
            return
        }
        var bytes = input.copy(data)
        if bytes.count < 8 { bytes += [UInt8](repeating: 0, count: 8 - bytes.count) }
        let stream = VP8LHeader(width: width, height: height, alphaIsUsed: false)
        let decoder = try Self.lossless(bytes) { (p) throws(DecodingError) in
            try VP8LDecoder(p, header: stream, imageStreamAt: 0, limits: limits, outputsGreen: true)
        }
        source = .lossless(decoder, bytes: bytes)
    }

    /// Bytes held: the compressed stream and its decoder's buffers, the band and the row above.
    var heldBytes: Int {
        var held = band.count + above.count
        if case .lossless(let decoder, let bytes) = source { held += bytes.count + decoder.heldBytes }
        return held
    }

    /// Makes the next rows up to `end` (exclusive) the band, unfiltered.
    mutating func decode(through end: Int) throws(DecodingError) {
        let first = rowsDone, end = min(end, height)
        guard first < end else { return }
        let count = (end - first) * width
        band = [UInt8](repeating: 0, count: count)
        switch source {
        case .raw(let input, let start):
            var written = 0
            band.withUnsafeMutableBufferPointer { out in
                guard let base = out.baseAddress else { return }
                input.forEachRun(start + first * width..<start + end * width) { run in
                    guard let runBase = run.baseAddress else { return }
                    (base + written).update(from: runBase, count: run.count)
                    written += run.count
                }
            }
        case .lossless(var decoder, let bytes):
            // The decoder leaves `source` while it runs (no copy: it stays uniquely referenced).
            source = .moving
            defer { source = .lossless(decoder, bytes: bytes) }
            try Self.lossless(bytes) { (p) throws(DecodingError) in try decoder.decodeAlpha(untilRow: end, p) }
            decoder.takeGreen(count, into: &band)
        case .moving:
            return
        }
        unfilter(rows: end - first)
        bandStart = first
        rowsDone = end
    }

    /// Unfilters the band's `rows` rows, each from the one above (``above``), and keeps its last row.
    private mutating func unfilter(rows: Int) {
        let (width, method, isFirst) = (self.width, header.filtering, rowsDone == 0)
        guard method != 0 else { return }
        above.withUnsafeBufferPointer { saved in
        band.withUnsafeMutableBufferPointer { out in
            guard let base = out.baseAddress else { return }
            for y in 0..<rows {
                let row = base + y * width
                if isFirst && y == 0 {
                    WebPAlphaFilter.unfilterFirst(row, width)
                } else {
                    let previous = y > 0 ? UnsafePointer(row - width) : saved.baseAddress
                    guard let previous else { return }
                    WebPAlphaFilter.unfilter(method, row, above: previous, width)
                }
            }
        }
        }
        above = Array(band[(rows - 1) * width..<rows * width])
    }

    /// Runs a VP8L step on the stream's bytes; running out of them is `invalidData`, as libwebp's
    /// "Could not decode alpha data", whether the stream is bad or short.
    private static func lossless<R>(_ bytes: [UInt8], _ body: (UnsafeBufferPointer<UInt8>) throws(DecodingError) -> R)
        throws(DecodingError) -> R {
        do {
            return try bytes.withUnsafeBufferPointer { (p) throws(DecodingError) in try body(p) }
        } catch where error.kind == .truncated {
            throw .invalidData("ALPH compressed data ends before the image does")
        }
    }
}

/// The alpha plane's unfiltering (RFC 9649 2.7.1.2 "Filtering method"), as libwebp's
/// `WebPUnfilters`: each row is predicted from the row above, already unfiltered, and the
/// left pixel, and the coded bytes are added modulo 256.
enum WebPAlphaFilter {
    /// The first row: its first pixel is predicted by 0, the others by their left neighbour
    /// (every method but none).
    static func unfilterFirst(_ row: UnsafeMutablePointer<UInt8>, _ width: Int) {
        var left: UInt8 = 0
        for x in 0..<width {
            row[x] = row[x] &+ left
            left = row[x]
        }
    }

    /// Any later row with method 1–3: its first pixel is predicted by the one above (horizontal
    /// included, as libwebp); then horizontal uses the left neighbour, vertical the one above,
    /// gradient `clip(left + above − above-left)` to 0…255.
    static func unfilter(_ method: Int, _ row: UnsafeMutablePointer<UInt8>, above: UnsafePointer<UInt8>, _ width: Int) {
        switch method {
        case 1: horizontalRow(row, above, width)
        case 2: for x in 0..<width { row[x] = row[x] &+ above[x] }
        default: gradientRow(row, above, width)
        }
    }

    /// Horizontal: the first pixel from the one above, the others from their left neighbour.
    private static func horizontalRow(_ row: UnsafeMutablePointer<UInt8>, _ above: UnsafePointer<UInt8>, _ width: Int) {
        var left = above[0]
        for x in 0..<width {
            row[x] = row[x] &+ left
            left = row[x]
        }
    }

    /// Gradient: `clip(left + above − above-left)`; the first pixel's left and above-left are
    /// the pixel above it, so it is predicted by the pixel above.
    private static func gradientRow(_ row: UnsafeMutablePointer<UInt8>, _ above: UnsafePointer<UInt8>, _ width: Int) {
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
