import CodecCore

/// Writes one planned frame (``GIFPlannedFrame``): its Graphic Control Extension (§23), Image
/// Descriptor (§20), Local Color Table (§21) and image data (§22, ``LZWEncoder``).
///
/// Pixels inside the rectangle that need no drawing (the canvas already shows them) may be the
/// transparent index or, when the table has it, their own colour: the LZW encoder picks
/// whichever continues its string. The colour table is the global one when it holds every
/// colour the frame needs; otherwise a local table of the colours the frame draws, plus the
/// transparent entry when some pixel needs no drawing, the frame is disposed to background or
/// it is the first and leaves part of the screen uncovered (``GIFPlannedFrame/namesTransparent``).
/// A frame drawing 256 colours has no room
/// for that entry; its table is then every colour the canvas shows across the rectangle (at
/// most 256: such a frame is never quantized).
enum GIFFrameWriter {
    /// The colour table for `frame` and whether it is `global`. Transparent (the colour 0) is in
    /// a local table only when some pixel of the rectangle needs no drawing.
    static func table(for frame: GIFPlannedFrame, width: Int, global: GIFColorSet?) -> (GIFColorSet, isGlobal: Bool) {
        var needsTransparent = frame.disposal == .background || frame.namesTransparent
        var set = GIFColorSet()
        var fits = true
        forEachPixel(of: frame.rect, width: width) { i in
            if frame.drawn[i] == 0 {
                needsTransparent = true
            } else if fits {
                fits = set.insert(frame.target[i])
            }
        }
        if var global, fits, set.colors.allSatisfy({ global.index(of: $0) != nil }) {
            var covered = !needsTransparent || global.index(of: 0) != nil
            if !covered {
                covered = true
                forEachPixel(of: frame.rect, width: width) { i in
                    if covered, frame.drawn[i] == 0 { covered = global.index(of: frame.target[i]) != nil }
                }
            }
            if covered { return (global, true) }
        }
        if fits && (!needsTransparent || set.insert(0)) { return (set, false) }
        set = GIFColorSet()
        forEachPixel(of: frame.rect, width: width) { i in _ = set.insert(frame.target[i]) }
        return (set, false)
    }

    /// Appends the frame's blocks; `localTable` says whether `table` is written as its Local
    /// Color Table. The GCE is written when `animated` or when the transparent index is used.
    static func write(_ frame: GIFPlannedFrame, width: Int, table: GIFColorSet, localTable: Bool, animated: Bool,
                      into out: inout [UInt8]) {
        var table = table
        let transparent = table.index(of: 0)
        let rect = frame.rect
        let count = rect.width * rect.height
        var indices = [UInt8](repeating: 0, count: count)
        var alternates = indices
        // Pillow clears a "restore to background" rectangle with the frame's transparent
        // index when it has one (else with the background colour): name it even if unused.
        var n = 0, largest = 0
        var usesTransparent = (frame.disposal == .background || frame.namesTransparent) && transparent != nil
        forEachPixel(of: rect, width: width) { i in
            let own = table.index(of: frame.target[i])
            var index = own ?? 0
            var alternate = index
            if frame.drawn[i] == 0, let transparent {
                usesTransparent = true
                index = transparent
                alternate = frame.target[i] != 0 ? own ?? transparent : transparent
            }
            indices[n] = UInt8(truncatingIfNeeded: index)
            alternates[n] = UInt8(truncatingIfNeeded: alternate)
            largest = max(largest, index, alternate)
            n += 1
        }
        if animated || usesTransparent {
            GIFBlockWriter.graphicControl(disposal: frame.disposal, delay: frame.delay,
                                          transparentIndex: usesTransparent ? transparent : nil, into: &out)
        }
        GIFBlockWriter.imageDescriptor(rect, localTable: localTable ? table.colors : nil, into: &out)
        let codeSize = LZWEncoder.minimumCodeSize(colorCount: largest + 1)
        indices.withUnsafeBufferPointer { i in
            alternates.withUnsafeBufferPointer { a in
                LZWEncoder.encode(i, alternates: a, minimumCodeSize: codeSize, into: &out)
            }
        }
    }

    /// Calls `body` with the canvas index of each pixel of `rect`, row by row.
    private static func forEachPixel(of rect: FrameRect, width: Int, _ body: (Int) -> Void) {
        for y in rect.y..<(rect.y + rect.height) {
            let row = y * width
            for x in rect.x..<(rect.x + rect.width) { body(row + x) }
        }
    }
}
