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
    /// The most threads a call may use (``DecodingOptions/maxThreads``).
    let maxThreads: Int
    private var run: WebPByteRun
    private(set) var decoder: VP8Decoder?

    init(bitstream: WebPBitstream, end: Int?, output: VP8Decoder.Output = .image, maxThreads: Int = 1) {
        start = bitstream.payload.lowerBound
        self.output = output
        self.maxThreads = maxThreads
        chunkSize = bitstream.payload.count
        self.end = end
        alphaChunk = bitstream.alphaChunk
        run = WebPByteRun(start: start)
    }

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
        let (chunkSize, output, alphaChunk, maxThreads) = (self.chunkSize, self.output, self.alphaChunk, self.maxThreads)
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
            try decoder?.decode(bytes, isFinal: isFinal, maxThreads: maxThreads)
        }
    }
}
