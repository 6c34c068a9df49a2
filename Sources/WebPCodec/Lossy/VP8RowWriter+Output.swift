import CodecCore

extension VP8RowWriter {
    /// Converts the output rows that macroblock row `mbY`, filtered in `band`, made final (with
    /// the alpha plane's same rows, decoded now) into the sink. Throws `invalidData` when the
    /// alpha plane's rows cannot be decoded.
    mutating func emitFinalRows(_ band: [UInt8], mbY: Int) throws(DecodingError) {
        let first = finalRowCount
        let last = finalRows(afterMacroblockRows: mbY + 1)
        try alpha?.decode(through: last)
        // The band's first line is luma line 16 mbY - 8, chroma line 8 mbY - 4.
        let yTop = 16 * mbY - VP8Decoder.bandExtraLines, uvTop = (16 * mbY - VP8Decoder.bandExtraLines) / 2
        let l = layout, w = l.width, h = l.height, ys = l.yStride, uvs = l.uvStride, uo = l.uOffset, vo = l.vOffset
        band.withUnsafeBufferPointer { p in
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
