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

    /// Lowercase hexadecimal SHA-256 of the canonical bytes.
    public static func hex(_ image: DecodedImage) -> String {
        SHA256.hex(canonicalBytes(image))
    }
}
