import CodecCore

/// Decodes WebP files (RFC 9649) as a resumable state machine: simple and extended (VP8X)
/// stills whose image is lossless (VP8L) or lossy (VP8, with or without an ALPH chunk), and
/// animations (ANIM, ANMF) of such frames, composited as libwebp's `WebPAnimDecoder` shows
/// them (WebPDecoder+Animation.swift).
///
/// The container (``WebPContainerParser``) is parsed as bytes arrive; pixels are decoded when an
/// image is asked for (or as bytes arrive with ``DecodingOptions/decodesImmediately``), each
/// bitstream resuming where it stopped (``WebPImageJob``: ``WebPLosslessJob``, ``WebPLossyJob``).
public final class WebPDecoder: ImageDecoding {
    let options: DecodingOptions
    var container: WebPContainerParser
    public private(set) var error: DecodingError?
    /// The still image's decoding.
    var still: WebPImageJob?
    /// The still's chunk arrived whole and its end was decoded on trial (``WebPLosslessJob/finishEarly``).
    var triedEarlyFinish = false
    /// The composed animation canvas and its random-access plan.
    var canvas: AnimationCanvas?
    /// The animation frame being decoded for the compositor, and its index.
    var pending: (index: Int, job: WebPImageJob)?
    /// Per animation frame, whether libwebp's WebPAnimDecoder treats it as a key frame.
    var keyFrames: [Bool] = []
    /// Pixel errors of animation frames, thrown for those frames only.
    var frameErrors: [Int: DecodingError] = [:]
    private var cachedProperties: (revision: Int, value: ImageProperties)?
    /// The lossy thumbnail being decoded, kept so that the next request for that size resumes it.
    private var thumbnailJob: (width: Int, height: Int, job: WebPLossyJob)?
    /// The ICCP, EXIF and XMP payloads, each read once it has arrived whole.
    private var icc: [UInt8]?, exif: [UInt8]?, xmp: [UInt8]?
    private var metadataRevision = 0

    /// "RIFF" at 0 and "WEBP" at 8 (RFC 9649 section 2.5); bytes 4–7 are the size.
    public static func sniff(_ prefix: UnsafeBufferPointer<UInt8>) -> Bool? {
        let riff: [UInt8] = Array("RIFF".utf8), webp: [UInt8] = Array("WEBP".utf8)
        for i in 0..<12 {
            guard i < prefix.count else { return nil }
            if i < 4 && prefix[i] != riff[i] { return false }
            if i >= 8 && prefix[i] != webp[i - 8] { return false }
        }
        return true
    }

    public init(options: DecodingOptions) {
        self.options = options
        container = WebPContainerParser(limits: options.limits)
    }

    /// Reads the chunk headers that have arrived (errors are sticky); with
    /// ``DecodingOptions/decodesImmediately`` decodes the pixels too.
    public func advance(_ input: InputBuffer) throws(DecodingError) {
        try DecodingError.sticky(&error) { () throws(DecodingError) in try container.parse(input) }
        readMetadata(input)
        guard options.decodesImmediately, frameCount > 0 else { return }
        if container.isAnimated {
            try checkCanvas()
            _ = try? composite(AnimationCanvas.immediateTarget(canvas, frameCount: frameCount), input, makeImage: false)
        } else {
            _ = try stillImage(input)
        }
    }

    /// Canvas (VP8X) or image size, alpha (the VP8X flag, or VP8L's alpha hint), loop count
    /// (ANIM), and the ICCP, EXIF (with its orientation) and XMP chunks once they have arrived.
    public var properties: ImageProperties? {
        let width: Int, height: Int, hasAlpha: Bool
        if let x = container.extended {
            (width, height, hasAlpha) = (x.canvasWidth, x.canvasHeight, x.hasAlpha)
        } else if let first = container.frames.first {
            (width, height, hasAlpha) = (first.bitstream.width, first.bitstream.height, first.bitstream.hasAlpha)
        } else {
            return nil
        }
        let revision = container.revision &+ metadataRevision << 32
        if let cached = cachedProperties, cached.revision == revision { return cached.value }
        var p = ImageProperties(width: width, height: height, bitDepth: 8, hasAlpha: hasAlpha, isInterlaced: false)
        if let animation = container.animation { p.loopCount = animation.loopCount }
        if let animation = container.animation {
            let c = animation.backgroundColor
            p.backgroundColor = [Int(c >> 16 & 0xFF), Int(c >> 8 & 0xFF), Int(c & 0xFF)]
        }
        p.iccProfile = icc
        if let exif {
            p.exif = Self.tiffPayload(exif)
            if let orientation = Orientation.fromEXIF(exif) { p.orientation = orientation }
        }
        if let xmp {
            p.text.append(TextEntry(keyword: "XML:com.adobe.xmp", text: String(decoding: xmp, as: UTF8.self)))
        }
        cachedProperties = (revision, p)
        return p
    }

