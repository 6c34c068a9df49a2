/// One component of the frame being written, with the sizes of T.81 A.1.1 as libjpeg computes
/// them (`jcmaster.c` `initial_setup`).
struct JPEGEncoderComponent: Equatable {
    /// Ci of the frame header: 1, 2, 3 (libjpeg's YCbCr and gray identifiers).
    let identifier: Int
    let h: Int
    let v: Int
    /// Tq, Td, Ta: 0 for luma and gray, 1 for chroma.
    let table: Int
    /// ceil(width·h / (Hmax·8)) and ceil(height·v / (Vmax·8)): blocks holding image samples.
    let widthInBlocks: Int
    let heightInBlocks: Int
    /// Blocks per row and block rows of the interleaved MCU grid (dummy blocks included).
    let paddedWidthInBlocks: Int
    let paddedHeightInBlocks: Int
    /// Hmax / h and Vmax / v: input samples averaged into one component sample.
    let hExpand: Int
    let vExpand: Int
}

/// The geometry of the frame: components, MCUs, iMCU rows (libjpeg's "row of MCUs" of the
/// interleaved grid; T.81 A.2).
struct JPEGFrameLayout: Equatable {
    let width: Int
    let height: Int
    let components: [JPEGEncoderComponent]
    let maxH: Int
    let maxV: Int
    /// MCUs per row and MCU rows of an interleaved scan.
    let mcusPerRow: Int
    let mcuRows: Int

    /// Input rows per iMCU row.
    var rowsPerMCURow: Int { maxV * 8 }

    init(width: Int, height: Int, colour: Bool, lumaSampling: (Int, Int)) throws(JPEGEncoderError) {
        guard (1...65500).contains(width), (1...65500).contains(height) else { throw .invalidSize }
        let (lh, lv) = lumaSampling
        guard (1...4).contains(lh), (1...4).contains(lv) else { throw .invalidSampling }
        let factors = colour ? [(1, lh, lv, 0), (2, 1, 1, 1), (3, 1, 1, 1)] : [(1, lh, lv, 0)]
        // T.81 B.2.3: an interleaved MCU holds at most 10 blocks.
        guard !colour || lh * lv + 2 <= 10 else { throw .invalidSampling }
        maxH = lh
        maxV = lv
        mcusPerRow = (width + lh * 8 - 1) / (lh * 8)
        mcuRows = (height + lv * 8 - 1) / (lv * 8)
        self.width = width
        self.height = height
        var components: [JPEGEncoderComponent] = []
        for (id, h, v, table) in factors {
            components.append(JPEGEncoderComponent(
                identifier: id, h: h, v: v, table: table,
                widthInBlocks: (width * h + lh * 8 - 1) / (lh * 8),
                heightInBlocks: (height * v + lv * 8 - 1) / (lv * 8),
                paddedWidthInBlocks: (width + lh * 8 - 1) / (lh * 8) * h,
                paddedHeightInBlocks: (height + lv * 8 - 1) / (lv * 8) * v,
                hExpand: lh / h, vExpand: lv / v))
        }
        self.components = components
    }
}
