import CodecCore

/// Writes one planned frame (``GIFPlannedFrame``): its Graphic Control Extension (§23), Image
/// Descriptor (§20), Local Color Table (§21) and image data (§22, ``LZWEncoder``).
///
/// The colour table is the global one when all frames share it; otherwise a local table of
/// just the colours the frame draws, plus a transparent entry for the pixels inside its
/// rectangle that need no drawing. Only a frame drawing 256 colours has no room for that entry;
/// its table is then the colours the canvas shows across the whole rectangle (at most 256, as
/// such a frame is never quantized), and those pixels are written with their own colour.
enum GIFFrameWriter {
    /// The colour table for `frame`: `global` if given, else the frame's own. Transparent (the
    /// colour 0) is in it when the transparent index is used.
    static func table(for frame: GIFPlannedFrame, width: Int, global: GIFColorSet?) -> GIFColorSet {
        if let global { return global }
        var set = GIFColorSet()
        var fits = true
        forEachPixel(of: frame.rect, width: width) { i in
            if fits, frame.drawn[i] != 0 { fits = set.insert(frame.target[i]) }
        }
        if fits && set.count < GIFColorSet.capacity && set.insert(0) { return set }
        set = GIFColorSet()
        forEachPixel(of: frame.rect, width: width) { i in _ = set.insert(frame.target[i]) }
        return set
    }

    /// Appends the frame's blocks; `localTable` says whether `table` is written as its Local
    /// Color Table. The GCE is written when `animated` or when the transparent index is used.
    static func write(_ frame: GIFPlannedFrame, width: Int, table: GIFColorSet, localTable: Bool, animated: Bool,
                      into out: inout [UInt8]) {
        var table = table
        let transparent = table.index(of: 0)
        let rect = frame.rect
        var indices = [UInt8](repeating: 0, count: rect.width * rect.height)
        var n = 0
        forEachPixel(of: rect, width: width) { i in
            let color = frame.drawn[i] != 0 || transparent == nil ? frame.target[i] : 0
            indices[n] = UInt8(truncatingIfNeeded: table.index(of: color) ?? 0)
            n += 1
        }
        if animated || transparent != nil {
            GIFBlockWriter.graphicControl(disposal: frame.disposal, delay: frame.delay, transparentIndex: transparent,
                                          into: &out)
        }
        GIFBlockWriter.imageDescriptor(rect, localTable: localTable ? table.colors : nil, into: &out)
        let codeSize = LZWEncoder.minimumCodeSize(colorCount: table.count)
        indices.withUnsafeBufferPointer { LZWEncoder.encode($0, minimumCodeSize: codeSize, into: &out) }
    }

    /// Calls `body` with the canvas index of each pixel of `rect`, row by row.
    private static func forEachPixel(of rect: FrameRect, width: Int, _ body: (Int) -> Void) {
        for y in rect.y..<(rect.y + rect.height) {
            let row = y * width
            for x in rect.x..<(rect.x + rect.width) { body(row + x) }
        }
    }
}
