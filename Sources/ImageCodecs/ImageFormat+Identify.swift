extension ImageFormat {
    /// The format a file starting with `prefix` is in, without making a source: a format one of
    /// `registry`'s coders recognises (the last registered first, whether or not it is enabled),
    /// else one this library names but does not decode (TIFF, BMP, ICO, CUR, HEIC, HEIF, AVIF,
    /// JPEG 2000, JPEG XL, PSD, PDF, SVG); nil when the bytes name none. At most
    /// ``CoderRegistry/sniffLength`` bytes are read; fewer may not be enough (SVG needs its
    /// prolog, HEIF its whole `ftyp` box).
    public static func identify(_ prefix: some Collection<UInt8>, registry: CoderRegistry = .standard) -> ImageFormat? {
        Array(prefix.prefix(CoderRegistry.sniffLength)).withUnsafeBufferPointer { p in
            if let coder = registry.coders.last(where: { $0.sniff(p) == .match }) { return coder.format }
            if case .format(let format, _) = FormatSignatures.sniff(p, isFinal: true) { return format }
            return nil
        }
    }
}
