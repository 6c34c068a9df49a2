/// The coders an ``ImageSource`` may use, and which formats are enabled.
///
/// ``standard`` holds the built-in coders. A registry is a value: copy it, add coders, and pass
/// it to ``ImageSource``. When several coders recognise a file, the one registered last wins;
/// a format that is not enabled is never decoded, not even by another coder that recognises it.
public struct CoderRegistry: Sendable {
    /// The coders in the order they were registered; later ones win.
    public private(set) var coders: [any ImageCoder] = []
    /// Formats that may be decoded; nil enables all.
    public var enabledFormats: Set<ImageFormat>?

    /// A registry of `coders` (the last wins), with every format enabled. Start from ``standard`` to
    /// keep the built-in coders.
    public init(coders: [any ImageCoder] = []) {
        self.coders = coders
    }

    /// The most bytes from the start of a file that ``resolve(_:)`` is shown: a coder must
    /// recognise its format within them.
    public static let sniffLength = 4096

    /// The built-in coders.
    public static let standard = CoderRegistry(coders: [PNGCoder(), GIFCoder(), JPEGCoder(), WebPCoder()])

    /// Adds `coder`; it wins over every coder added before it.
    public mutating func register(_ coder: any ImageCoder) {
        coders.append(coder)
    }

    /// The coder that encodes `format`: the one registered last among those that can.
    /// ``enabledFormats`` limits decoding only.
    public func encoder(for format: ImageFormat) -> (any ImageCoder)? {
        coders.last { $0.format == format && $0.canEncode }
    }

    /// What the registry makes of a file's first bytes.
    public enum Resolution {
        /// This coder decodes the file.
        case coder(any ImageCoder)
        /// Some coder may recognise the file once more bytes arrive.
        case needMoreData
        /// No enabled coder decodes the file.
        case unknown
    }

    /// The coder for a file that starts with `prefix`.
    public func resolve(_ prefix: UnsafeBufferPointer<UInt8>) -> Resolution {
        var waiting = false
        for coder in coders.reversed() {
            switch coder.sniff(prefix) {
            case .match:
                if let enabledFormats, !enabledFormats.contains(coder.format) { return .unknown }
                return .coder(coder)
            case .needMoreData: waiting = true
            case .noMatch: continue
            }
        }
        return waiting ? .needMoreData : .unknown
    }
}
