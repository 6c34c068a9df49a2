/// Where a source stands, with the values of ImageIO's `CGImageSourceStatus`.
public enum ImageSourceStatus: Int, Sendable, CustomStringConvertible {
    /// The input ended (and was final) before the image did.
    case unexpectedEOF = -5
    /// The bytes break the format's rules, or a limit was hit.
    case invalidData = -4
    /// No coder recognises the bytes.
    case unknownType = -3
    /// Waiting for the header.
    case readingHeader = -2
    /// The header is known; more bytes are expected.
    case incomplete = -1
    /// Everything has been read.
    case complete = 0

    /// The word the command-line tool prints.
    public var description: String {
        switch self {
        case .unexpectedEOF: "unexpectedEOF"
        case .invalidData: "invalidData"
        case .unknownType: "unknownType"
        case .readingHeader: "readingHeader"
        case .incomplete: "incomplete"
        case .complete: "complete"
        }
    }
}
