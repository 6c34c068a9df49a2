import CodecCore

/// The JPEG encoder behind `ImageEncoding`: one frame (RGBA8 or RGBA16, alpha flattened on
/// `EncodingOptions.backgroundColor`), rows handed to ``JPEGEncoder`` in bands as the frame
/// gives them, the file written to the sink as it is made. Options map to cjpeg's: quality × 100
/// (clamped to 1…100 as libjpeg does), `chromaSubsampling` is `-sample`, `grayscale`,
/// `optimizeCoding`, `progressive`, `restartInterval`. EXIF (with the orientation, as
/// `ImageMetadata.exifToWrite`) goes in APP1, XMP in a second APP1, an ICC profile in APP2 chunks.
///
/// With `EncodingOptions.maxFileSize` the DCT output is kept and the file is the one at the
/// highest quality that fits (``JPEGEncoder/finish(fitting:)``): only quantization and entropy
/// coding are redone per quality tried.
public struct JPEGImageEncoder: ImageEncoding {
    /// False: a JPEG file holds one image.
    public var supportsAnimation: Bool { false }
    /// True: `EncodingOptions.quality` sets the quantization, so a file size is met by lowering it.
    public var isLossy: Bool { true }

    let options: EncodingOptions
    private var encoder: JPEGEncoder?
    private var frames = 0

    /// Rows converted and handed over at a time.
    static let band = 16

    /// An encoder for one file with `options`, which `EncodingOptions.validate()` has accepted.
    public init(options: EncodingOptions) {
        self.options = options
    }

    /// cjpeg's settings for `options`.
    static func settings(_ options: EncodingOptions) -> JPEGEncoderSettings {
        var s = JPEGEncoderSettings()
        let q = options.quality.isNaN ? 0.9 : options.quality
        s.quality = Int((min(max(q, 0), 1) * 100).rounded())
        if let sampling = options.chromaSubsampling { s.lumaSampling = (sampling.horizontal, sampling.vertical) }
        s.grayscale = options.grayscale
        s.optimizeHuffman = options.optimizeCoding
        s.progressive = options.progressive
        switch options.restartInterval {
        case .rows(let n)?: s.restart = .rows(n)
        case .blocks(let n)?: s.restart = .mcus(n)
        case nil: s.restart = nil
        }
        return s
    }

    static func encodingError(_ error: JPEGEncoderError) -> EncodingError {
        switch error {
        case .invalidSize: .limitExceeded("JPEG width and height must be within 1...65500")
        case .invalidComponents: .invalidRequest("JPEG input must be gray, RGB or RGBA")
        case .invalidSampling: .invalidRequest("JPEG sampling factors must be within 1...4 with at most 10 blocks per MCU")
        case .invalidRestart: .invalidRequest("JPEG restart interval must be within 0...65535")
        case .invalidRows, .missingRows: .invalidRequest("JPEG frame rows do not match the canvas")
        }
    }

    /// Sets up the encoder for `canvas`; the header is written with the first rows. A side of 0
    /// or above 65500 is `EncodingError.Kind.limitExceeded`.
    public mutating func begin(_ canvas: EncodingCanvas, to sink: inout some ByteSink) throws(EncodingError) {
        guard encoder == nil else { throw .invalidRequest("begin was called twice") }
        let bg = options.backgroundColor
        let metadata = JPEGEncoderMetadata(exif: canvas.metadata.exifToWrite, icc: canvas.metadata.iccProfile,
                                           xmp: canvas.metadata.xmp, background: (bg.r, bg.g, bg.b))
        do {
            encoder = try JPEGEncoder(width: canvas.width, height: canvas.height, components: 4,
                                      settings: Self.settings(options), metadata: metadata,
                                      keepsTransform: options.maxFileSize != nil, maxThreads: options.maxThreads)
        } catch {
            throw Self.encodingError(error)
        }
    }

    /// Encodes the one frame, 16 rows at a time, writing to `sink` as rows of MCUs complete (a
    /// baseline encode with standard tables) or keeping the coefficients for ``finish(to:)``
    /// (optimized, progressive, or a file size to meet). A second frame is
    /// `EncodingError.Kind.unsupported`.
    public mutating func add(_ frame: EncodingFrame, to sink: inout some ByteSink) throws(EncodingError) {
        guard var encoder else { throw .invalidRequest("add before begin") }
        guard frames == 0 else { throw .unsupported("JPEG holds one frame") }
        guard frame.width == encoder.layout.width, frame.height == encoder.layout.height else {
            throw .invalidRequest("the frame size differs from the canvas")
        }
        frames += 1
        self.encoder = nil
        let width = frame.width, rowBytes = frame.bytesPerRow
        var wide = [UInt8](repeating: 0, count: rowBytes * Self.band)
        var rgba = frame.isSixteenBit ? [UInt8](repeating: 0, count: width * 4 * Self.band) : []
        var y = 0
        while y < frame.height {
            let rows = min(Self.band, frame.height - y)
            wide.withUnsafeMutableBytes { raw in
                for r in 0..<rows {
                    frame.copyRow(y + r, into: UnsafeMutableRawBufferPointer(rebasing: raw[(r * rowBytes)..<((r + 1) * rowBytes)]))
                }
            }
            if frame.isSixteenBit {
                wide.withUnsafeBytes { raw in
                    for i in 0..<(width * 4 * rows) { rgba[i] = UInt8(raw.load(fromByteOffset: i * 2, as: UInt16.self) >> 8) }
                }
            }
            let pixels = frame.isSixteenBit ? rgba : wide
            do {
                try pixels.withUnsafeBufferPointer { p throws(JPEGEncoderError) in
                    try encoder.write(rows: UnsafeBufferPointer(rebasing: p[0..<(width * 4 * rows)]))
                }
            } catch {
                throw Self.encodingError(error)
            }
            try sink.write(encoder.takeOutput())
            y += rows
        }
        self.encoder = encoder
    }

    /// Writes the rest of the file (the scans still held, or the file at the highest quality that
    /// fits `EncodingOptions.maxFileSize`) and the end-of-image marker.
    public mutating func finish(to sink: inout some ByteSink) throws(EncodingError) {
        guard var encoder, frames == 1 else { throw .invalidRequest("finish before a frame was added") }
        do {
            if let maxFileSize = options.maxFileSize {
                try sink.write(try encoder.finish(fitting: maxFileSize).bytes)
            } else {
                try sink.write(try encoder.finish())
            }
        } catch let error as JPEGEncoderError {
            throw Self.encodingError(error)
        } catch let error as EncodingError {
            throw error
        } catch {
            throw .outputFailed("JPEG output failed")
        }
        self.encoder = nil
    }
}
