import PNGCodec

/// PNG encodes: stills, and APNG when given several frames.
extension PNGCoder {
    /// True: PNG and APNG files are written (``makeEncoder(options:)``).
    public var canEncode: Bool { true }

    /// A PNG encoder: one frame makes a PNG, several an APNG. It tries lossless reductions (bit
    /// depth, grayscale, palette), chooses row filters and deflates with zlib; animation frames are
    /// cropped to what changed.
    public func makeEncoder(options: EncodingOptions) throws(EncodingError) -> any ImageEncoding {
        PNGEncoder(options: options)
    }
}
