/// A hash of each frame's canonical RGBA8 bytes (alpha 0 counts as 0,0,0,0), collected during
/// the untimed first decode so that every frame is compared without holding them all.
final class FrameHashes {
    let canvasBytes: Int
    private(set) var hashes: [UInt64] = []

    init(canvasBytes: Int) { self.canvasBytes = canvasBytes }

    func append(_ pixels: UnsafeBufferPointer<UInt8>) {
        guard pixels.count == canvasBytes else {
            hashes.append(UInt64(pixels.count)) // a wrong size never matches a right one
            return
        }
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        var i = 0
        while i + 4 <= pixels.count {
            let word: UInt32 = pixels[i + 3] == 0 ? 0
                : UInt32(pixels[i]) | UInt32(pixels[i + 1]) << 8 | UInt32(pixels[i + 2]) << 16 | UInt32(pixels[i + 3]) << 24
            h = (h ^ UInt64(word)) &* 0x0000_0100_0000_01B3
            h ^= h >> 29
            i += 4
        }
        hashes.append(h)
    }
}

/// Writes every pixel of alpha 0 as 0,0,0,0 (the canonical form of DESIGN.md).
func canonical(_ pixels: [UInt8]) -> [UInt8] {
    var pixels = pixels
    var i = 0
    while i + 4 <= pixels.count {
        if pixels[i + 3] == 0 { pixels[i] = 0; pixels[i + 1] = 0; pixels[i + 2] = 0 }
        i += 4
    }
    return pixels
}

/// Byte-for-byte comparison of canonical RGBA8 canvases, ours against giflib's.
struct Comparison {
    /// Nil when the two agree.
    let mismatch: String?

    init(_ candidate: [UInt8], reference: [UInt8], width: Int) {
        guard candidate.count == reference.count else {
            mismatch = "size \(candidate.count) bytes vs \(reference.count)"
            return
        }
        var differing = 0, first = -1
        var oursTransparent = 0, oursOpaque = 0, colour = 0
        candidate.withUnsafeBufferPointer { a in
            reference.withUnsafeBufferPointer { b in
                var i = 0
                while i + 4 <= a.count {
                    if a[i] != b[i] || a[i + 1] != b[i + 1] || a[i + 2] != b[i + 2] || a[i + 3] != b[i + 3] {
                        differing += 1
                        if first < 0 { first = i / 4 }
                        if a[i + 3] == 0 && b[i + 3] != 0 {
                            oursTransparent += 1
                        } else if a[i + 3] != 0 && b[i + 3] == 0 {
                            oursOpaque += 1
                        } else {
                            colour += 1
                        }
                    }
                    i += 4
                }
            }
        }
        guard differing > 0 else {
            mismatch = nil
            return
        }
        let x = first % max(width, 1), y = first / max(width, 1)
        let a = Array(candidate[first * 4..<first * 4 + 4]), b = Array(reference[first * 4..<first * 4 + 4])
        mismatch = "\(differing) pixels differ, first at (\(x), \(y)): \(a) vs \(b); "
            + "ours transparent where giflib is not: \(oursTransparent), ours opaque where giflib is transparent: "
            + "\(oursOpaque), colour only: \(colour)"
    }
}
