import Synchronization

/// An image being read, whole or as it downloads: ImageIO's `CGImageSource` for Swift.
///
/// Create it with all the bytes, or empty and ``append(_:final:)`` bytes as they arrive
/// (``update(data:final:)`` takes the cumulative data ImageIO-style). Each byte is parsed once.
/// Pixels are decoded when an image is asked for, resuming where the last request stopped,
/// or as bytes arrive with ``DecodingOptions/decodesImmediately``. Every member is safe to call
/// from several threads at once: one lock guards the state.
public final class ImageSource: Sendable {
    private struct State: ~Copyable {
        var input = InputBuffer()
        let options: DecodingOptions
        let registry: CoderRegistry
        var format: ImageFormat?
        var decoder: (any ImageDecoding)?
        var error: DecodingError?
        var unknownType = false
    }

    private let state: Mutex<State>
    /// Appends so far and the tasks waiting for the next one (``ImageSource+Changes.swift``).
    let changes = Mutex(Changes())

    /// A source over complete data.
    public convenience init(bytes: some Collection<UInt8>, options: DecodingOptions = .init(),
                            registry: CoderRegistry = .standard) {
        self.init(incremental: options, registry: registry)
        append(bytes, final: true)
    }

    /// An empty source that takes bytes as they arrive.
    public init(incremental options: DecodingOptions = .init(), registry: CoderRegistry = .standard) {
        state = Mutex(State(options: options, registry: registry))
    }

    /// Adds the bytes that follow those already given; `final` says no more will come.
    public func append(_ bytes: some Collection<UInt8>, final: Bool) {
        state.withLock { s in
            guard !s.input.isFinal else { return }
            s.input.append(bytes)
            if final { s.input.markFinal() }
            Self.advance(&s)
        }
        announceChange()
    }

    /// Takes all the data so far (ImageIO's `CGImageSourceUpdateData`); only the bytes past
    /// those already held are new. Data shorter than what is held is ignored.
    public func update(data: some Collection<UInt8>, final: Bool) {
        state.withLock { s in
            guard !s.input.isFinal else { return }
            if data.count > s.input.count { s.input.append(data.dropFirst(s.input.count)) }
            if final { s.input.markFinal() }
            Self.advance(&s)
        }
        announceChange()
    }

    private static func advance(_ s: inout State) {
        guard s.error == nil, !s.unknownType else { return }
        if s.decoder == nil {
            let resolution = s.input.withBytes(0..<CoderRegistry.sniffLength) { s.registry.resolve($0) }
            switch resolution {
            case .coder(let coder):
                s.format = coder.format
                s.decoder = coder.makeDecoder(options: s.options)
            case .needMoreData:
                return
            case .unknown:
                s.unknownType = true
                return
            }
        }
        do {
            try s.decoder?.advance(s.input)
        } catch {
            s.error = error
        }
    }

    /// The state of the whole source.
    public var status: ImageSourceStatus {
        state.withLock { s in
            if s.error != nil || s.decoder?.error != nil { return .invalidData }
            if s.unknownType { return .unknownType }
            guard let decoder = s.decoder, decoder.properties != nil else {
                return s.input.isFinal ? (s.decoder == nil && s.input.count == 0 ? .unknownType : .unexpectedEOF) : .readingHeader
            }
            if decoder.isComplete { return .complete }
            return s.input.isFinal ? .unexpectedEOF : .incomplete
        }
    }

    /// The state of frame `index`: complete once all of its data has arrived. An index past
    /// the frames known so far is `readingHeader` while more data may come, `invalidData` after.
    public func status(at index: Int) -> ImageSourceStatus {
        state.withLock { s in
            if s.error != nil || s.decoder?.error != nil { return .invalidData }
            if s.unknownType { return .unknownType }
            guard let decoder = s.decoder, index >= 0, index < decoder.frameCount else {
                return s.input.isFinal ? .invalidData : .readingHeader
            }
            if decoder.isFrameComplete(at: index) { return .complete }
            return s.input.isFinal ? .unexpectedEOF : .incomplete
        }
    }

    /// The error that stopped decoding for good, if any.
    public var error: DecodingError? { state.withLock { $0.error ?? $0.decoder?.error } }

    /// The format, once the first bytes have been recognised.
    public var format: ImageFormat? { state.withLock { $0.format } }

    /// Frames known so far.
    public var count: Int { state.withLock { $0.decoder?.frameCount ?? 0 } }

    /// Image-level properties, or nil while the header is unread.
    public var properties: ImageProperties? { state.withLock { $0.decoder?.properties } }

    /// Properties of frame `index`, or nil if it is not known yet.
    public func properties(at index: Int) -> FrameProperties? {
        state.withLock { $0.decoder?.frameProperties(at: index) }
    }

    /// The options the source was made with.
    public var decodingOptions: DecodingOptions { state.withLock { $0.options } }

    /// The decoder's row-by-row shrink of frame `index`, or nil when it has none for the frame.
    func streamingThumbnail(at index: Int, width: Int, height: Int) throws(DecodingError) -> DecodedImage? {
        try state.withLock { (s) throws(DecodingError) -> DecodedImage? in
            if let error = s.error { throw error }
            return try s.decoder?.streamingThumbnail(at: index, width: width, height: height, input: s.input)
        }
    }

    /// The image of frame `index`: for an animation the composited canvas. While the data is
    /// incomplete the image is partial (see ``DecodedImage/finalRowCount``). An error in a still
    /// image's pixels puts the source in `invalidData` for good; one in an animation frame's
    /// pixels is thrown for that frame (and frames composed on it) only.
    public func image(at index: Int = 0) throws(DecodingError) -> DecodedImage {
        try state.withLock { (s) throws(DecodingError) -> DecodedImage in
            if let error = s.error { throw error }
            guard let decoder = s.decoder, index >= 0, index < decoder.frameCount else {
                throw .invalidRequest("frame index out of range")
            }
            return try decoder.image(at: index, input: s.input)
        }
    }
}
