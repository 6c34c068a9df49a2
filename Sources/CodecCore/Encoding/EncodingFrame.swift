/// The whole file an encoder is about to write: every frame has this size.
public struct EncodingCanvas: Sendable, Equatable {
    /// Width of every frame, in pixels.
    public var width: Int
    /// Height of every frame, in pixels.
    public var height: Int
    /// Frames that will be added, at least 1.
    public var frameCount: Int
    /// Times an animation plays; 0 = forever.
    public var loopCount: Int
    /// What to write beside the pixels (orientation, ICC profile, EXIF, XMP, density).
    public var metadata: ImageMetadata

    /// A canvas of `width × height` that `frameCount` frames will fill, looping `loopCount` times.
    public init(width: Int, height: Int, frameCount: Int, loopCount: Int = 0, metadata: ImageMetadata = .init()) {
        self.width = width
        self.height = height
        self.frameCount = frameCount
        self.loopCount = loopCount
        self.metadata = metadata
    }
}

/// One frame handed to an encoder: straight-alpha RGBA, 8 bits per sample (4 bytes per pixel)
/// or 16 bits in native byte order (8 bytes per pixel), rows top to bottom, the full canvas.
///
/// Pixels come from a raster the frame holds, or row by row from the caller. A row may be read
/// more than once (an encoder may look at the whole frame before writing it), so a row provider
/// must give the same row each time it is asked.
public struct EncodingFrame {
    /// Width in pixels: the canvas width.
    public let width: Int
    /// Height in pixels: the canvas height.
    public let height: Int
    /// 4 (RGBA8) or 8 (RGBA16).
    public let bytesPerPixel: Int
    /// How long the frame is shown.
    public var duration: Duration

    private enum Storage {
        case pixels([UInt8])
        case rows((Int, UnsafeMutableRawBufferPointer) -> Void)
    }
    private let storage: Storage

    /// Default display time of a frame added without one.
    public static let defaultDuration = Duration.milliseconds(100)

    /// A frame of a raster in the working format (RGBA8 or RGBA16, straight alpha).
    public init(raster: Raster, duration: Duration = defaultDuration) throws(EncodingError) {
        try Self.check(width: raster.width, height: raster.height, bytesPerPixel: raster.bytesPerPixel)
        guard raster.pixels.count == raster.width * raster.height * raster.bytesPerPixel else {
            throw .invalidRequest("raster pixels do not match its size")
        }
        width = raster.width
        height = raster.height
        bytesPerPixel = raster.bytesPerPixel
        self.duration = duration
        storage = .pixels(raster.pixels)
    }

    /// A frame of a decoded image in any of its layouts (BGRA and premultiplied are converted).
    public init(image: DecodedImage, duration: Duration = defaultDuration) throws(EncodingError) {
        try Self.check(width: image.width, height: image.height, bytesPerPixel: image.pixelFormat.bytesPerPixel)
        guard image.pixels.count == image.height * image.bytesPerRow else {
            throw .invalidRequest("image pixels do not match its size")
        }
        let straight = image.pixelFormat == .rgba8 && !image.isPremultiplied
            || image.pixelFormat == .rgba16 && !image.isPremultiplied
        var pixels = image.pixels
        if !straight {
            if image.pixelFormat == .bgra8 { PixelConversion.swapRedBlue(&pixels) }
            if image.isPremultiplied {
                if image.pixelFormat == .rgba16 {
                    PixelConversion.unpremultiplyRGBA16(&pixels)
                } else {
                    PixelConversion.unpremultiplyRGBA8(&pixels)
                }
            }
        }
        try self.init(raster: Raster(width: image.width, height: image.height,
                                     bytesPerPixel: image.pixelFormat.bytesPerPixel, pixels: pixels),
                      duration: duration)
    }

    /// A frame whose rows the caller writes on demand: `row(y, buffer)` fills `buffer`
    /// (`width × bytesPerPixel` bytes) with row `y`.
    public init(width: Int, height: Int, bytesPerPixel: Int, duration: Duration = defaultDuration,
                rows: @escaping (Int, UnsafeMutableRawBufferPointer) -> Void) throws(EncodingError) {
        try Self.check(width: width, height: height, bytesPerPixel: bytesPerPixel)
        self.width = width
        self.height = height
        self.bytesPerPixel = bytesPerPixel
        self.duration = duration
        storage = .rows(rows)
    }

    private static func check(width: Int, height: Int, bytesPerPixel: Int) throws(EncodingError) {
        guard width > 0, height > 0 else { throw .invalidRequest("frame width and height must be positive") }
        guard bytesPerPixel == 4 || bytesPerPixel == 8 else {
            throw .invalidRequest("frames are RGBA8 or RGBA16")
        }
        let (rowBytes, o1) = width.multipliedReportingOverflow(by: bytesPerPixel)
        let (_, o2) = rowBytes.multipliedReportingOverflow(by: height)
        guard !o1, !o2 else { throw .limitExceeded("frame size overflows") }
    }

    /// Bytes of one row.
    public var bytesPerRow: Int { width * bytesPerPixel }

    /// Whether samples are 16 bits.
    public var isSixteenBit: Bool { bytesPerPixel == 8 }

    /// The pixels, when the frame holds them (not for a row provider).
    public var storedPixels: [UInt8]? {
        if case .pixels(let p) = storage { return p }
        return nil
    }

    /// Copies row `y` (0 ≤ y < height) into `buffer`, which holds at least ``bytesPerRow`` bytes.
    public func copyRow(_ y: Int, into buffer: UnsafeMutableRawBufferPointer) {
        guard y >= 0, y < height, buffer.count >= bytesPerRow else { return }
        switch storage {
        case .pixels(let p):
            p.withUnsafeBytes { raw in
                buffer.baseAddress!.copyMemory(from: raw.baseAddress! + y * bytesPerRow, byteCount: bytesPerRow)
            }
        case .rows(let provide):
            provide(y, UnsafeMutableRawBufferPointer(rebasing: buffer[0..<bytesPerRow]))
        }
    }

    /// The whole frame as RGBA8 bytes, 16-bit samples narrowed to their high byte.
    package func rgba8Pixels() -> [UInt8] {
        let pixels = raster().pixels
        return isSixteenBit ? PixelConversion.narrowRGBA16(pixels) : pixels
    }

    /// The whole frame as a raster (no copy when the frame holds its pixels).
    public func raster() -> Raster {
        if case .pixels(let p) = storage {
            return Raster(width: width, height: height, bytesPerPixel: bytesPerPixel, pixels: p)
        }
        let rowBytes = bytesPerRow
        let pixels = [UInt8](unsafeUninitializedCapacity: rowBytes * height) { buffer, count in
            let raw = UnsafeMutableRawBufferPointer(buffer)
            for y in 0..<height {
                copyRow(y, into: UnsafeMutableRawBufferPointer(rebasing: raw[(y * rowBytes)..<((y + 1) * rowBytes)]))
            }
            count = rowBytes * height
        }
        return Raster(width: width, height: height, bytesPerPixel: bytesPerPixel, pixels: pixels)
    }
}
