import CodecCore

/// The Header (GIF89a §17) and Logical Screen Descriptor (§18).
struct GIFScreenDescriptor: Equatable {
    /// "GIF87a" or "GIF89a" (§17 Version).
    let version89a: Bool
    /// Logical Screen Width and Height: the canvas every image is drawn on.
    let width: Int
    let height: Int
    /// Bytes of the Global Color Table that follows (§19), 0 when the flag is clear.
    let globalColorTableBytes: Int
    /// Background Color Index into the Global Color Table.
    let backgroundIndex: Int

    /// Bytes of the header and the descriptor together.
    static let size = 13

    /// Parses the 13 bytes at the start of the file; the caller has checked they have arrived.
    /// A signature other than GIF87a or GIF89a, or a zero width or height, is invalid.
    init(_ input: InputBuffer) throws(DecodingError) {
        let b = input.copy(0..<Self.size)
        guard b[0] == 0x47, b[1] == 0x49, b[2] == 0x46, b[3] == 0x38, b[4] == 0x37 || b[4] == 0x39, b[5] == 0x61 else {
            throw .invalidData("GIF signature is not GIF87a or GIF89a")
        }
        version89a = b[4] == 0x39
        width = Int(input.u16LE(at: 6) ?? 0)
        height = Int(input.u16LE(at: 8) ?? 0)
        guard width > 0, height > 0 else { throw .invalidData("logical screen width or height is zero") }
        let packed = b[10]
        globalColorTableBytes = packed & 0x80 != 0 ? 3 << (Int(packed & 7) + 1) : 0
        backgroundIndex = Int(b[11])
    }
}
