import CodecCore

/// One VP8 bitstream (RFC 6386 key frame), with its ALPH chunk if it has one (RFC 9649
/// 2.7.1.2), being decoded as its bytes arrive, for ``WebPDecoder``.
///
/// ``VP8Decoder`` reads one contiguous run from the VP8 payload's start (``WebPByteRun``): for
/// a still image to the end of the input (libwebp's `DecodeInto` gives the last partition the
/// rest of the data), for an animation frame to the end of its chunk. The alpha plane is
/// decoded whole, from the ALPH chunk (which comes before the VP8 chunk, so it has arrived),
/// when the first colour rows are final, as libwebp decodes alpha rows as colour rows come out.
struct WebPLossyJob {
    /// The VP8 payload's first byte and the chunk's size.
    let start: Int
    let chunkSize: Int
    /// The bitstream's end for a frame; nil for a still image (the end of the input).
    let end: Int?
    /// The ALPH chunk's payload, if the image has one.
    let alphaChunk: Range<Int>?
    private var run: WebPByteRun
    private(set) var decoder: VP8Decoder?
    private var alphaPlane: [UInt8]?

    init(bitstream: WebPBitstream, end: Int?) {
        start = bitstream.payload.lowerBound
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
        let chunkSize = self.chunkSize
        var colourError: DecodingError?
        do throws(DecodingError) {
            try run.withBytes(input, to: limit) { (bytes) throws(DecodingError) in
                if decoder == nil {
                    attempt = bytes.count
                    decoder = try VP8Decoder.start(bytes, chunkSize: chunkSize, isFinal: isFinal, limits: limits)
                }
                try decoder?.decode(bytes, isFinal: isFinal)
            }
        } catch {
            // A cut file's rows keep their alpha: the plane is still decoded below.
            colourError = error
        }
        if alphaPlane == nil, let alphaChunk, let decoder, decoder.finalRowCount > 0 {
            alphaPlane = try input.withBytes(alphaChunk) { (payload) throws(DecodingError) in
                try WebPAlpha.decode(payload, width: decoder.width, height: decoder.height, limits: limits)
            }
        }
        if let colourError { throw colourError }
    }

    /// The image's pixels so far (RGBA8, rows past ``finalRowCount`` transparent black).
    func raster() -> Raster? {
        guard let decoder else { return nil }
        var pixels = decoder.rgba()
        if let alphaPlane {
            let rows = decoder.finalRowCount, width = decoder.width
            for i in 0..<(rows * width) { pixels[4 &* i &+ 3] = alphaPlane[i] }
        }
        return Raster(width: decoder.width, height: decoder.height, bytesPerPixel: 4, pixels: pixels)
    }
}

/// The decoding of a still image or an animation frame, lossless or lossy.
enum WebPImageJob {
    case lossless(WebPLosslessJob)
    case lossy(WebPLossyJob)
    /// Held only while a job is out being advanced, so that its buffers are not shared (and
    /// copied on write).
    case moving

    /// A job for `bitstream`, whose bytes end at `end` (a frame) or with the input (a still).
    init(_ bitstream: WebPBitstream, end: Int?) {
        switch bitstream.kind {
        case .lossless: self = .lossless(WebPLosslessJob(start: bitstream.payload.lowerBound, end: end))
        case .lossy: self = .lossy(WebPLossyJob(bitstream: bitstream, end: end))
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
