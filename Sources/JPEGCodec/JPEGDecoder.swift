import CodecCore

/// Decodes JPEG files (ITU T.81: baseline, extended and progressive processes, Huffman or
/// arithmetic coding, 8-bit)
/// as a resumable state machine, with pixels equal to libjpeg-turbo's `djpeg -dct int` (ISLOW
/// inverse DCT, fancy upsampling) in RGBA8.
public final class JPEGDecoder: ImageDecoding {
    let options: DecodingOptions
    private(set) var container: JPEGContainer
    private var errors = StickyError()
    public var error: DecodingError? { errors.error }
    private var pixelDecoder: JPEGPixelDecoder?
    private var cachedProperties: (revision: Int, value: ImageProperties)?

    /// SOI, then the 0xFF of the next marker (B.1.1.2): three bytes no other format starts with.
    public static let signature: [UInt8] = [0xFF, 0xD8, 0xFF]

    public init(options: DecodingOptions) {
        self.options = options
        container = JPEGContainer(options: options)
    }

    public func advance(_ input: InputBuffer) throws(DecodingError) {
        try errors.run { () throws(DecodingError) in try container.parse(input) }
        if options.decodesImmediately, frameCount > 0 { _ = try decodePixels(input) }
    }

    public var properties: ImageProperties? {
        guard let frame = container.frame else { return nil }
        if let cached = cachedProperties, cached.revision == container.revision { return cached.value }
        var p = ImageProperties(width: frame.width, height: frame.height, bitDepth: 8, hasAlpha: false,
                                isInterlaced: frame.isProgressive)
        container.metadata.resolve(into: &p)
        cachedProperties = (container.revision, p)
        return p
    }

    /// One frame once the frame header is read.
    public var frameCount: Int { container.frame == nil ? 0 : 1 }

    public func frameProperties(at index: Int) -> FrameProperties? {
        guard index == 0, let frame = container.frame else { return nil }
        return FrameProperties(x: 0, y: 0, width: frame.width, height: frame.height, unclampedDuration: 0,
                               disposal: .none, blend: .source)
    }

    public func isFrameComplete(at index: Int) -> Bool { index == 0 && container.ended }

    public var isComplete: Bool { container.ended }

    public func image(at index: Int, input: InputBuffer) throws(DecodingError) -> DecodedImage {
        if let error { throw error }
        guard index == 0, let frame = container.frame else { throw .invalidRequest("frame index out of range") }
        guard let decoder = try decodePixels(input) else {
            return DecodedImage(raster: Raster(width: frame.width, height: frame.height, bytesPerPixel: 4),
                                finalRowCount: 0, options: options)
        }
        if !decoder.finished { decoder.render(final: false) }
        return DecodedImage(raster: Raster(width: frame.width, height: frame.height, bytesPerPixel: 4, pixels: decoder.pixels),
                            finalRowCount: decoder.finalRows, options: options)
    }

    /// JPEG thumbnails are shrunk from the full image for now.
    public func streamingThumbnail(at index: Int, width: Int, height: Int,
                                   input: InputBuffer) throws(DecodingError) -> DecodedImage? {
        nil
    }

    /// Decodes the pixels as far as the input allows; nil before the first scan.
    private func decodePixels(_ input: InputBuffer) throws(DecodingError) -> JPEGPixelDecoder? {
        try errors.run { () throws(DecodingError) -> JPEGPixelDecoder? in
            guard let frame = container.frame, let first = container.scans.first else { return nil }
            if pixelDecoder == nil {
                // The container has checked the image and coefficient sizes against the limits.
                pixelDecoder = JPEGPixelDecoder(frame: frame, firstScan: first.header,
                                                colorSpace: JPEGColorSpace(frame: frame, metadata: container.metadata))
            }
            try pixelDecoder?.decode(container, input)
            return pixelDecoder
        }
    }
}
