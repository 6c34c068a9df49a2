import JPEGCodec

/// JPEG encodes: byte for byte cjpeg's files for the same settings (``JPEGImageEncoder``).
extension JPEGCoder {
    /// True: JPEG files are written (``makeEncoder(options:)``).
    public var canEncode: Bool { true }

    /// A JPEG encoder for one still: cjpeg's settings taken from `options`, alpha flattened onto
    /// ``EncodingOptions/backgroundColor``.
    public func makeEncoder(options: EncodingOptions) throws(EncodingError) -> any ImageEncoding {
        JPEGImageEncoder(options: options)
    }
}
