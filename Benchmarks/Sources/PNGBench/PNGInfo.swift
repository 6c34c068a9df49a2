/// The few IHDR fields the report needs (PNG 3rd edition §11.2.2), read without our decoder so
/// that the label does not depend on the code under test.
struct PNGInfo {
    let width: Int
    let height: Int
    let bitDepth: Int
    let colourType: Int
    let isInterlaced: Bool

    init?(_ bytes: [UInt8]) {
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        let ihdr: [UInt8] = [0x49, 0x48, 0x44, 0x52]
        guard bytes.count >= 29, Array(bytes[0..<8]) == signature, Array(bytes[12..<16]) == ihdr else {
            return nil
        }
        func u32(_ at: Int) -> Int {
            Int(bytes[at]) << 24 | Int(bytes[at + 1]) << 16 | Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
        }
        width = u32(16)
        height = u32(20)
        bitDepth = Int(bytes[24])
        colourType = Int(bytes[25])
        isInterlaced = bytes[28] == 1
    }

    var megapixels: Double { Double(width) * Double(height) / 1e6 }

    /// Bytes of the RGBA8 canvas: our default output and what every decoder here writes.
    var canvasBytes: Int { width * height * 4 }

    var isSixteenBit: Bool { bitDepth == 16 }

    /// For example "RGB8", "palette8", "grey+alpha16 Adam7".
    var category: String {
        let kind = switch colourType {
        case 0: "grey"
        case 2: "RGB"
        case 3: "palette"
        case 4: "grey+alpha"
        case 6: "RGBA"
        default: "type\(colourType)"
        }
        return "\(kind)\(bitDepth)" + (isInterlaced ? " Adam7" : "")
    }
}
