import CodecCore

/// A WebP bitstream's decoding, with what it may allocate.
package struct WebPJob: FrameJob {
    var image: WebPImageJob
    /// The limits it was made under, ``Limits/maxBytesHeld`` being what the driver's other
    /// buffers leave.
    let limits: Limits
    private var triedEarlyFinish = false

    init(image: WebPImageJob, limits: Limits) {
        self.image = image
        self.limits = limits
    }

    package var isFinished: Bool { image.isFinished }

    package var rowSink: RowSink? { image.sink }

    package var heldBytes: Int { image.heldBytes }

    /// A still whose chunk has arrived whole is decoded to its end on trial, once
    /// (``WebPLosslessJob/finishEarly(_:limits:)``).
    mutating func finishEarly(_ input: InputBuffer) {
        guard !triedEarlyFinish else { return }
        triedEarlyFinish = true
        image.finishEarly(input, limits: limits)
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
    /// making `output`, on up to `maxThreads` threads.
    init(_ bitstream: WebPBitstream, end: Int?, output: VP8Decoder.Output = .image, maxThreads: Int = 1) {
        switch bitstream.kind {
        case .lossless: self = .lossless(WebPLosslessJob(start: bitstream.payload.lowerBound, end: end, output: output,
                                                         maxThreads: maxThreads))
        case .lossy: self = .lossy(WebPLossyJob(bitstream: bitstream, end: end, output: output, maxThreads: maxThreads))
        }
    }

    /// Where the rows go, once the decoder has started: the image so far (rows past its final
    /// ones transparent black) or the thumbnail.
    var sink: RowSink? {
        switch self {
        case .lossless(let job): job.decoder?.sink
        case .lossy(let job): job.decoder?.sink
        case .moving: nil
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
            return decoder.sink.heldBytes + (decoder.alpha?.heldBytes ?? 0)
        case .moving: return 0
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
