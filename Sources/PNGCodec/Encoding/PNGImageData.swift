import CodecCore
import CZlib

/// How one image's data is made: the layout, Adam7 or not, the filter choice, and zlib.
struct PNGDataSettings: Equatable {
    var layout: PNGPixelLayout
    var interlaced: Bool
    var filter: PNGRowFilter.Strategy
    var level: Int32
    var zlibStrategy: Int32
}

/// Writes the pixels of a frame as a zlib stream in IDAT chunks, or in fdAT chunks numbered from
/// a sequence number (PNG 3rd edition §7–§10, APNG 1.0 fdAT): each row is packed, filtered and
/// handed to deflate as it comes, and each block of compressed output goes out as a chunk, so
/// no copy of the image or of its compressed data is held.
struct PNGImageData {
    let settings: PNGDataSettings
    private let palette: PNGColorTable

    init(_ settings: PNGDataSettings) {
        self.settings = settings
        palette = PNGColorTable(colors: settings.layout.palette)
    }

    /// Writes `frame`'s data; `sequence` is nil for IDAT, the next fdAT sequence number otherwise
    /// (advanced past the chunks written).
    func write(_ frame: EncodingFrame, deflater: PNGDeflater, sequence: inout UInt32?,
               to sink: inout some ByteSink) throws(EncodingError) {
        deflater.reset()
        try compress(frame, deflater: deflater) { (block) throws(EncodingError) in
            if let number = sequence {
                try PNGChunkWriter.write(.fdAT, prefix: number, block, to: &sink)
                sequence = number &+ 1
            } else {
                try PNGChunkWriter.write(.IDAT, block, to: &sink)
            }
        }
    }

    /// The zlib stream of `frame`'s scanlines, a block at a time.
    func compress(_ frame: EncodingFrame, deflater: PNGDeflater,
                  emit: (UnsafeRawBufferPointer) throws(EncodingError) -> Void) throws(EncodingError) {
        let layout = settings.layout
        let width = frame.width
        let filter = PNGRowFilter(strategy: settings.filter, stride: layout.filterStride,
                                  capacity: layout.rowBytes(pixels: width))
        var source = [UInt8](repeating: 0, count: frame.storedPixels == nil ? frame.bytesPerRow : 0)
        var wide = [UInt16](repeating: 0, count: layout.bitDepth == 16 ? 4 * width : 0)
        var narrow = [UInt32](repeating: 0, count: layout.bitDepth == 16 ? 0 : width)
        let passes = settings.interlaced ? Array(0..<7) : [-1]
        for pass in passes {
            let size = pass < 0 ? (width: width, height: frame.height)
                : Adam7.passSize(pass, width: width, height: frame.height)
            guard size.width > 0, size.height > 0 else { continue }
            let x0 = pass < 0 ? 0 : Adam7.xStart[pass], dx = pass < 0 ? 1 : Adam7.xStep[pass]
            let y0 = pass < 0 ? 0 : Adam7.yStart[pass], dy = pass < 0 ? 1 : Adam7.yStep[pass]
            filter.startPass(rowBytes: layout.rowBytes(pixels: size.width))
            for r in 0..<size.height {
                let y = y0 + r * dy
                withSourceRow(frame, y, scratch: &source) { row in
                    if layout.bitDepth == 16 {
                        wide.withUnsafeMutableBufferPointer { w in
                            gather16(row, frame: frame, x0: x0, dx: dx, count: size.width, into: w.baseAddress!)
                            PNGRowPacker.pack16(w.baseAddress!, count: size.width, layout: layout, into: filter.row)
                        }
                    } else {
                        narrow.withUnsafeMutableBufferPointer { n in
                            let px = gather8(row, frame: frame, x0: x0, dx: dx, count: size.width, into: n.baseAddress!)
                            PNGRowPacker.pack8(px, count: size.width, layout: layout, palette: palette, into: filter.row)
                        }
                    }
                }
                try deflater.compress(filter.filterRow(), finish: false, emit: emit)
            }
        }
        try deflater.compress(UnsafeRawBufferPointer(start: nil, count: 0), finish: true, emit: emit)
    }

    /// Runs `body` on row `y` of `frame`: the stored pixels in place, or a copy in `scratch`.
    private func withSourceRow(_ frame: EncodingFrame, _ y: Int, scratch: inout [UInt8],
                               _ body: (UnsafeRawPointer) -> Void) {
        if let stored = frame.storedPixels {
            stored.withUnsafeBytes { body($0.baseAddress! + y * frame.bytesPerRow) }
        } else {
            scratch.withUnsafeMutableBytes { s in
                frame.copyRow(y, into: s)
                body(UnsafeRawPointer(s.baseAddress!))
            }
        }
    }

    /// Pixels x0, x0 + dx, … of an RGBA8 or RGBA16 row as RGBA8: the row itself when it is 8-bit
    /// and not subsampled, else copied into `out`.
    private func gather8(_ row: UnsafeRawPointer, frame: EncodingFrame, x0: Int, dx: Int, count: Int,
                         into out: UnsafeMutablePointer<UInt32>) -> UnsafePointer<UInt32> {
        if frame.isSixteenBit {
            let s = row.assumingMemoryBound(to: UInt16.self) + 4 * x0
            if dx == 1 {
                PNGRowPacker.narrow(s, into: out, count: count)
            } else {
                for i in 0..<count { PNGRowPacker.narrow(s + 4 * dx * i, into: out + i, count: 1) }
            }
            return UnsafePointer(out)
        }
        let p = row.assumingMemoryBound(to: UInt32.self) + x0
        if dx == 1 { return p }
        for i in 0..<count { out[i] = p[i * dx] }
        return UnsafePointer(out)
    }

    /// The same as ``gather8`` for 16-bit layouts: RGBA16 pixels in `out`, 8-bit ones widened.
    private func gather16(_ row: UnsafeRawPointer, frame: EncodingFrame, x0: Int, dx: Int, count: Int,
                          into out: UnsafeMutablePointer<UInt16>) {
        if frame.isSixteenBit {
            let s = row.assumingMemoryBound(to: UInt16.self)
            for i in 0..<count {
                let from = 4 * (x0 + i * dx)
                out[4 * i] = s[from]
                out[4 * i + 1] = s[from + 1]
                out[4 * i + 2] = s[from + 2]
                out[4 * i + 3] = s[from + 3]
            }
        } else {
            let p = row.assumingMemoryBound(to: UInt32.self)
            for i in 0..<count { PNGRowPacker.widen(p + x0 + i * dx, into: out + 4 * i, count: 1) }
        }
    }
}
