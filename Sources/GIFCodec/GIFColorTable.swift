import CodecCore

/// A colour table (GIF89a §19 Global Color Table, §21 Local Color Table) as 256 RGBA8 pixels,
/// each a `UInt32` whose bytes in memory are R, G, B, A, indexed by the pixel's colour index.
///
/// The transparent index of the Graphic Control Extension (§23) maps to transparent black.
/// Indices past the table's end are opaque black, as in Wuffs (Chromium's GIF decoder), which
/// fills the rest of its 256-entry palette so; a frame with neither a local nor a global
/// table is opaque black for the same reason.
struct GIFColorTable {
    /// 256 entries in memory order R, G, B, A.
    let entries: [UInt32]

    /// The table in `range` of the input (3 bytes an entry; the caller has checked the bytes
    /// have arrived), or none when `range` is nil.
    init(_ range: Range<Int>?, transparentIndex: Int?, input: InputBuffer) {
        var entries = [UInt32](repeating: UInt32(0xFF00_0000).littleEndian, count: 256)
        if let range {
            input.withBytes(range) { rgb in
                for i in 0..<min(256, rgb.count / 3) {
                    let value = UInt32(rgb[i * 3]) | UInt32(rgb[i * 3 + 1]) << 8 | UInt32(rgb[i * 3 + 2]) << 16 | 0xFF00_0000
                    entries[i] = value.littleEndian
                }
            }
        }
        if let transparentIndex, transparentIndex < 256 { entries[transparentIndex] = 0 }
        self.entries = entries
    }
}
