/// A typed, matchable encoding failure.
///
/// As with ``DecodingError``, the `kind` is what callers match on and the `detail` is a fixed
/// string naming the rule that was broken. A bad request (a zero size, a quality out of range,
/// frames of different sizes where the format needs one) is an error, never a trap.
public struct EncodingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong, in the categories a caller acts on.
    public enum Kind: String, Sendable, Equatable {
        /// The request is out of range: options, sizes, frame lists.
        case invalidRequest
        /// No encoder for the format, or a feature the encoder does not write.
        case unsupported
        /// The image is larger than the format or a ``Limits`` value allows.
        case limitExceeded
        /// The frames to transcode could not be decoded (``ImageDestination/add(contentsOf:)``).
        case decodingFailed
        /// The byte sink refused bytes (a full disk, a closed stream).
        case outputFailed
    }

    /// The category of the failure: what a caller matches on.
    public let kind: Kind
    /// The rule that was broken.
    public let detail: StaticString

    /// An error of `kind`, naming the broken rule in `detail`.
    public init(_ kind: Kind, _ detail: StaticString) {
        self.kind = kind
        self.detail = detail
    }

    /// The request is out of range: `detail` names the option, size or call at fault.
    public static func invalidRequest(_ detail: StaticString) -> EncodingError { .init(.invalidRequest, detail) }
    /// No encoder writes what was asked (the format, or a feature of it).
    public static func unsupported(_ detail: StaticString) -> EncodingError { .init(.unsupported, detail) }
    /// The image is larger than the format or the options' ``Limits`` allow.
    public static func limitExceeded(_ detail: StaticString) -> EncodingError { .init(.limitExceeded, detail) }
    /// The ``ByteSink`` could not take the bytes; a sink throws this to stop the encode.
    public static func outputFailed(_ detail: StaticString) -> EncodingError { .init(.outputFailed, detail) }

    /// The encoding error for a decoding failure of the frames being transcoded; keeps its detail.
    public static func decodingFailed(_ error: DecodingError) -> EncodingError { .init(.decodingFailed, error.detail) }

    /// Two errors are equal when their kinds and details are.
    public static func == (lhs: EncodingError, rhs: EncodingError) -> Bool {
        lhs.kind == rhs.kind && lhs.detail.description == rhs.detail.description
    }

    /// `kind: detail`, as the command-line tool prints it after `error:`.
    public var description: String { "\(kind.rawValue): \(detail)" }
}
