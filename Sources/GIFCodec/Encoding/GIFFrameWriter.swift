import CodecCore

/// Writes one planned frame (``GIFPlannedFrame``, cropped to its rectangle): its Graphic
/// Control Extension (§23), Image Descriptor (§20), Local Color Table (§21) and image data
/// (§22, ``LZWEncoder``).
///
/// Pixels inside the rectangle that need no drawing (the canvas already shows them) may be the
/// transparent index or, when the table has it, their own colour: the LZW encoder picks
/// whichever continues its string. The colour table is the global one when it holds every
/// colour the frame needs; otherwise a local table of the colours the frame draws, plus the
/// transparent entry when the frame needs one (``GIFPlannedFrame/needsTransparent``); in a full
/// global table, an entry whose colour the frame does not draw serves as its transparent index,
/// as gifsicle does. A frame
/// drawing 256 colours has no room for that entry; its table is then every colour the canvas
/// shows across the rectangle (at most 256: such a frame is never quantized).
enum GIFFrameWriter {
    /// A frame's colour table: whether it is the global one, and the transparent index if the
    /// frame has one (the colour 0's entry, or in a full global table an entry the frame does
    /// not draw).
    struct Table {
        var colors: GIFColorSet
        var isGlobal: Bool
        var transparent: Int?
    }

    /// The colour table for `frame`.
    static func table(for frame: GIFPlannedFrame, global: GIFColorSet?) -> Table {
        var set = GIFColorSet()
        let fits = frame.drawnColors(into: &set)
        let needsTransparent = frame.needsTransparent
        if var global, fits, set.colors.allSatisfy({ global.index(of: $0) != nil }) {
            if let transparent = global.index(of: 0) { return Table(colors: global, isGlobal: true, transparent: transparent) }
            if needsTransparent, let unused = global.colors.indices.first(where: { set.index(of: global.colors[$0]) == nil }) {
                return Table(colors: global, isGlobal: true, transparent: unused)
            }
            let covered = frame.drawn.indices.allSatisfy { frame.drawn[$0] != 0 || global.index(of: frame.target[$0]) != nil }
            if !needsTransparent || covered { return Table(colors: global, isGlobal: true, transparent: nil) }
        }
        return localTable(for: frame)
    }

    /// A Local Color Table for `frame`: the colours it draws, plus transparent if it needs it.
    static func localTable(for frame: GIFPlannedFrame) -> Table {
        var set = GIFColorSet()
        if frame.drawnColors(into: &set) && (!frame.needsTransparent || set.insert(0)) {
            return Table(colors: set, isGlobal: false, transparent: set.index(of: 0))
        }
        set = GIFColorSet()
        for c in frame.target { _ = set.insert(c) }
        return Table(colors: set, isGlobal: false, transparent: set.index(of: 0))
    }

    /// Appends the frame's blocks; `localTable` says whether `table` is written as its Local
    /// Color Table; `interlaced`: rows in the four-pass order of Appendix E. The GCE is written when it says something: a transparent index, or in an
    /// animation a delay or a disposal (none of these is the same as no GCE).
    static func write(_ frame: GIFPlannedFrame, table: Table, localTable: Bool, animated: Bool,
                      interlaced: Bool, into out: inout [UInt8]) {
        let transparent = table.transparent
        var colors = table.colors
        let count = frame.target.count
        var indices = [UInt8](repeating: 0, count: count)
        var alternates = indices
        var largest = 0
        // Pillow clears a "restore to background" rectangle with the frame's transparent
        // index when it has one (else with the background colour): name it even if unused.
        var usesTransparent = (frame.disposal == .background || frame.namesTransparent) && transparent != nil
        for i in 0..<count {
            let own = frame.target[i] == 0 ? transparent : colors.index(of: frame.target[i])
            var index = own ?? 0
            var alternate = index
            if frame.drawn[i] == 0, let transparent {
                usesTransparent = true
                index = transparent
                alternate = frame.target[i] != 0 ? own ?? transparent : transparent
            }
            indices[i] = UInt8(truncatingIfNeeded: index)
            alternates[i] = UInt8(truncatingIfNeeded: alternate)
            largest = max(largest, index, alternate)
        }
        if usesTransparent || animated && (frame.delay != 0 || frame.disposal != .none) {
            GIFBlockWriter.graphicControl(disposal: frame.disposal, delay: frame.delay,
                                          transparentIndex: usesTransparent ? transparent : nil, into: &out)
        }
        GIFBlockWriter.imageDescriptor(frame.rect, localTable: localTable ? table.colors.colors : nil, interlaced: interlaced,
                                       into: &out)
        if interlaced {
            indices = GIFInterlace.interlaced(indices, width: frame.rect.width)
            alternates = GIFInterlace.interlaced(alternates, width: frame.rect.width)
        }
        let codeSize = LZWEncoder.minimumCodeSize(colorCount: largest + 1)
        indices.withUnsafeBufferPointer { i in
            alternates.withUnsafeBufferPointer { a in
                LZWEncoder.encode(i, alternates: a, minimumCodeSize: codeSize, into: &out)
            }
        }
    }
}
