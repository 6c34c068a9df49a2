import CodecCore

/// An Image Descriptor (GIF89a §20): the image's rectangle on the logical screen and its flags.
struct GIFImageDescriptor: Equatable {
    let rect: FrameRect
    let interlaced: Bool
    /// Bytes of the Local Color Table that follows (§21), 0 when the flag is clear.
    let localColorTableBytes: Int

    /// Bytes of the descriptor, the Image Separator included.
    static let size = 10

    /// Parses the descriptor at `position` (its separator byte); the bytes have arrived.
    init(_ input: InputBuffer, at position: Int) {
        func u16(_ offset: Int) -> Int { Int(input.u16LE(at: position + offset) ?? 0) }
        rect = FrameRect(x: u16(1), y: u16(3), width: u16(5), height: u16(7))
        let packed = input.u8(at: position + 9) ?? 0
        interlaced = packed & 0x40 != 0
        localColorTableBytes = packed & 0x80 != 0 ? 3 << (Int(packed & 7) + 1) : 0
    }
}
