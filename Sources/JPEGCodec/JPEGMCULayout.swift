/// The MCUs of one scan (T.81 A.2): how many there are, per line, and where each block of an
/// MCU lies in its component.
struct JPEGMCULayout {
    let mcusPerLine: Int
    let mcuCount: Int
    /// The blocks of one MCU in coding order: frame component, scan component, and the block's
    /// offset inside the MCU.
    let blocks: [(component: Int, scanComponent: Int, dx: Int, dy: Int)]
    /// Per scan component, the blocks an MCU spans across and down.
    let widths: [Int]
    let heights: [Int]

    init(frame: JPEGFrameHeader, header h: JPEGScanHeader) {
        if h.components.count == 1 {
            // A.2.2: a non-interleaved scan covers the component's own blocks, one an MCU.
            let c = frame.components[h.components[0].index]
            mcusPerLine = (c.width + 7) / 8
            mcuCount = mcusPerLine * ((c.height + 7) / 8)
            blocks = [(h.components[0].index, 0, 0, 0)]
            widths = [1]
            heights = [1]
        } else {
            // A.2.3: an interleaved scan's MCU holds Hi × Vi blocks of each of its components.
            mcusPerLine = frame.mcusPerLine
            mcuCount = frame.mcusPerLine * frame.mcuRows
            var blocks: [(Int, Int, Int, Int)] = []
            for (s, sc) in h.components.enumerated() {
                let c = frame.components[sc.index]
                for dy in 0..<c.v { for dx in 0..<c.h { blocks.append((sc.index, s, dx, dy)) } }
            }
            self.blocks = blocks
            widths = h.components.map { frame.components[$0.index].h }
            heights = h.components.map { frame.components[$0.index].v }
        }
    }
}
