/// The forward DCT and quantization of a row of MCUs (libjpeg's `jcdctmgr.c` `forward_DCT`
/// over the blocks `jccoefct.c` asks for): each real block of each component is transformed and
/// quantized into its plane, then the plane's dummy blocks are filled.
struct JPEGBlockTransform {
    let layout: JPEGFrameLayout
    let quantizers: [JPEGQuantizer]
    private var workspace = [Int32](repeating: 0, count: 64)

    init(layout: JPEGFrameLayout, tables: [[UInt16]]) {
        self.layout = layout
        quantizers = tables.map { JPEGQuantizer(table: $0) }
    }

    /// Transforms iMCU row `mcuRow` from `preprocessor` into `planes` (which hold its block rows).
    mutating func transform(_ preprocessor: JPEGPreprocessor, mcuRow: Int, into planes: inout [JPEGCoefficientPlane]) {
        for (c, comp) in layout.components.enumerated() {
            let quantizer = quantizers[comp.table]
            let firstRow = mcuRow * comp.v
            let realRows = min(comp.v, comp.heightInBlocks - firstRow)
            preprocessor.withSamples(component: c) { samples, rowLength in
                workspace.withUnsafeMutableBufferPointer { work in
                  quantizer.vectors.withUnsafeBufferPointer { vectors in
                    let w = work.baseAddress!, v = vectors.baseAddress!
                    let (first, perRow) = (planes[c].firstBlockRow, planes[c].blocksPerRow)
                    planes[c].coefficients.withUnsafeMutableBufferPointer { out in
                        for y in 0..<realRows {
                            let rowStart = JPEGCoefficientPlane.offset(row: firstRow + y, column: 0, first: first, perRow: perRow)
                            for x in 0..<comp.widthInBlocks {
                                JPEGForwardDCT.transformBlock(samples + y * 8 * rowLength + x * 8, stride: rowLength, w)
                                quantizer.quantizeSIMD(w, out.baseAddress! + rowStart + x * 64, v)
                            }
                        }
                    }
                  }
                }
            }
            planes[c].fillDummyBlocks(blockRows: firstRow..<(firstRow + comp.v), realWidth: comp.widthInBlocks,
                                      realHeight: comp.heightInBlocks, h: comp.h)
        }
    }
}
