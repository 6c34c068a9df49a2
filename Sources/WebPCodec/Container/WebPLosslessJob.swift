import CodecCore

/// One VP8L bitstream being decoded as its bytes arrive, for ``WebPFormat``.
///
/// ``VP8LDecoder`` reads one contiguous run of bytes from the payload's start (``WebPByteRun``:
/// in place, or gathered with each new byte copied once). A still image's run goes to the end of the input (as
/// `dwebp` hands its bit reader the rest of the file); an animation frame's ends with its chunk
/// (as `WebPAnimDecoder` decodes the frame's own bytes).
struct WebPLosslessJob {
    /// The payload's first byte.
    let start: Int
    /// The payload's end for a frame; nil for a still image (the end of the input).
    let end: Int?
    /// A full image, or a thumbnail shrunk as the rows come out.
    let output: VP8Decoder.Output
    /// ``DecodingOptions/maxThreads``, handed to the decoder.
    let maxThreads: Int
    private var run: WebPByteRun
    private(set) var decoder: VP8LDecoder?

    init(start: Int, end: Int?, output: VP8Decoder.Output = .image, maxThreads: Int = 1) {
        self.start = start
        self.end = end
        self.output = output
        self.maxThreads = maxThreads
        run = WebPByteRun(start: start)
    }

    var isFinished: Bool { decoder.map { $0.finalRowCount == $0.height } ?? false }

    /// The bitstream's bytes are all there: a frame's whole payload, or a still's final input.
    func isFinal(_ input: InputBuffer) -> Bool {
        input.isFinal || end.map { input.count >= $0 } == true
    }

    /// Decodes as far as the input allows. Throws `truncated` when the bytes are final and run
    /// out (the rows before ``finalRowCount`` stay valid), any other error as it comes.
    mutating func advance(_ input: InputBuffer, limits: Limits, forceFinal: Bool = false) throws(DecodingError) {
        guard !isFinished else { return }
        let isFinal = forceFinal || isFinal(input)
        let limit = min(end ?? input.count, input.count)
        if run.shouldWait(upTo: limit, started: decoder != nil, isFinal: isFinal) { return }
        // The decoder leaves the struct while it runs, so its buffers are never copied.
        var decoder = self.decoder
        self.decoder = nil
        defer { self.decoder = decoder }
        var attempt = run.lastStart
        defer { run.lastStart = attempt }
        let output = self.output, maxThreads = self.maxThreads
        let decode = { (bytes: UnsafeBufferPointer<UInt8>) throws(DecodingError) in
            if decoder == nil {
                attempt = bytes.count
                decoder = try VP8LDecoder.start(bytes, isFinal: isFinal, limits: limits, output: output)
                if decoder == nil { return }
                decoder?.maxThreads = maxThreads
            }
            try decoder?.decode(bytes, isFinal: isFinal)
        }
        // libwebp's bit reader starts with an 8-byte window: a shorter final stream reads zero-padded.
        try run.withBytes(input, to: limit, padTo: isFinal ? 8 : 0, decode)
    }

    /// A still image whose chunk has arrived whole, while the input is still open: decodes the
    /// rest as if the input ended here, on a copy, and keeps the copy if it finished without
    /// reading a bit past the bytes held (so it is what any later bytes would give). Without
    /// this, the reader's 8-byte look-ahead would hold the last rows back until the input ends.
    mutating func finishEarly(_ input: InputBuffer, limits: Limits) {
        guard !isFinished else { return }
        var trial = self
        guard (try? trial.advance(input, limits: limits, forceFinal: true)) != nil, trial.isFinished,
              trial.decoder?.reader.isOverrun == false else { return }
        self = trial
    }
}
