import CodecCore

/// Decodes JPEG files (ITU T.81: baseline, extended and progressive processes, Huffman or
/// arithmetic coding, 8-bit)
/// as a resumable state machine, with pixels equal to libjpeg-turbo's `djpeg -dct int` (ISLOW
/// inverse DCT, fancy upsampling) in RGBA8.
public final class JPEGDecoder: ImageDecoding {
    let options: DecodingOptions
    private(set) var container: JPEGContainer
    public private(set) var error: DecodingError?
    private var pixelDecoder: JPEGPixelDecoder?
    private var cachedProperties: (revision: Int, value: ImageProperties)?
    /// The thumbnail being decoded, kept so that the next request for that size resumes it, and
    /// the last image it gave with the MCU rows written by then.
    private var thumbnailJob: (width: Int, height: Int, decoder: JPEGPixelDecoder, last: (image: DecodedImage, rows: Int)?)?

    /// SOI, then the 0xFF of the next marker (B.1.1.2): three bytes no other format starts with.
    public static let signature: [UInt8] = [0xFF, 0xD8, 0xFF]

    public init(options: DecodingOptions) {
        self.options = options
        container = JPEGContainer(options: options)
    }


    public func advance(_ input: InputBuffer) throws(DecodingError) {
        try DecodingError.sticky(&error) { () throws(DecodingError) in try container.parse(input) }
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
        if !decoder.finished { decoder.prepareImage() }
        return DecodedImage(raster: Raster(width: frame.width, height: frame.height, bytesPerPixel: 4, pixels: decoder.pixels),
                            finalRowCount: decoder.finalRows, options: options)
    }

    /// A thumbnail decoded at the smallest of libjpeg's IDCT scales (1/8, 1/4, 1/2, 1) that is
    /// no smaller than `width × height`, keeping only the coefficients that scale reads, and
    /// shrunk to the exact size as its rows come out; the full-size image is never held. The
    /// decoding is kept, so a thumbnail of the same size asked for after more bytes arrived
    /// resumes it. Nil (shrink the image instead) once the full image has been decoded.
    public func streamingThumbnail(at index: Int, width: Int, height: Int,
                                   input: InputBuffer) throws(DecodingError) -> DecodedImage? {
        guard index == 0, let frame = container.frame, pixelDecoder?.finished != true else { return nil }
        return try DecodingError.sticky(&error) { () throws(DecodingError) -> DecodedImage? in
            _ = try options.limits.checkedRasterBytes(width: width, height: height, bytesPerPixel: StreamingResampler.bytesPerOutputPixel)
            guard let first = container.scans.first else {
                return DecodedImage(raster: Raster(width: width, height: height, bytesPerPixel: 4), finalRowCount: 0, options: options)
            }
            if thumbnailJob.map({ $0.width != width || $0.height != height }) ?? true {
                let decoder = JPEGPixelDecoder(frame: frame, firstScan: first.header,
                                               colorSpace: JPEGColorSpace(frame: frame, metadata: container.metadata),
                                               scaledSize: JPEGOutputGeometry.scaledSize(for: frame, fitting: width, height),
                                               thumbnail: (width, height))
                thumbnailJob = (width, height, decoder, nil)
            }
            guard let decoder = thumbnailJob?.decoder else { return nil }
            try decoder.decode(container, input)
            if !decoder.finished { decoder.prepareThumbnail() }
            if let last = thumbnailJob?.last, last.rows == decoder.mcuRowsWritten { return last.image }
            guard let shrunk = decoder.resampler else { return nil }
            let image = DecodedImage(raster: shrunk.raster, finalRowCount: shrunk.finishedOutputRows, options: options)
            thumbnailJob?.last = (image, decoder.mcuRowsWritten)
            return image
        }
    }

    /// The image at libjpeg's scale `scaledSize`/8 (8, 4, 2 or 1) as `djpeg -scale` gives it,
    /// decoded afresh as thumbnails are: the scaled inverse DCTs and upsampling, and for a
    /// buffered file only the coefficients the scaled transforms read (so without block
    /// smoothing at the scales where those are a subset).
    func scaledImage(scaledSize: Int, input: InputBuffer) throws(DecodingError) -> DecodedImage {
        if let error { throw error }
        guard let frame = container.frame, let first = container.scans.first else { throw .invalidRequest("no scan yet") }
        let decoder = JPEGPixelDecoder(frame: frame, firstScan: first.header,
                                       colorSpace: JPEGColorSpace(frame: frame, metadata: container.metadata),
                                       scaledSize: scaledSize)
        try decoder.decode(container, input)
        if !decoder.finished { decoder.prepareImage() }
        return DecodedImage(raster: Raster(width: decoder.width, height: decoder.height, bytesPerPixel: 4, pixels: decoder.pixels),
                            finalRowCount: decoder.finalRows, options: options)
    }

    /// Decodes the pixels as far as the input allows; nil before the first scan.
    private func decodePixels(_ input: InputBuffer) throws(DecodingError) -> JPEGPixelDecoder? {
        try DecodingError.sticky(&error) { () throws(DecodingError) -> JPEGPixelDecoder? in
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
