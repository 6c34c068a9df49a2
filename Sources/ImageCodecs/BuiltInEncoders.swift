import PNGCodec

/// PNG encodes: stills, and APNG when given several frames.
extension PNGCoder {
    public var canEncode: Bool { true }

    public func makeEncoder(options: EncodingOptions) throws(EncodingError) -> any ImageEncoding {
        PNGEncoder(options: options)
    }
}
