/// The forward DCT and quantization of a row of MCUs (libjpeg's `jcdctmgr.c` `forward_DCT`
/// over the blocks `jccoefct.c` asks for): each real block of each component is transformed and
/// quantized into its plane, then the plane's dummy blocks are filled. Without quantizers the
/// transform itself is kept (it fits 16 bits), to be quantized later by ``quantize(_:layout:tables:)``
/// for as many qualities as a file-size search tries.
struct JPEGBlockTransform {
    let layout: JPEGFrameLayout
    let quantizers: [JPEGQuantizer]?

    init(layout: JPEGFrameLayout, tables: [[UInt16]]?) {
        self.layout = layout
        quantizers = tables.map { $0.map { JPEGQuantizer(table: $0) } }
    }

    /// Quantizes kept transforms (`unquantized`, whole planes) with `tables` into `planes`
    /// (planes of the same geometry, every block written: real blocks quantized, dummy blocks
    /// filled), so that a file-size search re-uses one copy.
    static func quantize(_ unquantized: [JPEGCoefficientPlane], into planes: inout [JPEGCoefficientPlane],
                         layout: JPEGFrameLayout, tables: [[UInt16]]) {
        let quantizers = tables.map { JPEGQuantizer(table: $0) }
        for (c, comp) in layout.components.enumerated() {
            let quantizer = quantizers[comp.table]
            let source = unquantized[c]
            source.coefficients.withUnsafeBufferPointer { input in
                planes[c].coefficients.withUnsafeMutableBufferPointer { out in
                    quantizer.vectors.withUnsafeBufferPointer { vectors in
                        guard let i = input.baseAddress, let o = out.baseAddress, let v = vectors.baseAddress else { return }
                        for row in 0..<comp.heightInBlocks {
                            for column in 0..<comp.widthInBlocks {
                                let at = source.offset(row: row, column: column)
                                quantizer.quantizeSIMD(JPEGForwardDCT.load(i + at), o + at, v)
                            }
                        }
                    }
                }
            }
            planes[c].fillDummyBlocks(blockRows: 0..<comp.paddedHeightInBlocks, realWidth: comp.widthInBlocks,
                                      realHeight: comp.heightInBlocks, h: comp.h)
        }
    }

    /// Transforms iMCU row `mcuRow` from `preprocessor` into `planes` (which hold its block rows).
    func transform(_ preprocessor: JPEGPreprocessor, mcuRow: Int, into planes: inout [JPEGCoefficientPlane]) {
        for c in layout.components.indices {
            preprocessor.withSamples(component: c) { samples, rowLength in
                transform(component: c, blockRows: 0..<layout.components[c].v, samples: samples, rowLength: rowLength,
                          mcuRow: mcuRow, into: &planes[c])
            }
        }
    }

    /// Transforms block rows `blockRows` (of 0..<v) of component `c` of iMCU row `mcuRow` into
    /// `plane` (which holds the row's block rows): their samples are 8 rows of `rowLength` each
    /// from `samples` on (the first of them block row `blockRows.lowerBound`'s). Dummy block
    /// rows take their DC from the row above, which must be done first.
    func transform(component c: Int, blockRows: Range<Int>, samples: UnsafePointer<UInt8>, rowLength: Int, mcuRow: Int,
                   into plane: inout JPEGCoefficientPlane) {
        let comp = layout.components[c]
        let quantizer = quantizers?[comp.table]
        let firstRow = mcuRow * comp.v
        let realRows = blockRows.lowerBound..<max(blockRows.lowerBound, min(blockRows.upperBound, comp.heightInBlocks - firstRow))
        (quantizer?.vectors ?? []).withUnsafeBufferPointer { vectors in
            let (first, perRow) = (plane.firstBlockRow, plane.blocksPerRow)
            plane.coefficients.withUnsafeMutableBufferPointer { out in
                guard let o = out.baseAddress else { return }
                for y in realRows {
                    let rowStart = JPEGCoefficientPlane.offset(row: firstRow + y, column: 0, first: first, perRow: perRow)
                    for x in 0..<comp.widthInBlocks {
                        let at: Int = ((y &- blockRows.lowerBound) &* 8) &* rowLength &+ x &* 8
                        let coefficients = JPEGForwardDCT.transformBlock(samples + at, stride: rowLength)
                        let block = o + (rowStart &+ x &* 64)
                        if let quantizer, let v = vectors.baseAddress {
                            quantizer.quantizeSIMD(coefficients, block, v)
                        } else {
                            JPEGForwardDCT.store(coefficients, block)
                        }
                    }
                }
            }
        }
        if quantizers != nil {
            plane.fillDummyBlocks(blockRows: (firstRow + blockRows.lowerBound)..<(firstRow + blockRows.upperBound), realWidth: comp.widthInBlocks,
                                  realHeight: comp.heightInBlocks, h: comp.h)
        }
    }
}
