import CodecCore

/// Writes one planned frame (``GIFPlannedFrame``, cropped to its rectangle): its Graphic
/// Control Extension (§23), Image Descriptor (§20), Local Color Table (§21) and image data
/// (§22, ``LZWEncoder``).
///
/// Pixels inside the rectangle that need no drawing (the canvas already shows them) may be the
/// transparent index or, when the table has it, their own colour: the LZW encoder picks
/// whichever continues its string. The colour table is the global one when it holds every
/// colour the frame needs; otherwise a local table of the colours the frame draws, plus the
/// transparent entry when the frame needs one (``GIFPlannedFrame/needsTransparent``). A frame
/// drawing 256 colours has no room for that entry; its table is then every colour the canvas
/// shows across the rectangle (at most 256: such a frame is never quantized).
enum GIFFrameWriter {
    /// The colour table for `frame` and whether it is `global`.
    static func table(for frame: GIFPlannedFrame, global: GIFColorSet?) -> (GIFColorSet, isGlobal: Bool) {
        var set = GIFColorSet()
        let fits = frame.drawnColors(into: &set)
        let needsTransparent = frame.needsTransparent
        if var global, fits, set.colors.allSatisfy({ global.index(of: $0) != nil }) {
            var covered = !needsTransparent || global.index(of: 0) != nil
            if !covered {
                covered = frame.drawn.indices.allSatisfy { frame.drawn[$0] != 0 || global.index(of: frame.target[$0]) != nil }
            }
            if covered { return (global, true) }
        }
        if fits && (!needsTransparent || set.insert(0)) { return (set, false) }
        set = GIFColorSet()
        for c in frame.target { _ = set.insert(c) }
        return (set, false)
    }

    /// Appends the frame's blocks; `localTable` says whether `table` is written as its Local
    /// Color Table; `interlaced`: rows in the four-pass order of Appendix E. The GCE is written when it says something: a transparent index, or in an
    /// animation a delay or a disposal (none of these is the same as no GCE).
    static func write(_ frame: GIFPlannedFrame, table: GIFColorSet, localTable: Bool, animated: Bool,
                      interlaced: Bool, into out: inout [UInt8]) {
        var table = table
        let transparent = table.index(of: 0)
        let count = frame.target.count
        var indices = [UInt8](repeating: 0, count: count)
        var alternates = indices
        var largest = 0
        // Pillow clears a "restore to background" rectangle with the frame's transparent
        // index when it has one (else with the background colour): name it even if unused.
        var usesTransparent = (frame.disposal == .background || frame.namesTransparent) && transparent != nil
        for i in 0..<count {
            let own = table.index(of: frame.target[i])
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
        GIFBlockWriter.imageDescriptor(frame.rect, localTable: localTable ? table.colors : nil, interlaced: interlaced,
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
