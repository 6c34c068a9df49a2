import CodecCore

/// One VP8 bitstream (RFC 6386 key frame), with its ALPH chunk if it has one (RFC 9649
/// 2.7.1.2), being decoded as its bytes arrive, for ``WebPFormat``.
///
/// ``VP8Decoder`` reads one contiguous run from the VP8 payload's start (``WebPByteRun``): for
/// a still image to the end of the input (libwebp's `DecodeInto` gives the last partition the
/// rest of the data), for an animation frame to the end of its chunk. The alpha plane's
/// decoder (``WebPAlphaRows``) starts with the colour decoder, from the ALPH chunk (which comes
/// before the VP8 chunk, so it has arrived), and decodes its rows as the colour rows come out;
/// a bad ALPH chunk fails the image, as it fails libwebp's decode.
struct WebPLossyJob {
    /// The VP8 payload's first byte and the chunk's size.
    let start: Int
    let chunkSize: Int
    /// The bitstream's end for a frame; nil for a still image (the end of the input).
    let end: Int?
    /// The ALPH chunk's payload, if the image has one.
    let alphaChunk: Range<Int>?
    /// A full image, or a thumbnail shrunk as the rows come out.
    let output: VP8Decoder.Output
    private var run: WebPByteRun
    private(set) var decoder: VP8Decoder?

    init(bitstream: WebPBitstream, end: Int?, output: VP8Decoder.Output = .image) {
        start = bitstream.payload.lowerBound
        self.output = output
        chunkSize = bitstream.payload.count
        self.end = end
        alphaChunk = bitstream.alphaChunk
        run = WebPByteRun(start: start)
    }

    var finalRowCount: Int { decoder?.finalRowCount ?? 0 }
    var isFinished: Bool { decoder.map { $0.finalRowCount == $0.height } ?? false }

    /// Decodes as far as the input allows. Throws `truncated` when the bytes are final and run
    /// out (the rows before ``finalRowCount`` stay valid), `invalidData` for a bad ALPH chunk,
    /// any other error as it comes.
    mutating func advance(_ input: InputBuffer, limits: Limits) throws(DecodingError) {
        guard !isFinished else { return }
        let isFinal = input.isFinal || end.map { input.count >= $0 } == true
        let limit = min(end ?? input.count, input.count)
        if run.shouldWait(upTo: limit, started: decoder != nil, isFinal: isFinal) { return }
        // As in WebPLosslessJob: the decoder leaves the struct while it runs.
        var (decoder, attempt) = (self.decoder, run.lastStart)
        self.decoder = nil
        defer { (self.decoder, run.lastStart) = (decoder, attempt) }
        let (chunkSize, output, alphaChunk) = (self.chunkSize, self.output, self.alphaChunk)
        try run.withBytes(input, to: limit) { (bytes) throws(DecodingError) in
            if decoder == nil {
                attempt = bytes.count
                var started = try VP8Decoder.start(bytes, chunkSize: chunkSize, isFinal: isFinal, limits: limits,
                                                   output: output)
                if var colour = started, let alphaChunk {
                    colour.alpha = try WebPAlphaRows(chunk: alphaChunk, of: input, width: colour.width,
                                                     height: colour.height, limits: limits)
                    started = colour
                }
                decoder = started
            }
            try decoder?.decode(bytes, isFinal: isFinal)
        }
    }

    /// The image's pixels so far (RGBA8, rows past ``finalRowCount`` transparent black).
    func raster() -> Raster? {
        guard let decoder else { return nil }
        return Raster(width: decoder.width, height: decoder.height, bytesPerPixel: 4, pixels: decoder.rgba())
    }
}

/// The decoding of a still image or an animation frame, lossless or lossy.
enum WebPImageJob {
    case lossless(WebPLosslessJob)
    case lossy(WebPLossyJob)
    /// Held only while a job is out being advanced, so that its buffers are not shared (and
    /// copied on write).
    case moving

    /// A job for `bitstream`, whose bytes end at `end` (a frame) or with the input (a still),
    /// making `output`.
    init(_ bitstream: WebPBitstream, end: Int?, output: VP8Decoder.Output = .image) {
        switch bitstream.kind {
        case .lossless: self = .lossless(WebPLosslessJob(start: bitstream.payload.lowerBound, end: end, output: output))
        case .lossy: self = .lossy(WebPLossyJob(bitstream: bitstream, end: end, output: output))
        }
    }

    /// A thumbnail job's resampler, once the decoder has started.
    var thumbnail: StreamingResampler? {
        switch self {
        case .lossless(let job): job.decoder?.thumbnail
        case .lossy(let job): job.decoder?.thumbnail
        case .moving: nil
        }
    }

    var finalRowCount: Int {
        switch self {
        case .lossless(let job): job.finalRowCount
        case .lossy(let job): job.finalRowCount
        case .moving: 0
        }
    }

    var isFinished: Bool {
        switch self {
        case .lossless(let job): job.isFinished
        case .lossy(let job): job.isFinished
        case .moving: false
        }
    }

    /// Bytes held in buffers that grow with the image: the RGBA image (or a thumbnail's
    /// resampler), the alpha plane's decoder, and VP8L's window of the coded image.
    var heldBytes: Int {
        switch self {
        case .lossless(let job): return job.decoder?.heldBytes ?? 0
        case .lossy(let job):
            guard let decoder = job.decoder else { return 0 }
            return (decoder.thumbnail?.heldBytes ?? decoder.width * decoder.height * 4) + (decoder.alpha?.heldBytes ?? 0)
        case .moving: return 0
        }
    }

    func raster() -> Raster? {
        switch self {
        case .lossless(let job): job.raster()
        case .lossy(let job): job.raster()
        case .moving: nil
        }
    }

    mutating func advance(_ input: InputBuffer, limits: Limits) throws(DecodingError) {
        switch self {
        case .lossless(var job):
            self = .moving
            defer { self = .lossless(job) }
            try job.advance(input, limits: limits)
        case .lossy(var job):
            self = .moving
            defer { self = .lossy(job) }
            try job.advance(input, limits: limits)
        case .moving:
            return
        }
    }

    /// See ``WebPLosslessJob/finishEarly(_:limits:)``; a lossy still needs none (its
    /// partitions' ends are known, so its last row is decoded as soon as its bytes are there).
    mutating func finishEarly(_ input: InputBuffer, limits: Limits) {
        guard case .lossless(var job) = self else { return }
        self = .moving
        job.finishEarly(input, limits: limits)
        self = .lossless(job)
    }
}
