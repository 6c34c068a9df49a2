/// EXIF orientation (TIFF 6.0 tag 274 "Orientation", values 1–8): where the stored rows
/// and columns go when the image is shown upright.
package enum Orientation {
    /// Returns `image` (any pixel size) turned upright for `orientation`; values outside
    /// 2…8 return it unchanged.
    package static func apply(_ orientation: Int, to image: Raster) -> Raster {
        guard (2...8).contains(orientation) else { return image }
        let w = image.width, h = image.height, bpp = image.bytesPerPixel
        let swaps = orientation >= 5
        let outW = swaps ? h : w, outH = swaps ? w : h
        var out = PixelStorage.make(count: image.pixels.count, zeroed: true)
        image.pixels.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                for y in 0..<h {
                    for x in 0..<w {
                        let (ox, oy) = destination(orientation, x: x, y: y, width: w, height: h)
                        let s = (y * w + x) * bpp, d = (oy * outW + ox) * bpp
                        for b in 0..<bpp { dst[d + b] = src[s + b] }
                    }
                }
            }
        }
        return Raster(width: outW, height: outH, bytesPerPixel: bpp, pixels: out)
    }

    /// Where the stored pixel (x, y) lands in the upright image.
    @inline(__always)
    static func destination(_ orientation: Int, x: Int, y: Int, width w: Int, height h: Int) -> (Int, Int) {
        switch orientation {
        case 2: return (w - 1 - x, y)           // mirrored horizontally
        case 3: return (w - 1 - x, h - 1 - y)   // rotated 180°
        case 4: return (x, h - 1 - y)           // mirrored vertically
        case 5: return (y, x)                   // transposed
        case 6: return (h - 1 - y, x)           // rotated 90° clockwise
        case 7: return (h - 1 - y, w - 1 - x)   // transversed
        case 8: return (y, w - 1 - x)           // rotated 90° counter-clockwise
        default: return (x, y)
        }
    }

    /// The orientation value in an EXIF payload (TIFF header and IFD0), or nil.
    ///
    /// Accepts the payload with or without the `Exif\0\0` prefix JPEG's APP1 carries.
    package static func fromEXIF(_ exif: [UInt8]) -> Int? {
        var start = 0
        if exif.count >= 6, exif[0] == 0x45, exif[1] == 0x78, exif[2] == 0x69, exif[3] == 0x66,
           exif[4] == 0, exif[5] == 0 { start = 6 }
        var r = ByteReader(exif, position: start)
        guard let b0 = r.readU8(), let b1 = r.readU8(), b0 == b1, b0 == 0x49 || b0 == 0x4D else { return nil }
        let big = b0 == 0x4D
        guard r.readU16(bigEndian: big) == 42, let ifd = r.readU32(bigEndian: big) else { return nil }
        r.position = start + Int(ifd)
        guard let entries = r.readU16(bigEndian: big) else { return nil }
        for _ in 0..<entries {
            guard let tag = r.readU16(bigEndian: big), let type = r.readU16(bigEndian: big),
                  r.readU32(bigEndian: big) != nil, let value = r.readU16(bigEndian: big),
                  r.readU16(bigEndian: big) != nil else { return nil }
            if tag == 0x0112 && type == 3 { return (1...8).contains(Int(value)) ? Int(value) : nil }
        }
        return nil
    }
}
