/// The canonical hash every conformance check compares (DESIGN.md): SHA-256 over the image as
/// RGBA8, straight alpha, rows top to bottom without padding, with every pixel whose alpha is 0
/// written as 0,0,0,0 and 16-bit samples narrowed by `v >> 8`.
public enum CanonicalHash {
    /// The canonical bytes of `image`.
    public static func canonicalBytes(_ image: DecodedImage) -> [UInt8] {
        var pixels = image.rgba8Raster().pixels
        pixels.withUnsafeMutableBufferPointer { p in
            var i = 0
            while i + 3 < p.count {
                if p[i + 3] == 0 { p[i] = 0; p[i + 1] = 0; p[i + 2] = 0 }
                i += 4
            }
        }
        return pixels
    }

    /// Lowercase hexadecimal SHA-256 of the canonical bytes. A straight RGBA8 image is hashed
    /// row by row through a one-row buffer, so hashing never holds a second copy of the image.
    public static func hex(_ image: DecodedImage) -> String {
        guard image.pixelFormat == .rgba8, !image.isPremultiplied else { return SHA256.hex(canonicalBytes(image)) }
        var hasher = SHA256.Hasher()
        var row = [UInt8](repeating: 0, count: image.bytesPerRow)
        image.pixels.withUnsafeBufferPointer { all in
            for y in 0..<image.height {
                row.withUnsafeMutableBufferPointer { r in
                    _ = r.initialize(from: all[(y * image.bytesPerRow)..<((y + 1) * image.bytesPerRow)])
                    var i = 0
                    while i + 3 < r.count {
                        if r[i + 3] == 0 { r[i] = 0; r[i + 1] = 0; r[i + 2] = 0 }
                        i += 4
                    }
                }
                row.withUnsafeBufferPointer { hasher.update($0) }
            }
        }
        return SHA256.hex(digest: hasher.finalize())
    }
}
