/// An image file format: an open set of names, so plug-in coders can add their own.
public struct ImageFormat: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }

    /// PNG, including APNG (an APNG is a PNG whose `count` is above 1, as in ImageIO).
    public static let png = ImageFormat(rawValue: "png")
    public static let gif = ImageFormat(rawValue: "gif")
    public static let jpeg = ImageFormat(rawValue: "jpeg")
    public static let webp = ImageFormat(rawValue: "webp")

    public var description: String { rawValue }
}
