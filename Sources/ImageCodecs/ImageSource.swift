import CodecCore

/// An image being read, whole or as it downloads: ImageIO's `CGImageSource` for Swift.
///
/// Create it with all the bytes, or empty and ``append(_:final:)`` bytes as they arrive
/// (``update(data:final:)`` takes the cumulative data ImageIO-style). Pixels are decoded when an
/// image is asked for, resuming where the last request stopped, or as bytes arrive with
/// ``DecodingOptions/decodesImmediately``.
///
/// Every member is safe to call from several threads at once, and no reader waits on a pixel
/// decode: the source keeps two state machines over the same bytes (SPEC-NOTES.md, "Threads").
/// The *parser* reads containers as bytes arrive and answers ``status``, ``count``,
/// ``properties`` and the other facts; its lock is held only while a container unit is parsed
/// or a fact is read. The *renderer* decodes pixels under a lock of its own, on a value copy of
/// the input's segments taken when the request starts. Two threads asking for pixels of one
/// source take turns on the renderer: the second continues from where the first left it, so
/// both get what a single-threaded decode gives.
public final class ImageSource: Sendable {
    /// The parser's side: the bytes, the recognised coder and the container state machine.
    struct State {
        var input = InputBuffer()
        var coder: (any ImageCoder)?
        var parser: (any ImageDecoding)?
        /// A sticky error: the parser's, or the renderer's for a still image's pixels.
        var error: DecodingError?
        var unknownType = false
        /// A format recognised but not decoded (``FormatSignatures``).
        var namedFormat: ImageFormat?
        /// Bytes arrived for ``DecodingOptions/decodesImmediately`` that the renderer has not
        /// taken yet because another thread held it.
        var immediatePending = false
    }

    /// The renderer's side: a decoder of the same format that decodes pixels.
    struct Renderer {
        var decoder: (any ImageDecoding)?
        /// How much of the input the renderer has been given, and whether that was final.
        var seen = (count: 0, isFinal: false)
    }

    let state: Locked<State>
    let renderer = Locked(Renderer())
    let options: DecodingOptions
    private let registry: CoderRegistry
    /// Appends so far and the tasks waiting for the next one (``ImageSource+Changes.swift``).
    let changes = Locked(Changes())

    /// A source over complete data.
    public convenience init(bytes: some Collection<UInt8>, options: DecodingOptions = .init(),
                            registry: CoderRegistry = .standard) {
        self.init(incremental: options, registry: registry)
        append(bytes, final: true)
    }

    /// An empty source that takes bytes as they arrive.
    public init(incremental options: DecodingOptions = .init(), registry: CoderRegistry = .standard) {
        self.options = options
        self.registry = registry
        state = Locked(State())
    }

    /// Adds the bytes that follow those already given; `final` says no more will come. Parses
    /// the containers the bytes complete and returns; it never waits for a pixel decode that
    /// another thread is running.
    public func append(_ bytes: some Collection<UInt8>, final: Bool) {
        state.withLock { s in
            guard !s.input.isFinal else { return }
            s.input.append(bytes)
            if final { s.input.markFinal() }
            parse(&s)
        }
        decodeImmediately()
        announceChange()
    }

    /// Takes all the data so far (ImageIO's `CGImageSourceUpdateData`); only the bytes past
    /// those already held are new. Data shorter than what is held is ignored.
    public func update(data: some Collection<UInt8>, final: Bool) {
        state.withLock { s in
            guard !s.input.isFinal else { return }
            if data.count > s.input.count { s.input.append(data.dropFirst(s.input.count)) }
            if final { s.input.markFinal() }
            parse(&s)
        }
        decodeImmediately()
        announceChange()
    }

