/// An image file being written: ImageIO's `CGImageDestination`, YYImage's `YYImageEncoder`.
///
/// Create one for a format, add frames (decoded images, rows from the caller, or every frame of
/// an ``ImageSource``), then ``finalize()``. Frames are held as the values they are (a
/// ``DecodedImage``'s pixels are shared, not copied) and frames of a source are decoded only when
/// the file is written, one at a time, so transcoding an animation never holds all its frames.
/// The encoder writes the file to the sink as it goes.
public final class ImageDestination {
    /// The format being written.
    public let format: ImageFormat
    /// The options the file is written with, as validated when the destination was made.
    public let options: EncodingOptions
    private let coder: any ImageCoder
    private let supportsAnimation: Bool
    private let isLossy: Bool
    private var frames: [PendingFrame] = []
    private var frameSize: (width: Int, height: Int)?
    private var sourceLoopCount: Int?
    private var sourceMetadata: ImageMetadata?
    private var finalized = false

    /// A frame waiting to be encoded.
    private enum PendingFrame {
        case frame(EncodingFrame)
        case source(ImageSource, index: Int, duration: Duration)
    }

    /// A destination for `format`, with the encoder `registry` resolves for it.
    public init(format: ImageFormat, options: EncodingOptions = .init(),
                registry: CoderRegistry = .standard) throws(EncodingError) {
        try options.validate()
        guard let coder = registry.encoder(for: format) else { throw .unsupported("no encoder for this format") }
        self.format = format
        self.options = options
        self.coder = coder
        let probe = try coder.makeEncoder(options: options)
        supportsAnimation = probe.supportsAnimation
        isLossy = probe.isLossy
    }

    /// The size of every frame written (after ``EncodingOptions/maxPixelSize``), once a frame
    /// was added.
    public var canvasSize: (width: Int, height: Int)? { frameSize }

    /// Frames added so far (after ``EncodingOptions/firstFrameOnly``).
    public var frameCount: Int { frames.count }

    /// Adds a decoded image as the next frame, shown for `duration` (100 ms when nil).
    public func add(_ image: DecodedImage, duration: Duration? = nil) throws(EncodingError) {
        try add(EncodingFrame(image: image, duration: duration ?? EncodingFrame.defaultDuration))
    }

    /// Adds a frame: a raster, or rows the caller provides (``EncodingFrame``).
    public func add(_ frame: EncodingFrame) throws(EncodingError) {
        guard try accepts(width: frame.width, height: frame.height, shrinks: true) else { return }
        guard let maxPixelSize = options.maxPixelSize else {
            frames.append(.frame(frame))
            return
        }
        let size = StreamingResampler.fittedSize(width: frame.width, height: frame.height, maxPixelSize: maxPixelSize)
        guard size.width != frame.width || size.height != frame.height else {
            frames.append(.frame(frame))
            return
        }
        let small = StreamingResampler.resample(Self.rgba8(frame.raster()), toWidth: size.width, height: size.height)
        frames.append(.frame(try EncodingFrame(raster: small, duration: frame.duration)))
    }

    /// Adds every frame of a complete source (only the first when ``EncodingOptions/firstFrameOnly``
    /// is set or the format holds one frame) with its duration, and takes the source's loop count
    /// and metadata where the options leave them unset. Frames are decoded when the file is written.
    /// A source decoding to sRGB (``DecodingOptions/colorSpace``) gives sRGB pixels, so its ICC
    /// profile is not carried over: the file is written untagged, which readers take as sRGB.
    public func add(contentsOf source: ImageSource) throws(EncodingError) {
        guard source.status == .complete else {
            throw .decodingFailed(source.error ?? .truncated("the source is not complete"))
        }
        guard let properties = source.properties, source.count > 0 else {
            throw .decodingFailed(.invalidData("the source has no frames"))
        }
        let count = options.firstFrameOnly || !supportsAnimation ? 1 : source.count
        var size = (width: properties.width, height: properties.height)
        if let maxPixelSize = options.maxPixelSize {
            size = StreamingResampler.fittedSize(width: size.width, height: size.height, maxPixelSize: maxPixelSize)
        }
        for index in 0..<count {
            guard try accepts(width: size.width, height: size.height, shrinks: false) else { return }
            let seconds = source.properties(at: index)?.unclampedDuration ?? 0
            let milliseconds = seconds.isFinite ? min(max(seconds * 1000, 0), 1e12).rounded() : 0
            frames.append(.source(source, index: index, duration: .milliseconds(Int64(milliseconds))))
        }
        if sourceLoopCount == nil, source.count > 1 { sourceLoopCount = properties.loopCount }
        if sourceMetadata == nil {
            var metadata = ImageMetadata(properties)
            if source.convertsToSRGB(properties) { metadata.iccProfile = nil }
            sourceMetadata = metadata
        }
    }

