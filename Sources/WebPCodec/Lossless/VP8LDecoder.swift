import CodecCore

/// Decodes a VP8L (WebP lossless) bitstream, RFC 9649 section 3 to 5: the header, the
/// transforms, the main image's coding, its pixels, then the inverse transforms, to RGBA8.
///
/// The state is a value: the header and transforms read once, the main image's
/// ``VP8LImageDecoder`` (position, colour cache), the bit reader, and the ARGB buffers.
/// ``decode(_:isFinal:)`` decodes batches of rows as far as the input goes, checkpointing the
/// small part of the state (image decoder and reader) before each batch and restoring it when
/// the input runs out while more may come (VP8LDecoder+Incremental.swift).
///
/// The coded image is held in a sliding window (``VP8LCodedWindow``), not whole: LZ77 copies
/// reach back at most ``VP8LCodedWindow/maxDistance`` pixels. Each batch's rows go, once their
/// inverse transforms are done, to the output: the RGBA8 image, a ``StreamingResampler`` for a
/// thumbnail, or, for an ALPH stream, the green plane.
package struct VP8LDecoder: Sendable {
    package let header: VP8LHeader
    /// In reading order; inverted last to first.
    let transforms: [VP8LTransform]
    /// The width of the coded main image (narrower than the header's with pixel bundling).
    let codedWidth: Int
    var image: VP8LImageDecoder
    var reader: LSBBitReader
    /// The coded main image's recent pixels, ARGB as coded (LZ77 copies read them), in scan
    /// order; the inverse transforms work on copies of its rows in `scratch`.
    var coded = VP8LCodedWindow<UInt32>()
    /// On the 8-bit ALPH path (``usesEightBitAlphaPath``), the coded image's recent colour
    /// indices instead, a byte each, and what each index byte expands to (VP8LDecoder+Alpha.swift).
    var indices = VP8LCodedWindow<UInt8>()
    var greenExpansions: [UInt64] = []
    /// The inverse transforms and where their rows go: the RGBA8 image (straight alpha; rows
    /// past ``finalRowCount`` are transparent black), a thumbnail
    /// (``VP8Decoder/Output/thumbnail(width:height:)``) or an ALPH stream's green bytes
    /// (``takeGreen(_:into:)``).
    var output: VP8LRowOutput
    /// Threads one call may use (``DecodingOptions/maxThreads``): with 2 or more the inverse
    /// transforms of a large image run on a pool thread (``VP8LRowPipeline``).
    package var maxThreads = 1

    /// The RGBA8 image or the thumbnail's resampler (unused for an ALPH stream).
    package var sink: RowSink { output.sink }
    /// An ALPH stream's output: its green channel only (RFC 9649 2.7.1.2), not RGBA8.
    var outputsGreen: Bool { output.outputsGreen }

    package var width: Int { header.width }
    package var height: Int { header.height }
    /// Rows of the coded image that are complete.
    package var rowsDecoded: Int { image.row }
    /// Rows of the output (every inverse transform applied) that are final.
    package internal(set) var finalRowCount = 0
    /// Input size at the last batch that ran out of bytes, and the compressed size of the last
    /// whole batch: a new attempt waits for about half a batch of new bytes (see `decode`).
    var stalledAt = 0
    var lastBatchBytes = 0

    /// Reads everything before the main image's pixels from `bytes` (the VP8L chunk's payload),
    /// checks the size against `limits` and allocates the buffers.
    package init(_ bytes: UnsafeBufferPointer<UInt8>, limits: Limits, output: VP8Decoder.Output = .image)
        throws(DecodingError) {
        try self.init(bytes, header: VP8LHeader(bytes), imageStreamAt: VP8LHeader.size, limits: limits,
                      output: output)
    }

    /// Reads everything before the main image's pixels of an image stream (RFC 9649 5.2: the
    /// transforms, colour cache and prefix codes) that starts at byte `start` of `bytes`, for an
    /// image of `header`'s size: the VP8L chunk's payload after its header, or an ALPH chunk's
    /// compressed data, which has no header of its own (RFC 9649 2.7.1.2); for ALPH, the output
    /// is the green channel only (`outputsGreen`, and `destination` is not used).
    init(_ bytes: UnsafeBufferPointer<UInt8>, header: VP8LHeader, imageStreamAt start: Int,
         limits: Limits, outputsGreen: Bool = false, output destination: VP8Decoder.Output = .image)
        throws(DecodingError) {
        self.header = header
        let pixelBytes = try limits.checkedRasterBytes(width: header.width, height: header.height, bytesPerPixel: 4)
        var outputBytes = outputsGreen ? 0 : pixelBytes
        var budget = VP8LBudget(remaining: limits.maxBytesHeld)
        if !outputsGreen, case .thumbnail(let width, let height) = destination {
            outputBytes = try limits.checkedRasterBytes(width: width, height: height,
                                                        bytesPerPixel: StreamingResampler.bytesPerOutputPixel)
        }
        // The coded image's window (at most the output's width) and the output.
        try budget.take(VP8LCodedWindow<UInt32>.capacity(pixels: header.width * header.height) * 4)
        try budget.take(outputBytes)
        reader = LSBBitReader(position: start)
        var width = header.width
        var seen = 0
        var transforms: [VP8LTransform] = []
        // RFC 9649 5.2.1: transforms, each announced by a 1 bit.
        while true {
            reader.refill(bytes)
            guard reader.read(1, bytes) == 1 else { break }
            transforms.append(try VP8LTransform.read(width: &width, height: header.height, seen: &seen,
                                                     &reader, bytes, budget: &budget))
        }
        self.transforms = transforms
        codedWidth = width
        output = VP8LRowOutput(transforms: transforms, width: header.width, codedWidth: width, outputsGreen: outputsGreen)
        let coding = try VP8LEntropyCoding.read(width: width, height: header.height, isMainImage: true,
                                                &reader, bytes, budget: &budget)
        if reader.isOverrun { throw .truncated("VP8L bitstream ends before the image data") }
        image = VP8LImageDecoder(width: width, height: header.height, coding: coding)
        let scratchCount = VP8LRowOutput.scratchCount(width: header.width, rowsPerBatch: Self.rowsPerBatch)
        try budget.take(scratchCount * 4)
        // The 8-bit alpha path keeps colour indices and expands them itself (VP8LDecoder+Alpha.swift).
        if outputsGreen && usesEightBitAlphaPath {
            indices = VP8LCodedWindow(imagePixels: width * header.height)
            greenExpansions = transforms[0].greenExpansions()
            return
        }
        coded = VP8LCodedWindow(imagePixels: width * header.height)
        output.scratch = [UInt32](repeating: 0, count: scratchCount)
        if outputsGreen {
            output.green.reserveCapacity(2 * Self.rowsPerBatch * header.width)
        } else {
            output.sink = try destination.sink(width: header.width, height: header.height, limits: limits,
                                        uninitialized: false, rowsAtOnce: Self.rowsPerBatch)
        }
    }

    /// Reads the header, transforms and prefix codes from `bytes` if they are all there: nil
    /// when the input ran out (or zeros were loaded past its end) while more may come. The
    /// caller retries with more bytes; to keep the total work linear it should wait until the
    /// input has grown by a good part (for example doubled) since the last attempt.
    package static func start(_ bytes: UnsafeBufferPointer<UInt8>, isFinal: Bool, limits: Limits,
                             output: VP8Decoder.Output = .image) throws(DecodingError) -> VP8LDecoder? {
        if isFinal && bytes.count < 8 {
            // libwebp's reader starts with an 8-byte window: a shorter stream reads as zero-padded.
            guard bytes.count >= VP8LHeader.size else { throw .truncated("VP8L header is shorter than 5 bytes") }
            return try padded(bytes).withUnsafeBufferPointer { (p) throws(DecodingError) in
                try VP8LDecoder(p, limits: limits, output: output)
            }
        }
        do {
            let decoder = try VP8LDecoder(bytes, limits: limits, output: output)
            if !isFinal && decoder.reader.zeroBitsRead > 0 { return nil }
            return decoder
        } catch where error.kind == .truncated && !isFinal {
            return nil
        }
    }

    /// `bytes` followed by zeros up to 8 bytes.
    static func padded(_ bytes: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: max(8, bytes.count))
        for (i, b) in bytes.enumerated() { out[i] = b }
        return out
    }
}
