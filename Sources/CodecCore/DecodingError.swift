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

    public let kind: Kind
    /// The rule that was broken, in the spec's words.
    public let detail: StaticString

    public init(_ kind: Kind, _ detail: StaticString) {
        self.kind = kind
        self.detail = detail
    }

    public static func invalidData(_ detail: StaticString) -> DecodingError { .init(.invalidData, detail) }
    public static func unsupported(_ detail: StaticString) -> DecodingError { .init(.unsupported, detail) }
    public static func limitExceeded(_ detail: StaticString) -> DecodingError { .init(.limitExceeded, detail) }
    public static func truncated(_ detail: StaticString) -> DecodingError { .init(.truncated, detail) }
    public static func invalidRequest(_ detail: StaticString) -> DecodingError { .init(.invalidRequest, detail) }

    public static func == (lhs: DecodingError, rhs: DecodingError) -> Bool {
        lhs.kind == rhs.kind && lhs.detail.description == rhs.detail.description
    }

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
