/// In-place edits of an EXIF payload (the TIFF structure after "Exif\0\0"; TIFF 6.0 section 2,
/// EXIF 2.3 section 4.6) that a lossless transform needs. Both leave anything they cannot
/// follow untouched.
enum JPEGEXIFEditing {
    /// `transupp.c`'s `adjust_exif_parameters`: in the EXIF sub-IFD that IFD0's tag 0x8769
    /// points to, PixelXDimension (0xA002) and PixelYDimension (0xA003) become LONG values
    /// `width` and `height` (the low 16 bits, as libjpeg writes them). Like libjpeg it reads
    /// only offsets below 65536 and a sub-IFD of at least two entries.
    static func setPixelDimensions(_ d: inout [UInt8], width: Int, height: Int) {
        let length = d.count
        guard length >= 12, let big = byteOrder(d) else { return }
        guard d[big ? 4 : 7] == 0, d[big ? 5 : 6] == 0 else { return }
        var ifd = u16(d, big ? 6 : 4, big)
        guard ifd <= length - 2 else { return }
        var count = u16(d, ifd, big)
        guard count > 0 else { return }
        ifd += 2
        while true {
            guard ifd <= length - 12 else { return }
            if u16(d, ifd, big) == 0x8769 { break }
            count -= 1
            if count == 0 { return }
            ifd += 12
        }
        guard d[ifd + (big ? 8 : 11)] == 0, d[ifd + (big ? 9 : 10)] == 0 else { return }
        var entry = u16(d, ifd + (big ? 10 : 8), big)
        guard entry <= length - 2 else { return }
        count = u16(d, entry, big)
        guard count >= 2 else { return }
        entry += 2
        repeat {
            guard entry <= length - 12 else { return }
            let tag = u16(d, entry, big)
            if tag == 0xA002 || tag == 0xA003 {
                let value = UInt32(truncatingIfNeeded: tag == 0xA002 ? width : height) & 0xFFFF
                // Type LONG (4), count 1, then the value.
                d[entry + 2] = big ? 0 : 4
                d[entry + 3] = big ? 4 : 0
                put32(&d, entry + 4, 1, big)
                put32(&d, entry + 8, value, big)
            }
            entry += 12
            count -= 1
        } while count > 0
    }

    /// Sets IFD0's Orientation (tag 0x0112, SHORT) to 1 (upright), where the tag is there.
    static func resetOrientation(_ d: inout [UInt8]) {
        guard d.count >= 8, let big = byteOrder(d) else { return }
        let ifd = Int(u32(d, 4, big))
        guard ifd >= 8, ifd <= d.count - 2 else { return }
        let count = u16(d, ifd, big)
        for i in 0..<count {
            let e = ifd + 2 + 12 * i
            guard e + 12 <= d.count else { return }
            if u16(d, e, big) == 0x0112 && u16(d, e + 2, big) == 3 {
                d[e + 8] = big ? 0 : 1
                d[e + 9] = big ? 1 : 0
                return
            }
        }
    }

    /// True for "MM" (big-endian), false for "II", nil otherwise; the magic number 42 checked.
    private static func byteOrder(_ d: [UInt8]) -> Bool? {
        if d[0] == 0x4D, d[1] == 0x4D, d[2] == 0, d[3] == 0x2A { return true }
        if d[0] == 0x49, d[1] == 0x49, d[2] == 0x2A, d[3] == 0 { return false }
        return nil
    }

    private static func u16(_ d: [UInt8], _ i: Int, _ big: Bool) -> Int {
        big ? Int(d[i]) << 8 | Int(d[i + 1]) : Int(d[i + 1]) << 8 | Int(d[i])
    }

    private static func u32(_ d: [UInt8], _ i: Int, _ big: Bool) -> UInt32 {
        big ? UInt32(d[i]) << 24 | UInt32(d[i + 1]) << 16 | UInt32(d[i + 2]) << 8 | UInt32(d[i + 3])
            : UInt32(d[i + 3]) << 24 | UInt32(d[i + 2]) << 16 | UInt32(d[i + 1]) << 8 | UInt32(d[i])
    }

    private static func put32(_ d: inout [UInt8], _ i: Int, _ v: UInt32, _ big: Bool) {
        for k in 0..<4 { d[i + (big ? k : 3 - k)] = UInt8(truncatingIfNeeded: v >> (24 - 8 * k)) }
    }
}