    /// Reads each metadata chunk once its payload has arrived whole (one larger than
    /// ``Limits/maxMetadataBytes`` is left out).
    func readMetadata(_ input: InputBuffer) {
        func take(_ range: Range<Int>?, _ held: inout [UInt8]?) {
            guard held == nil, let range, range.count <= options.limits.maxMetadataBytes,
                  input.has(range.count, at: range.lowerBound) else { return }
            held = input.copy(range)
            metadataRevision += 1
        }
        take(container.icc, &icc)
        take(container.exif, &exif)
        take(container.xmp, &xmp)
    }

    /// EXIF as TIFF bytes: a leading "Exif\0\0" (some writers keep JPEG's APP1 prefix) is dropped.
    static func tiffPayload(_ exif: [UInt8]) -> [UInt8] {
        exif.starts(with: Array("Exif\0\0".utf8)) ? Array(exif.dropFirst(6)) : exif
    }

    public var frameCount: Int { container.frames.count }

    public func frameProperties(at index: Int) -> FrameProperties? {
        let frames = container.frames
        return frames.indices.contains(index) ? frames[index].properties : nil
    }

    public func isFrameComplete(at index: Int) -> Bool {
        let frames = container.frames
        guard frames.indices.contains(index), frames[index].bitstream.dataEnd <= container.available else { return false }
        // A lossy still's last partition runs to the end of the input, whose bytes past the chunk
        // the bool decoder may still read ahead: it is complete once its rows are all decoded.
        if !container.isAnimated && frames[index].bitstream.kind == .lossy {
            return still?.isFinished == true || container.ended
        }
        return true
    }

    public var isComplete: Bool { container.ended }

    public func image(at index: Int, input: InputBuffer) throws(DecodingError) -> DecodedImage {
        if let error { throw error }
        guard index >= 0, index < frameCount else { throw .invalidRequest("frame index out of range") }
        if !container.isAnimated {
            let job = try stillImage(input)
            guard let raster = job.raster() else {
                let frame = container.frames[0].bitstream
                return DecodedImage(raster: Raster(width: frame.width, height: frame.height, bytesPerPixel: 4),
                                    finalRowCount: 0, options: options)
            }
            return DecodedImage(raster: raster, finalRowCount: job.finalRowCount, options: options)
        }
        try checkCanvas()
        guard let image = try composite(index, input) else { throw .invalidRequest("frame index out of range") }
        return image
    }

    /// The still image decoded as far as the input goes. Running out of final bytes before
    /// the file's end is a truncation (the source reports `unexpectedEOF`, the rows decoded stay);
    /// any other error, or running out in a file whose chunks are all there, is sticky.
    func stillImage(_ input: InputBuffer) throws(DecodingError) -> WebPImageJob {
        try DecodingError.sticky(&error) { () throws(DecodingError) -> WebPImageJob in
            let frame = container.frames[0].bitstream
            var job = still ?? WebPImageJob(frame, end: nil)
            still = nil
            defer { still = job }
            do throws(DecodingError) {
                try job.advance(input, limits: options.limits)
            } catch where error.kind == .truncated && input.isFinal && !container.ended {
                // A cut file: what was decoded is the answer.
            }
            if !input.isFinal && !triedEarlyFinish && frame.payload.upperBound <= input.count {
                triedEarlyFinish = true
                job.finishEarly(input, limits: options.limits)
            }
            return job
        }
    }

    /// The animation canvas must fit the limits; this concerns every frame, so it is sticky.
    func checkCanvas() throws(DecodingError) {
        guard let x = container.extended else { return }
        try DecodingError.sticky(&error) { () throws(DecodingError) in
            _ = try options.limits.checkedRasterBytes(width: x.canvasWidth, height: x.canvasHeight, bytesPerPixel: 4)
        }
    }

    /// A lossy still shrunk as its rows come out of the VP8 decoder (which holds a band of
    /// rows, never the planes or the full-size RGBA). The decoding is kept, so a thumbnail of
    /// the same size asked for after more bytes arrived resumes it. Nil (the caller shrinks ``image(at:input:)``) for lossless images and animations, whose
    /// decoders hold the whole image anyway, and once the still has been decoded in full.
    public func streamingThumbnail(at index: Int, width: Int, height: Int,
                                   input: InputBuffer) throws(DecodingError) -> DecodedImage? {
        if let error { throw error }
        guard index == 0, !container.isAnimated, let frame = container.frames.first?.bitstream,
              frame.kind == .lossy, still?.isFinished != true else { return nil }
        return try DecodingError.sticky(&error) { () throws(DecodingError) -> DecodedImage? in
            var job = thumbnailJob.flatMap { $0.width == width && $0.height == height ? $0.job : nil }
                ?? WebPLossyJob(bitstream: frame, end: nil, output: .thumbnail(width: width, height: height))
            thumbnailJob = nil
            defer { thumbnailJob = (width, height, job) }
            do throws(DecodingError) {
                try job.advance(input, limits: options.limits)
            } catch where error.kind == .truncated && input.isFinal && !container.ended {
                // A cut file: what was decoded is the answer.
            }
            guard let shrunk = job.decoder?.thumbnail else {
                return DecodedImage(raster: Raster(width: width, height: height, bytesPerPixel: 4), finalRowCount: 0,
                                    options: options)
            }
            return DecodedImage(raster: shrunk.raster, finalRowCount: shrunk.finishedOutputRows, options: options)
        }
    }
}