    /// Whether a frame of this size is taken (false: dropped by firstFrameOnly); throws when it
    /// cannot be. `shrinks`: the size is before ``EncodingOptions/maxPixelSize``.
    private func accepts(width: Int, height: Int, shrinks: Bool) throws(EncodingError) -> Bool {
        guard !finalized else { throw .invalidRequest("the destination is finalized") }
        guard width > 0, height > 0 else { throw .invalidRequest("frame width and height must be positive") }
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        guard !overflow, pixels <= options.limits.maxPixels else { throw .limitExceeded("frame above limits.maxPixels") }
        if !frames.isEmpty {
            if options.firstFrameOnly { return false }
            guard supportsAnimation else { throw .invalidRequest("the format holds one frame") }
            guard frames.count < options.limits.maxFrames else { throw .limitExceeded("more frames than limits.maxFrames") }
        }
        var size = (width: width, height: height)
        if shrinks, let maxPixelSize = options.maxPixelSize {
            size = StreamingResampler.fittedSize(width: width, height: height, maxPixelSize: maxPixelSize)
        }
        if let frameSize {
            guard frameSize == size else { throw .invalidRequest("frames of an animation must have one size") }
        } else {
            frameSize = size
        }
        return true
    }

    /// Writes the file and returns it.
    public func finalize() throws(EncodingError) -> [UInt8] {
        var sink = ByteArraySink()
        try finalize(to: &sink)
        return sink.bytes
    }

    /// Writes the file to `sink` as it is encoded. With ``EncodingOptions/maxFileSize`` the file
    /// is made in memory first (it may be made more than once), then written.
    public func finalize(to sink: inout some ByteSink) throws(EncodingError) {
        guard !finalized else { throw .invalidRequest("the destination is finalized") }
        guard let size = frameSize, !frames.isEmpty else { throw .invalidRequest("no frames were added") }
        finalized = true
        var metadata = options.metadata
        if let sourceMetadata { metadata.fillUnset(from: sourceMetadata) }
        let canvas = EncodingCanvas(width: size.width, height: size.height, frameCount: frames.count,
                                    loopCount: options.loopCount ?? sourceLoopCount ?? 0, metadata: metadata)
        guard let maxFileSize = options.maxFileSize else {
            try encode(canvas, options, to: &sink)
            return
        }
        let best = try FileSizeSearch.best(fitting: maxFileSize, options: options, lossy: isLossy) { (o) throws(EncodingError) in
            var buffer = ByteArraySink()
            try encode(canvas, o, to: &buffer)
            return buffer.bytes
        }
        try sink.write(best)
    }

    /// Runs one encoder over every frame. The encoding counts as holding a core of the worker
    /// pool's machine (`WorkerPool.occupying`), as a source's decoding of a frame does.
    private func encode(_ canvas: EncodingCanvas, _ options: EncodingOptions,
                        to sink: inout some ByteSink) throws(EncodingError) {
        let pool = WorkerPool.shared
        var encoder = try coder.makeEncoder(options: options)
        try pool.occupying { () throws(EncodingError) in try encoder.begin(canvas, to: &sink) }
        for pending in frames {
            let frame = try materialize(pending)
            try pool.occupying { () throws(EncodingError) in try encoder.add(frame, to: &sink) }
        }
        try pool.occupying { () throws(EncodingError) in try encoder.finish(to: &sink) }
    }

    /// The frame to encode; a source's frame is decoded now.
    private func materialize(_ pending: PendingFrame) throws(EncodingError) -> EncodingFrame {
        switch pending {
        case .frame(let frame):
            return frame
        case .source(let source, let index, let duration):
            let image: DecodedImage
            do {
                if let maxPixelSize = options.maxPixelSize {
                    image = try source.thumbnail(at: index, maxPixelSize: maxPixelSize, applyOrientation: false)
                } else {
                    image = try source.image(at: index)
                }
            } catch {
                throw .decodingFailed(error)
            }
            return try EncodingFrame(image: image, duration: duration)
        }
    }

    /// An RGBA8 raster of `raster` (16-bit samples narrowed).
    private static func rgba8(_ raster: Raster) -> Raster {
        guard raster.bytesPerPixel == 8 else { return raster }
        return Raster(width: raster.width, height: raster.height, bytesPerPixel: 4,
                      pixels: PixelConversion.narrowRGBA16(raster.pixels))
    }
}
