import CodecCore

/// Decodes PNG and APNG (PNG 3rd edition, W3C 2025; APNG 1.0) as a resumable state machine.
///
/// Frames are numbered as browsers show them: a still PNG has one frame; an APNG has its
/// animation frames, composited onto the full canvas (a default image that is not part of the
/// animation is not a frame).
public final class PNGDecoder: ImageDecoding {
    let options: DecodingOptions
    private(set) var container: PNGContainer
    public private(set) var error: DecodingError?
    /// Decodes the default (IDAT) image when it is shown on its own.
    private var still: PNGFrameDecoder?
    /// The composed animation canvas and its random-access plan.
    var canvas: AnimationCanvas?
    /// The frame being decoded for the compositor, and its index.
    var pending: (index: Int, decoder: PNGFrameDecoder)?
    /// The thumbnail being decoded, kept so that the next request for that size resumes it.
    private var thumbnailJob: (width: Int, height: Int, decoder: PNGFrameDecoder)?

    /// The eight bytes every PNG starts with (§5.2).
    public static let signature = PNGContainer.signature

    public init(options: DecodingOptions) {
        self.options = options
        container = PNGContainer(options: options)
    }

    public func advance(_ input: InputBuffer) throws(DecodingError) {
        try DecodingError.sticky(&error) { () throws(DecodingError) in try container.parse(input) }
        guard options.decodesImmediately, frameCount > 0 else { return }
        if isStandalone(0) {
            try DecodingError.sticky(&error) { () throws(DecodingError) in _ = try stillDecoder(input) }
        } else {
            try checkCanvas()
            // A frame's pixel error is thrown when that frame's image is asked for.
            _ = try? composite(AnimationCanvas.immediateTarget(canvas, frameCount: frameCount), input, makeImage: false)
        }
    }


    /// Properties as of a container revision: resolving them inflates compressed metadata,
    /// which must not happen again on every status query while bytes arrive.
    private var resolved: (revision: Int, properties: ImageProperties)?

    public var properties: ImageProperties? {
        guard let h = container.header else { return nil }
        if let resolved, resolved.revision == container.revision { return resolved.properties }
        var p = ImageProperties(width: h.width, height: h.height, bitDepth: h.bitDepth,
                                hasAlpha: h.colorType == .greyscaleAlpha || h.colorType == .truecolorAlpha
                                    || container.transparency != nil,
                                isInterlaced: h.interlaced)
        if container.isAnimated, let plays = container.animationControl?.plays { p.loopCount = plays }
        container.metadata.resolve(into: &p, limit: options.limits.maxMetadataBytes,
                                   ignoresChecksums: options.ignoresChecksums)
        resolved = (container.revision, p)
        return p
    }

    public var frameCount: Int { container.frameCount }

    public func frameProperties(at index: Int) -> FrameProperties? {
        container.frame(at: index)?.properties
    }

    public func isFrameComplete(at index: Int) -> Bool {
        container.frame(at: index)?.complete == true
    }

    public var isComplete: Bool { container.ended }

    public func image(at index: Int, input: InputBuffer) throws(DecodingError) -> DecodedImage {
        if let error { throw error }
        guard index >= 0, index < frameCount else { throw .invalidRequest("frame index out of range") }
        if isStandalone(index) {
            return try DecodingError.sticky(&error) { () throws(DecodingError) in
                let decoder = try stillDecoder(input)
                return DecodedImage(raster: preview(decoder), finalRowCount: decoder.finalRowCount, options: options)
            }
        }
        try checkCanvas()
        guard let image = try composite(index, input) else { throw .invalidRequest("frame index out of range") }
        return image
    }

    /// The animation canvas must fit the limits; unlike a frame's pixel error this concerns
    /// every frame, so it stops the decoder for good.
    private func checkCanvas() throws(DecodingError) {
        guard let header = container.header else { return }
        try DecodingError.sticky(&error) { () throws(DecodingError) in
            _ = try options.limits.checkedRasterBytes(width: header.width, height: header.height, bytesPerPixel: 4)
        }
    }

