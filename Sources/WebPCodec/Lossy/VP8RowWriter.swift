import CodecCore

/// The sizes of a VP8 frame's band of planes (``VP8RowJob/planes``): Y `16 mbWidth` wide,
/// ``VP8Decoder/bandExtraLines`` lines of the previous macroblock row then the 16 of the
/// current one, then U, then V (`8 mbWidth` wide, half as many lines each).
struct VP8BandLayout: Sendable {
    let width: Int
    let height: Int
    let mbWidth: Int
    let mbHeight: Int
    /// 0 none, 1 simple, 2 normal.
    let filterType: Int

    var yStride: Int { mbWidth * 16 }
    var uvStride: Int { mbWidth * 8 }
    var uOffset: Int { yStride * VP8Decoder.bandLines }
    var vOffset: Int { uOffset + uvStride * VP8Decoder.bandLines / 2 }
    var bandBytes: Int { mbWidth * 24 * VP8Decoder.bandLines }
    /// The previous row's lines kept between rows: ``VP8Decoder/bandExtraLines`` of Y, half as
    /// many of U and of V.
    var carryBytes: Int { mbWidth * 24 * VP8Decoder.bandExtraLines }
}

/// One parsed macroblock row on its way to reconstruction, the loop filter and the output:
/// each macroblock's header, coefficients and blocks, the row's loop filter parameters, and the
/// band the writer reconstructs it into (whose first ``VP8Decoder/bandExtraLines`` lines it
/// fills from its carry).
struct VP8RowJob: Sendable {
    /// Dequantised coefficients per macroblock: 16 Y, 4 U, 4 V blocks of 16, then the Y2 block.
    static let coefficientsPerMacroblock = 384 + 16
    /// Sub-block modes per macroblock (raster order), then its 24 blocks' transform kinds.
    static let blocksPerMacroblock = 16 + 24

    var headers: [VP8MacroblockHeader]
    var coefficients: [Int16]
    var blocks: [UInt8]
    var filters: [VP8FilterInfo]
    var planes: [UInt8]
    var mbRow = 0

    init(_ layout: VP8BandLayout) {
        headers = [VP8MacroblockHeader](repeating: VP8MacroblockHeader(), count: layout.mbWidth)
        coefficients = [Int16](repeating: 0, count: layout.mbWidth * Self.coefficientsPerMacroblock)
        blocks = [UInt8](repeating: 0, count: layout.mbWidth * Self.blocksPerMacroblock)
        filters = [VP8FilterInfo](repeating: VP8FilterInfo(), count: layout.mbWidth)
        planes = [UInt8](repeating: 0, count: layout.bandBytes)
    }
}

/// The second half of a VP8 decode (libwebp's `ReconstructRow` and `FinishRow`): reconstructs
/// each parsed macroblock row (RFC 6386 12, 14), loop-filters it (15), converts the output rows it made final (upsampling, YUV→RGB,
/// the alpha plane's rows) into the sink, and keeps the row's last lines (``carry``) for the
/// next row's filter and upsampling. Rows come in order, on the decoding thread or on a
/// pipeline's (``VP8RowPipeline``); the pixels are the same either way.
struct VP8RowWriter: Sendable {
    let layout: VP8BandLayout
    /// Where the rows go: the RGBA8 image (allocated uninitialised: rows from
    /// ``finalRowCount`` on are cleared when a partial image is shown) or the thumbnail.
    var sink: RowSink
    /// The alpha plane (from ALPH), decoded a band at a time as rows come out; nil is opaque.
    var alpha: WebPAlphaRows?
    /// Output rows that are final: no later macroblock row's filter or upsampling changes them.
    var finalRowCount = 0
    /// The last ``VP8Decoder/bandExtraLines`` luma lines (and half as many chroma lines) of
    /// the last row written, unfiltered by the next row's filter yet.
    private var carry: [UInt8]
    /// The first error of the alpha plane; no row is written after it.
    var failure: DecodingError?
    /// libwebp's `yuv_b`: the macroblock being reconstructed with its top and left edges.
    var work: [UInt8]
    /// The unfiltered bottom row of each macroblock of the row above: 16 Y, 8 U, 8 V.
    var topSamples: [UInt8]

    /// Offsets in ``work``: libwebp's layout with BPS = 32 (a row above each plane, four
    /// columns left of it).
    static let yWork = 32 + 8
    static let uWork = yWork + 16 * 32 + 32
    static let vWork = uWork + 16
    static let workSize = 32 * 17 + 32 * 9

