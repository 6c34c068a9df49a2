/// What the report needs from a GIF's block structure (GIF89a §17–§24), read without our
/// decoder so that the label does not depend on the code under test: the logical screen, the
/// number of images, and a few flags.
struct GIFInfo {
    let version: String
    let width: Int
    let height: Int
    /// Image descriptors whose header is complete.
    private(set) var frames = 0
    private(set) var interlacedFrames = 0
    private(set) var localPalettes = 0
    private(set) var hasGlobalPalette = false
    /// Graphic control extensions with the transparency flag set.
    private(set) var transparentGCEs = 0

    init?(_ bytes: [UInt8]) {
        guard bytes.count >= 13, bytes[0] == 0x47, bytes[1] == 0x49, bytes[2] == 0x46 else { return nil }
        version = String(decoding: bytes[3..<6], as: UTF8.self)
        width = Int(bytes[6]) | Int(bytes[7]) << 8
        height = Int(bytes[8]) | Int(bytes[9]) << 8
        var pos = 13
        if bytes[10] & 0x80 != 0 {
            hasGlobalPalette = true
            pos += 3 << (Int(bytes[10] & 7) + 1)
        }
        /// Skips data sub-blocks up to and including the terminator; false when the data ends.
        func skipSubBlocks() -> Bool {
            while pos < bytes.count {
                let length = Int(bytes[pos])
                pos += 1 + length
                if length == 0 { return true }
            }
            return false
        }
        scan: while pos < bytes.count {
            switch bytes[pos] {
            case 0x2C: // image descriptor
                guard pos + 10 <= bytes.count else { break scan }
                let flags = bytes[pos + 9]
                frames += 1
                if flags & 0x40 != 0 { interlacedFrames += 1 }
                pos += 10
                if flags & 0x80 != 0 {
                    localPalettes += 1
                    pos += 3 << (Int(flags & 7) + 1)
                }
                pos += 1 // LZW minimum code size
                guard skipSubBlocks() else { break scan }
            case 0x21: // extension
                guard pos + 2 <= bytes.count else { break scan }
                if bytes[pos + 1] == 0xF9, pos + 3 < bytes.count, bytes[pos + 2] >= 4, bytes[pos + 3] & 1 != 0 {
                    transparentGCEs += 1
                }
                pos += 2
                guard skipSubBlocks() else { break scan }
            default: // 0x3B trailer, or something else: stop
                break scan
            }
        }
    }

    var canvasMegapixels: Double { Double(width) * Double(height) / 1e6 }

    /// Canvas megapixels times frames: every frame is a full canvas of output.
    var totalMegapixels: Double { canvasMegapixels * Double(frames) }

    /// Bytes of the RGBA8 canvas.
    var canvasBytes: Int { width * height * 4 }

    /// For example "87a still", "89a anim, interlaced, local palettes, transparency".
    var category: String {
        var parts = ["\(version) \(frames == 1 ? "still" : "anim")"]
        if interlacedFrames > 0 { parts.append("interlaced") }
        if localPalettes > 0 { parts.append(hasGlobalPalette ? "local palettes" : "local palettes only") }
        if transparentGCEs > 0 { parts.append("transparency") }
        return parts.joined(separator: ", ")
    }
}
