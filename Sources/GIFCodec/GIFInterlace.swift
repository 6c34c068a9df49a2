import CodecCore

/// The four-pass row order of interlaced images (GIF89a §20 "Interlace Flag" and Appendix E
/// "Interlaced Images"): every 8th row from row 0, every 8th from row 4, every 4th from row 2,
/// then every 2nd from row 1.
enum GIFInterlace {
    static let startRow = [0, 4, 2, 1]
    static let rowStep = [8, 8, 4, 2]
    /// Rows each pass's row stands for in a preview (down to the next row of an earlier or equal pass).
    static let coveredRows = [8, 4, 2, 1]

    /// Rows of `height` that pass `pass` (0…3) holds.
    static func rowCount(pass: Int, height: Int) -> Int {
        height > startRow[pass] ? (height - startRow[pass] + rowStep[pass] - 1) / rowStep[pass] : 0
    }

    /// The image row that comes `index`-th in the stream of an interlaced image `height` rows high.
    static func row(atStreamIndex index: Int, height: Int) -> Int {
        var index = index
        for pass in 0..<4 {
            let rows = rowCount(pass: pass, height: height)
            if index < rows { return startRow[pass] + index * rowStep[pass] }
            index -= rows
        }
        return height
    }

    /// The pass that row `y` belongs to.
    static func pass(ofRow y: Int) -> Int {
        if y & 7 == 0 { return 0 }
        if y & 7 == 4 { return 1 }
        return y & 3 == 2 ? 2 : 3
    }

    /// Fills the rows of a partially decoded interlaced image that have not arrived from the
    /// row above them that has, within the block that row stands for, so the image reads as a
    /// coarse preview (the "Haeberli" row replication browsers use). The image is the rectangle
    /// `rect` of `pixels` (RGBA8 rows of `bytesPerRow`); `written(y)` says whether its row `y`
    /// holds decoded pixels; rows with no such row above them are left as they are.
    static func expandPreview(_ pixels: inout [UInt8], bytesPerRow: Int, rect: FrameRect, written: (Int) -> Bool) {
        let rowBytes = rect.width * 4
        guard rowBytes > 0 else { return }
        pixels.withUnsafeMutableBufferPointer { out in
            let origin = out.baseAddress! + rect.y * bytesPerRow + rect.x * 4
            // Rows are filled top down from rows above them that are written, never filled.
            for y in 0..<rect.height where !written(y) {
                guard let from = coveringRow(y, written: written) else { continue }
                (origin + y * bytesPerRow).update(from: origin + from * bytesPerRow, count: rowBytes)
            }
        }
    }

    /// The written row of the finest pass whose block contains row `y`.
    private static func coveringRow(_ y: Int, written: (Int) -> Bool) -> Int? {
        for pass in stride(from: 2, through: 0, by: -1) where y >= startRow[pass] {
            let row = y - (y - startRow[pass]) % rowStep[pass]
            if y - row < coveredRows[pass] && written(row) { return row }
        }
        return nil
    }

    /// The rows of a `width`-wide image in transmission order (the encoder's side).
    static func interlaced(_ rows: [UInt8], width: Int) -> [UInt8] {
        guard width > 0 else { return rows }
        let height = rows.count / width
        var out: [UInt8] = []
        out.reserveCapacity(rows.count)
        for pass in 0..<4 {
            for y in stride(from: startRow[pass], to: height, by: rowStep[pass]) {
                out += rows[(y * width)..<((y + 1) * width)]
            }
        }
        return out
    }
}