    /// Recognises the format once enough bytes have arrived, then parses the containers they
    /// complete. The parser never decodes pixels, whatever the options say.
    private func parse(_ s: inout State) {
        guard s.error == nil, !s.unknownType else { return }
        if s.parser == nil {
            let resolution = s.input.withBytes(0..<CoderRegistry.sniffLength) { registry.resolve($0) }
            switch resolution {
            case .coder(let coder):
                var parsing = options
                parsing.decodesImmediately = false
                s.coder = coder
                s.parser = coder.makeDecoder(options: parsing)
            case .needMoreData:
                return
            case .unknown:
                let named = s.input.withBytes(0..<CoderRegistry.sniffLength) {
                    FormatSignatures.sniff($0, isFinal: s.input.isFinal)
                }
                switch named {
                case .format(let format, let refusal):
                    s.namedFormat = format
                    s.error = refusal
                case .needMoreData:
                    break
                case .noMatch:
                    s.unknownType = true
                }
                return
            }
        }
        do {
            try WorkerPool.shared.occupying { () throws(DecodingError) in try s.parser?.advance(s.input) }
        } catch {
            s.error = error
        }
        if options.decodesImmediately { s.immediatePending = true }
    }

    /// The state of the whole source.
    public var status: ImageSourceStatus {
        state.withLock { s in
            if s.error != nil || s.parser?.error != nil { return .invalidData }
            if s.unknownType { return .unknownType }
            guard let parser = s.parser, parser.properties != nil else {
                return s.input.isFinal ? (s.parser == nil && s.input.count == 0 ? .unknownType : .unexpectedEOF) : .readingHeader
            }
            if parser.isComplete { return .complete }
            return s.input.isFinal ? .unexpectedEOF : .incomplete
        }
    }

    /// The state of frame `index`: complete once all of its data has arrived. An index past
    /// the frames known so far is `readingHeader` while more data may come, `invalidData` after.
    public func status(at index: Int) -> ImageSourceStatus {
        state.withLock { s in
            if s.error != nil || s.parser?.error != nil { return .invalidData }
            if s.unknownType { return .unknownType }
            guard let parser = s.parser, index >= 0, index < parser.frameCount else {
                return s.input.isFinal ? .invalidData : .readingHeader
            }
            if parser.isFrameComplete(at: index) { return .complete }
            return s.input.isFinal ? .unexpectedEOF : .incomplete
        }
    }

    /// The error that stopped decoding for good, if any.
    public var error: DecodingError? { state.withLock { $0.error ?? $0.parser?.error } }

    /// The format, once the first bytes have been recognised; also a format recognised but not
    /// decoded (``ImageFormat/tiff`` for example), whose source is refused with `unsupported`.
    public var format: ImageFormat? { state.withLock { $0.coder?.format ?? $0.namedFormat } }

    /// Frames known so far.
    public var count: Int { state.withLock { $0.parser?.frameCount ?? 0 } }

    /// Image-level properties, or nil while the header is unread.
    public var properties: ImageProperties? { withColorWarnings(state.withLock { $0.parser?.properties }) }

    /// Properties of frame `index`, or nil if it is not known yet.
    public func properties(at index: Int) -> FrameProperties? {
        state.withLock { $0.parser?.frameProperties(at: index) }
    }

    /// The options the source was made with.
    public var decodingOptions: DecodingOptions { options }

    /// The image of frame `index`: for an animation the composited canvas. While the data is
    /// incomplete the image is partial (see ``DecodedImage/finalRowCount``). An error in a still
    /// image's pixels puts the source in `invalidData` for good; one in an animation frame's
    /// pixels is thrown for that frame (and frames composed on it) only.
    public func image(at index: Int = 0) throws(DecodingError) -> DecodedImage {
        converted(try rendered(at: index))
    }

    /// Frame `index` as the decoder renders it, before conversion to the caller's layout.
    func rendered(at index: Int) throws(DecodingError) -> RenderedImage {
        try render { (decoder, input) throws(DecodingError) -> RenderedImage in
            guard index >= 0, index < decoder.frameCount else { throw .invalidRequest("frame index out of range") }
            return try decoder.rendered(at: index, input: input)
        }
    }

    /// The decoder's row-by-row shrink of frame `index`, or nil when it has none for the frame.
    func streamingThumbnail(at index: Int, width: Int, height: Int) throws(DecodingError) -> RenderedImage? {
        try render { (decoder, input) throws(DecodingError) -> RenderedImage? in
            try decoder.streamingThumbnail(at: index, width: width, height: height, input: input)
        }
    }
}
