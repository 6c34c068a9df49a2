import JPEGCodec

/// JPEG encodes: byte for byte cjpeg's files for the same settings (``JPEGImageEncoder``).
extension JPEGCoder {
    public var canEncode: Bool { true }

    public func makeEncoder(options: EncodingOptions) throws(EncodingError) -> any ImageEncoding {
        JPEGImageEncoder(options: options)
    }
}
