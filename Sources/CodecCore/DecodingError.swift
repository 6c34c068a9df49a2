/// A typed, matchable decoding failure.
///
/// Errors are static values: the `kind` is what callers match on, the `detail` is a
/// fixed string naming the rule that was broken (never built at run time). Once an
/// ``ImageDecoding`` decoder has thrown, it keeps throwing the same error: errors are sticky.
public struct DecodingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong, in the categories a caller acts on.
    public enum Kind: String, Sendable, Equatable {
        /// The bytes break the format's rules.
        case invalidData
        /// The bytes are valid but use a feature this library does not decode.
        case unsupported
        /// A ``Limits`` value would be exceeded.
        case limitExceeded
        /// The input ended (and was final) before the requested data.
        case truncated
        /// The request itself is out of range (a frame index past the end, for example).
        case invalidRequest
    }

    /// The category of the failure: what a caller matches on.
    public let kind: Kind
    /// The rule that was broken, in the spec's words.
    public let detail: StaticString

    /// An error of `kind`, naming the broken rule in `detail`.
    public init(_ kind: Kind, _ detail: StaticString) {
        self.kind = kind
        self.detail = detail
    }

    /// The bytes break the format's rules: `detail` names the rule.
    public static func invalidData(_ detail: StaticString) -> DecodingError { .init(.invalidData, detail) }
    /// The bytes use a feature, or are in a format, that this library does not decode.
    public static func unsupported(_ detail: StaticString) -> DecodingError { .init(.unsupported, detail) }
    /// Decoding would exceed one of the ``Limits``: `detail` names which.
    public static func limitExceeded(_ detail: StaticString) -> DecodingError { .init(.limitExceeded, detail) }
    /// The input is final and ends before the data `detail` names.
    public static func truncated(_ detail: StaticString) -> DecodingError { .init(.truncated, detail) }
    /// The caller asked for something out of range (a frame index, a thumbnail size of 0).
    public static func invalidRequest(_ detail: StaticString) -> DecodingError { .init(.invalidRequest, detail) }

    /// Two errors are equal when their kinds and details are.
    public static func == (lhs: DecodingError, rhs: DecodingError) -> Bool {
        lhs.kind == rhs.kind && lhs.detail.description == rhs.detail.description
    }

    /// `kind: detail`, as the command-line tool prints it after `error:`.
    public var description: String { "\(kind.rawValue): \(detail)" }
}

extension DecodingError {
    /// Runs `body` unless `first` already holds an error, which is then thrown again; the first
    /// error `body` throws is kept in `first`. This is how a decoder's errors stay sticky: once
    /// its data is known bad, every later call gives the same error. `body` must not touch `first`.
    @inlinable
    public static func sticky<R>(_ first: inout DecodingError?, _ body: () throws(DecodingError) -> R) throws(DecodingError) -> R {
        if let known = first { throw known }
        do {
            return try body()
        } catch {
            first = error
            throw error
        }
    }
}
