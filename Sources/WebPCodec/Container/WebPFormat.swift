import CodecCore

/// Decodes WebP files (RFC 9649) on the shared ``FrameDriver``: simple and extended (VP8X)
/// stills whose image is lossless (VP8L) or lossy (VP8, with or without an ALPH chunk), and
/// animations (ANIM, ANMF) of such frames, composed as libwebp's `WebPAnimDecoder` shows them
/// (WebPFormat+Animation.swift).
package typealias WebPDecoder = FrameDriver<WebPFormat>

/// WebP's part of a decoder: the chunk parser (``WebPContainerParser``) and each bitstream's
/// decoding, resumed where it stopped (``WebPJob``).
package struct WebPFormat: FrameFormat {
    package typealias Job = WebPJob

    let options: DecodingOptions
    package var container: WebPContainerParser
    /// Per animation frame, whether libwebp's WebPAnimDecoder treats it as a key frame.
    var keyFrames: [Bool] = []
    /// The ICCP, EXIF and XMP payloads, each read once it has arrived whole.
    private var icc: [UInt8]?, exif: [UInt8]?, xmp: [UInt8]?
    private var metadataRevision = 0

    /// "RIFF" at 0 and "WEBP" at 8 (RFC 9649 section 2.5); bytes 4–7 are the size.
    package static func sniff(_ prefix: UnsafeBufferPointer<UInt8>) -> Bool? {
        let riff: [UInt8] = Array("RIFF".utf8), webp: [UInt8] = Array("WEBP".utf8)
        for i in 0..<12 {
            guard i < prefix.count else { return nil }
            if i < 4 && prefix[i] != riff[i] { return false }
            if i >= 8 && prefix[i] != webp[i - 8] { return false }
        }
        return true
    }

    package init(options: DecodingOptions) {
        self.options = options
        container = WebPContainerParser(limits: options.limits)
    }

    package mutating func parse(_ input: InputBuffer) throws(DecodingError) {
        defer { readMetadata(input) }
        try container.parse(input)
    }

    package var revision: Int { container.revision &+ metadataRevision << 32 }

    /// Canvas (VP8X) or image size, alpha (the VP8X flag, or VP8L's alpha hint), loop count
    /// (ANIM), and the ICCP, EXIF (with its orientation) and XMP chunks once they have arrived.
    package func makeProperties() -> ImageProperties? {
        let width: Int, height: Int, hasAlpha: Bool
        if let x = container.extended {
            (width, height, hasAlpha) = (x.canvasWidth, x.canvasHeight, x.hasAlpha)
        } else if let first = container.frames.first {
            (width, height, hasAlpha) = (first.bitstream.width, first.bitstream.height, first.bitstream.hasAlpha)
        } else {
            return nil
        }
        var p = ImageProperties(width: width, height: height, bitDepth: 8, hasAlpha: hasAlpha, isInterlaced: false)
        if let animation = container.animation {
            p.loopCount = animation.loopCount
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
        return p
    }

    /// Reads each metadata chunk once its payload has arrived whole (one larger than
    /// ``Limits/maxMetadataBytes`` is left out).
    private mutating func readMetadata(_ input: InputBuffer) {
        func take(_ range: Range<Int>?, _ held: inout [UInt8]?) -> Int {
            guard held == nil, let range, range.count <= options.limits.maxMetadataBytes,
                  input.has(range.count, at: range.lowerBound) else { return 0 }
            held = input.copy(range)
            return 1
        }
        metadataRevision += take(container.icc, &icc) + take(container.exif, &exif) + take(container.xmp, &xmp)
    }

    /// EXIF as TIFF bytes: a leading "Exif\0\0" (some writers keep JPEG's APP1 prefix) is dropped.
    static func tiffPayload(_ exif: [UInt8]) -> [UInt8] {
        exif.starts(with: Array("Exif\0\0".utf8)) ? Array(exif.dropFirst(6)) : exif
    }

    package var frameCount: Int { container.frames.count }

    package func frameProperties(at index: Int) -> FrameProperties? { container.frames[existing: index]?.properties }

    /// A lossy still's last partition runs to the end of the input, whose bytes past the chunk
    /// the bool decoder may still read ahead: it is complete once its rows are all decoded.
    package func isFrameComplete(at index: Int, still: Job?) -> Bool {
        guard let frame = container.frames[existing: index], frame.bitstream.dataEnd <= container.available else { return false }
        if !container.isAnimated && frame.bitstream.kind == .lossy {
            return still?.image.isFinished == true || container.ended
        }
        return true
    }


    /// Stills shrink as their rows come out: of the VP8 decoder (which holds a band of rows,
    /// never the planes or the full-size RGBA) or of the VP8L decoder (which holds a window of
    /// the coded image and a batch of rows).
    package var shrinksWhileDecoding: Bool { !container.isAnimated && !container.frames.isEmpty }

    package func makeJob(for purpose: FrameJobPurpose, input: InputBuffer, limits: Limits) throws(DecodingError) -> Job? {
        let frames = container.frames
        switch purpose {
        case .still:
            return frames.first.map { WebPJob(image: WebPImageJob($0.bitstream, end: nil), limits: limits) }
        case .frame(let j):
            guard frames.indices.contains(j) else { return nil }
            let bitstream = frames[j].bitstream
            return WebPJob(image: WebPImageJob(bitstream, end: bitstream.dataEnd), limits: limits)
        case .thumbnail(let width, let height):
            guard let bitstream = frames.first?.bitstream else { return nil }
            let job = WebPImageJob(bitstream, end: nil, output: .thumbnail(width: width, height: height))
            return WebPJob(image: job, limits: limits)
        }
    }

    /// Decodes as far as the input goes. Running out of bytes in a cut file (final input, chunk
    /// or file incomplete) keeps the rows decoded, and the source reports `unexpectedEOF`; any
    /// other error is the frame's (or, for a still, the file's).
    package func advance(_ job: inout Job, for purpose: FrameJobPurpose, input: InputBuffer,
                         region: CanvasRegion?) throws(DecodingError) {
        let index = purpose.frameIndex
        let bitstream = container.frames[index].bitstream
        let cut = if case .frame = purpose { bitstream.dataEnd > input.count } else { !container.ended }
        do throws(DecodingError) {
            try job.image.advance(input, limits: job.limits)
        } catch where error.kind == .truncated && input.isFinal && cut {
            // What was decoded is the answer.
        }
        let isFrame = if case .frame = purpose { true } else { false }
        if !isFrame && !input.isFinal && bitstream.payload.upperBound <= input.count {
            job.finishEarly(input)
        }
    }

    package func isFinished(_ job: Job) -> Bool { job.image.isFinished }

    package func finalRowCount(_ job: Job) -> Int {
        job.image.thumbnail?.finishedOutputRows ?? job.image.finalRowCount
    }

    package func raster(_ job: Job) -> Raster? { job.image.thumbnail?.raster ?? job.image.raster() }

    package func heldBytes(_ job: Job) -> Int { job.image.heldBytes }
}

/// A WebP bitstream's decoding, with what it may allocate.
package struct WebPJob {
    var image: WebPImageJob
    /// The limits it was made under, ``Limits/maxBytesHeld`` being what the driver's other
    /// buffers leave.
    let limits: Limits
    private var triedEarlyFinish = false

    init(image: WebPImageJob, limits: Limits) {
        self.image = image
        self.limits = limits
    }

    /// A still whose chunk has arrived whole is decoded to its end on trial, once
    /// (``WebPLosslessJob/finishEarly(_:limits:)``).
    mutating func finishEarly(_ input: InputBuffer) {
        guard !triedEarlyFinish else { return }
        triedEarlyFinish = true
        image.finishEarly(input, limits: limits)
    }
}
