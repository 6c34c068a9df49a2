import CodecCore

/// A Graphic Control Extension (GIF89a §23): how the next image is shown.
struct GIFGraphicControl: Equatable {
    let disposal: Disposal
    /// Delay Time in hundredths of a second.
    let delay: Int
    /// The Transparent Color Index, when the Transparent Color Flag is set.
    let transparentIndex: Int?

    /// Parses the extension's first data sub-block; nil when it is shorter than the 4 bytes
    /// §23 defines (longer blocks are accepted, the rest ignored, as Chromium does).
    ///
    /// Disposal Method 2 is "restore to background", which browsers (and this library) show as
    /// clearing the rectangle to transparent; 3 is "restore to previous", and so is the reserved
    /// value 4, which some encoders write for it (Chromium and Firefox read it so); 0
    /// (unspecified), 1 and the reserved values 5–7 leave the image in place.
    init?(_ block: UnsafeBufferPointer<UInt8>) {
        guard block.count >= 4 else { return nil }
        switch (block[0] >> 2) & 7 {
        case 2: disposal = .background
        case 3, 4: disposal = .previous
        default: disposal = .none
        }
        delay = Int(block[1]) | Int(block[2]) << 8
        transparentIndex = block[0] & 1 != 0 ? Int(block[3]) : nil
    }
}