    /// Shrinks the still image, or the first frame of an animation (drawn on a transparent
    /// canvas, so its pixels are the canvas's), as its rows and Adam7 passes are decoded. The
    /// decoding is kept, so a thumbnail of the same size asked for after more bytes arrived
    /// resumes it. Other frames are composed on earlier ones and are shrunk from the composed
    /// canvas.
    public func streamingThumbnail(at index: Int, width: Int, height: Int,
                                   input: InputBuffer) throws(DecodingError) -> DecodedImage? {
        guard let header = container.header, index == 0, still?.finished != true,
              let frame = container.frame(at: 0) else { return nil }
        return try DecodingError.sticky(&error) { () throws(DecodingError) in
            let decoder: PNGFrameDecoder
            if let job = thumbnailJob, job.width == width, job.height == height {
                decoder = job.decoder
            } else {
                // The full-size image is never held, but its pixel count is bounded all the same.
                _ = try options.limits.checkedRasterBytes(width: header.width, height: header.height, bytesPerPixel: 1)
                _ = try options.limits.checkedRasterBytes(width: width, height: height,
                                                          bytesPerPixel: StreamingResampler.bytesPerOutputPixel)
                let p = frame.properties
                let resampler = StreamingResampler(inputWidth: header.width, inputHeight: header.height,
                                                   outputWidth: width, outputHeight: height)
                decoder = try PNGFrameDecoder(header: header, width: p.width, height: p.height,
                                              converter: makeConverter(header, sixteenBit: false),
                                              thumbnail: resampler, origin: (p.x, p.y),
                                              ignoresChecksum: options.ignoresChecksums)
                thumbnailJob = (width, height, decoder)
            }
            try decoder.decode(segments: frame.segments, dataComplete: frame.complete, input: input)
            guard let shrunk = decoder.resampler else { return nil }
            return DecodedImage(raster: shrunk.raster, finalRowCount: shrunk.finishedOutputRows, options: options)
        }
    }

    /// Whether frame `index` is the static image, shown without compositing.
    func isStandalone(_ index: Int) -> Bool { !container.isAnimated }

    func stillDecoder(_ input: InputBuffer) throws(DecodingError) -> PNGFrameDecoder {
        guard let header = container.header, let frame = container.frame(at: 0) else {
            throw .invalidRequest("frame index out of range")
        }
        let decoder: PNGFrameDecoder
        if let still {
            decoder = still
        } else {
            decoder = try makeFrameDecoder(
                width: header.width, height: header.height,
                sixteenBit: options.prefersSixteenBitOutput && header.bitDepth == 16 && !container.isAnimated)
            still = decoder
        }
        try decoder.decode(segments: frame.segments, dataComplete: frame.complete, input: input)
        return decoder
    }

    /// The decoder's raster, with unfinished Adam7 passes filled in from the finished ones.
    func preview(_ decoder: PNGFrameDecoder) -> Raster {
        var raster = decoder.raster
        if container.header?.interlaced == true && !decoder.finished {
            Adam7.expandPreview(&raster.pixels, width: raster.width, height: raster.height,
                                bytesPerPixel: raster.bytesPerPixel, passesDone: decoder.passesDone)
        }
        return raster
    }

    func makeFrameDecoder(width: Int, height: Int, sixteenBit: Bool) throws(DecodingError) -> PNGFrameDecoder {
        guard let header = container.header else { throw .invalidRequest("header not read yet") }
        let bpp = sixteenBit ? 8 : 4
        _ = try options.limits.checkedRasterBytes(width: width, height: height, bytesPerPixel: bpp)
        return try PNGFrameDecoder(header: header, width: width, height: height,
                                   converter: makeConverter(header, sixteenBit: sixteenBit),
                                   ignoresChecksum: options.ignoresChecksums)
    }

    /// The palette with tRNS alpha (§11.3.2.1), and the colour key for types 0 and 2.
    private func makeConverter(_ header: PNGHeader, sixteenBit: Bool) -> PNGRowConverter {
        var table = [UInt8](repeating: 0, count: 1024)
        for i in 0..<256 { table[i * 4 + 3] = 255 }
        let plte = container.palette, trns = container.transparency ?? []
        for i in 0..<(plte.count / 3) {
            table[i * 4] = plte[i * 3]
            table[i * 4 + 1] = plte[i * 3 + 1]
            table[i * 4 + 2] = plte[i * 3 + 2]
            if header.colorType == .indexed && i < trns.count { table[i * 4 + 3] = trns[i] }
        }
        var key: (UInt16, UInt16, UInt16)?
        func sample(_ i: Int) -> UInt16 { UInt16(trns[i]) << 8 | UInt16(trns[i + 1]) }
        if header.colorType == .greyscale && trns.count == 2 { key = (sample(0), sample(0), sample(0)) }
        if header.colorType == .truecolor && trns.count == 6 { key = (sample(0), sample(2), sample(4)) }
        return PNGRowConverter(header: header, palette: table, key: key, sixteenBit: sixteenBit)
    }
}
