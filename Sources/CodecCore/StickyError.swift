/// The error that stopped a decoder for good (``ImageDecoding``'s sticky errors): once one is
/// kept, every later ``run(_:)`` throws it again without running anything.
///
/// The body must not read the decoder's ``error`` (this value is being written meanwhile).
public struct StickyError: Sendable {
    public private(set) var error: DecodingError?

    public init() {}

    /// Runs `body`, keeping the first error it throws.
    public mutating func run<R>(_ body: () throws(DecodingError) -> R) throws(DecodingError) -> R {
        if let error { throw error }
        do {
            return try body()
        } catch {
            self.error = error
            throw error
        }
    }
}