    init(layout: VP8BandLayout, sink: RowSink) {
        self.layout = layout
        self.sink = sink
        carry = [UInt8](repeating: 0, count: layout.carryBytes)
        work = [UInt8](repeating: 0, count: Self.workSize)
        topSamples = [UInt8](repeating: 0, count: layout.mbWidth * 32)
    }

    /// An empty writer in this one's place while its buffers are out (no buffer is shared).
    func placeholder() -> VP8RowWriter {
        var empty = VP8RowWriter(layout: VP8BandLayout(width: 0, height: 0, mbWidth: 0, mbHeight: 0, filterType: 0),
                                 sink: RowSink(width: 0, height: 0))
        empty.finalRowCount = finalRowCount
        return empty
    }

    /// Output rows final once `rows` macroblock rows are written: the next row's filter changes
    /// the last 3 luma and chroma lines (when the filter is on), and an output row needs the
    /// chroma line below it (fancy upsampling).
    func finalRows(afterMacroblockRows rows: Int) -> Int {
        if rows >= layout.mbHeight { return layout.height }
        let filtered = layout.filterType > 0 ? 3 : 0
        let luma = 16 * rows - filtered
        // Row r reads chroma lines up to (r + 1) / 2, which must be below 8 rows - filtered.
        let chroma = 2 * (8 * rows - filtered) - 1
        return max(0, min(luma, chroma, layout.height))
    }

    /// Writes the next macroblock row, `job`: the row is reconstructed, the carried lines go
    /// above it, the row is loop-filtered, the final output rows go out, and its last lines are
    /// carried. After an alpha plane error (kept in ``failure``) nothing more is written.
    mutating func write(_ job: inout VP8RowJob) {
        guard failure == nil else { return }
        reconstructRow(&job)
        let extra = VP8Decoder.bandExtraLines
        let l = layout, ys = l.yStride, uvs = l.uvStride
        let lumaCarry = extra * ys, chromaCarry = extra / 2 * uvs
        job.planes.withUnsafeMutableBufferPointer { p in
            carry.withUnsafeBufferPointer { c in
                guard let base = p.baseAddress, let kept = c.baseAddress else { return }
                base.update(from: kept, count: lumaCarry)
                (base + l.uOffset).update(from: kept + lumaCarry, count: chromaCarry)
                (base + l.vOffset).update(from: kept + lumaCarry + chromaCarry, count: chromaCarry)
                if l.filterType > 0 { Self.filterRow(job.filters, mbY: job.mbRow, layout: l, base) }
            }
        }
        do throws(DecodingError) {
            try emitFinalRows(job.planes, mbY: job.mbRow)
        } catch {
            failure = error
            return
        }
        job.planes.withUnsafeBufferPointer { p in
            carry.withUnsafeMutableBufferPointer { c in
                guard let base = p.baseAddress, let kept = c.baseAddress else { return }
                kept.update(from: base + 16 * ys, count: lumaCarry)
                (kept + lumaCarry).update(from: base + l.uOffset + 8 * uvs, count: chromaCarry)
                (kept + lumaCarry + chromaCarry).update(from: base + l.vOffset + 8 * uvs, count: chromaCarry)
            }
        }
    }

    /// Loop-filters macroblock row `mbY` in the band at `base` (RFC 6386 15), left to right.
    private static func filterRow(_ filters: [VP8FilterInfo], mbY: Int, layout l: VP8BandLayout,
                                  _ base: UnsafeMutablePointer<UInt8>) {
        let ys = l.yStride, uvs = l.uvStride
        let yRow = VP8Decoder.bandExtraLines * ys, uvRow = VP8Decoder.bandExtraLines / 2 * uvs
        let simple = l.filterType == 1
        for mbX in 0..<filters.count {
            let y = base + yRow + mbX * 16
            let u = base + l.uOffset + uvRow + mbX * 8, v = base + l.vOffset + uvRow + mbX * 8
            if VectorKernels.arePreferred {
                #if arch(x86_64)
                VP8LoopFilterSSE2.filterMacroblock(filters[mbX], isSimple: simple, mbX: mbX, mbY: mbY,
                                                   y: y, yStride: ys, u: u, v: v, uvStride: uvs)
                #else
                VP8LoopFilterSIMD.filterMacroblock(filters[mbX], isSimple: simple, mbX: mbX, mbY: mbY,
                                                   y: y, yStride: ys, u: u, v: v, uvStride: uvs)
                #endif
            } else {
                VP8LoopFilter.filterMacroblock(filters[mbX], isSimple: simple, mbX: mbX, mbY: mbY,
                                               y: y, yStride: ys, u: u, v: v, uvStride: uvs)
            }
        }
    }
}
