import ImageCodecs

/// A hash of each frame's canonical RGBA8 bytes (alpha 0 counts as 0,0,0,0), collected during
/// the untimed first decode so that every frame is compared without holding them all.
public final class FrameHashes {
    public let canvasBytes: Int
    public private(set) var hashes: [UInt64] = []

    public init(canvasBytes: Int) { self.canvasBytes = canvasBytes }

    public func append(_ pixels: UnsafeBufferPointer<UInt8>) {
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
public func canonical(_ pixels: [UInt8]) -> [UInt8] {
    var pixels = pixels
    var i = 0
    while i + 4 <= pixels.count {
        if pixels[i + 3] == 0 { pixels[i] = 0; pixels[i + 1] = 0; pixels[i + 2] = 0 }
        i += 4
    }
    return pixels
}

/// `ImageSource` over the whole data (with `options`), then `image(at:)` for every frame in
/// order, each a new image of the full canvas.
public func decodeOursEveryFrame(_ bytes: [UInt8], options: DecodingOptions = .init(),
                                 frames: FrameHashes? = nil) throws(BenchError) -> [UInt8] {
    let source = ImageSource(bytes: bytes, options: options)
    let count = source.count
    guard count > 0 else { throw BenchError("no frames" + (source.error.map { ": \($0)" } ?? "")) }
    var last: [UInt8] = []
    for index in 0..<count {
        let image: DecodedImage
        do {
            image = try source.image(at: index)
        } catch {
            throw BenchError("frame \(index): \(error)")
        }
        guard image.pixelFormat == .rgba8, image.bytesPerRow == image.width * 4 else {
            throw BenchError("frame \(index): unexpected output layout \(image.pixelFormat)")
        }
        guard image.isComplete else { throw BenchError("frame \(index): incomplete image") }
        if let frames { image.pixels.withUnsafeBufferPointer { frames.append($0) } }
        consume(image.pixels)
        last = image.pixels
    }
    return last
}
