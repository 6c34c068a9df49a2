import CodecCore

extension VP8Decoder {
    /// Converts the output rows that the macroblock rows decoded so far made final (from the
    /// band, with the alpha plane's same rows, decoded now) into the output, then moves the
    /// band down: the current macroblock row's last ``bandExtraLines`` luma lines (and half as
    /// many chroma lines) become the band's first, for the next row's loop filter and upsampling.
    /// Throws `invalidData` when the alpha plane's rows cannot be decoded.
    mutating func emitFinalRows() throws(DecodingError) {
        let first = finalRowCount
        let last = finalRows(afterMacroblockRows: mbRow)
        try alpha?.decode(through: last)
        let mbY = mbRow - 1
        // The band's first line is luma line 16 mbY - 8, chroma line 8 mbY - 4.
        let yTop = 16 * mbY - Self.bandExtraLines, uvTop = (16 * mbY - Self.bandExtraLines) / 2
        let w = width, h = height, ys = yStride, uvs = uvStride, uo = uOffset, vo = vOffset
        // The band leaves `self` while rows go out (no copy: it stays uniquely referenced).
        var band = planes
        planes = []
        defer { planes = band }
        band.withUnsafeMutableBufferPointer { p in
            guard let base = p.baseAddress else { return }
            for row in first..<last {
                let (near, far) = VP8Upsampling.chromaRows(forRow: row, height: h)
                let y = base + (row - yTop) * ys
                let nearOffset = (near - uvTop) * uvs, farOffset = (far - uvTop) * uvs
                emit(row: row, width: w) { dst in
                    VP8Upsampling.upsampleRow(y: y, nearU: base + uo + nearOffset, nearV: base + vo + nearOffset,
                                              farU: base + uo + farOffset, farV: base + vo + farOffset,
                                              dst: dst, width: w)
                }
            }
            // Move the band down.
            let extra = Self.bandExtraLines
            base.update(from: base + 16 * ys, count: extra * ys)
            (base + uo).update(from: base + uo + 8 * uvs, count: extra / 2 * uvs)
            (base + vo).update(from: base + vo + 8 * uvs, count: extra / 2 * uvs)
        }
        finalRowCount = last
        sink.markFinal(rows: last)
    }

    /// Has `convert` write output row `row` as RGBA8, puts the alpha plane's row in, and hands
    /// the row to the sink.
    @inline(__always)
    private mutating func emit(row: Int, width: Int, _ convert: (UnsafeMutablePointer<UInt8>) -> Void) {
        let alphaRow = alpha.map { (band: $0.band, row: row - $0.bandStart) }
        sink.write(rows: row..<row + 1) { dst in
            convert(dst)
            Self.putAlpha(alphaRow, width: width, dst)
        }
    }

    /// Puts row `row` of the alpha plane's band (nil: opaque, as converted) into the RGBA8 row.
    @inline(__always)
    private static func putAlpha(_ alpha: (band: [UInt8], row: Int)?, width: Int, _ dst: UnsafeMutablePointer<UInt8>) {
        guard let (band, row) = alpha else { return }
        band.withUnsafeBufferPointer { a in
            guard let src = a.baseAddress.map({ $0 + row * width }) else { return }
            for x in 0..<width { dst[4 &* x &+ 3] = src[x] }
        }
    }
}
