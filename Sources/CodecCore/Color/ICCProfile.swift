/// An ICC profile's header and tag table (ICC.1:2022 clause 7), parsed once with every offset
/// and size checked. Versions 2 and 4 are read; tags are decoded only when a transform asks
/// for them (``ColorTransform``).
///
/// A profile that breaks the rules (short, a tag outside the profile, tags that partly
/// overlap, more tags than fit) is refused with a ``DecodingError``; callers turn that into a
/// warning and leave the pixels as they are.
public struct ICCProfile: Sendable {
    /// Profiles larger than this are refused (a JPEG can carry at most 255 × 65 519 bytes).
    public static let maxByteCount = 16 << 20
    /// More tags than this are refused; real profiles have a few dozen.
    static let maxTagCount = 1024

    /// The profile/device class (clause 7.2.5): `'mntr'`, `'scnr'`, `'prtr'`, `'spac'`…
    let deviceClass: ICCSignature
    /// The data colour space (clause 7.2.6): `'RGB '`, `'GRAY'`, `'CMYK'`…
    let colorSpace: ICCSignature
    /// The profile connection space (clause 7.2.7): `'XYZ '` or `'Lab '`.
    let connectionSpace: ICCSignature
    /// The major version, 2 or 4 (clause 7.2.4).
    public let majorVersion: Int
    let data: ICCBytes
    /// Tag signature → (offset, size) inside the profile (clause 7.3).
    let tags: [ICCSignature: (offset: Int, size: Int)]

    /// Reads the header and the tag table of `bytes`.
    public init(bytes: [UInt8]) throws(DecodingError) {
        guard bytes.count <= Self.maxByteCount else { throw .limitExceeded("ICC profile larger than 16 MiB") }
        let d = ICCBytes(bytes: bytes)
        guard let declared = d.u32(0), let magic = d.u32(36), let version = d.u8(8),
              let deviceClass = d.u32(12), let colorSpace = d.u32(16), let pcs = d.u32(20),
              let tagCount = d.u32(128) else { throw .truncated("ICC profile shorter than its header") }
        guard magic == ICCSignature("acsp").rawValue else { throw .invalidData("ICC profile signature is not 'acsp'") }
        guard Int(declared) <= bytes.count, declared >= 132 else { throw .truncated("ICC profile shorter than its declared size") }
        let size = Int(declared)
        guard tagCount <= Self.maxTagCount, Int(tagCount) <= (size - 132) / 12 else {
            throw .invalidData("ICC tag count larger than the profile holds")
        }
        let tableEnd = 132 + 12 * Int(tagCount)
        var tags: [ICCSignature: (offset: Int, size: Int)] = [:]
        var extents: [(offset: Int, size: Int)] = []
        for i in 0..<Int(tagCount) {
            let entry = 132 + 12 * i
            guard let sig = d.u32(entry), let offset = d.u32(entry + 4), let length = d.u32(entry + 8) else {
                throw .truncated("ICC tag table cut short")
            }
            guard length >= 8, Int(offset) >= tableEnd, Int(offset) <= size, Int(length) <= size - Int(offset) else {
                throw .invalidData("ICC tag outside the profile")
            }
            if tags[ICCSignature(sig)] == nil { tags[ICCSignature(sig)] = (Int(offset), Int(length)) }
            extents.append((Int(offset), Int(length)))
        }
        try Self.checkOverlaps(&extents)
        self.deviceClass = ICCSignature(deviceClass)
        self.colorSpace = ICCSignature(colorSpace)
        self.connectionSpace = ICCSignature(pcs)
        self.majorVersion = Int(version)
        self.data = ICCBytes(bytes: Array(bytes.prefix(size)))
        self.tags = tags
    }

    /// Tags may share their data exactly (clause 7.3.1) but never partly overlap: sorted by
    /// offset, each distinct tag must end before the next begins. O(n log n).
    private static func checkOverlaps(_ extents: inout [(offset: Int, size: Int)]) throws(DecodingError) {
        extents.sort { $0.offset != $1.offset ? $0.offset < $1.offset : $0.size < $1.size }
        var previous: (offset: Int, size: Int)?
        for e in extents {
            if let p = previous {
                if p.offset == e.offset && p.size == e.size { continue }
                guard p.offset + p.size <= e.offset else { throw .invalidData("ICC tags overlap") }
            }
            previous = e
        }
    }

    /// Whether the data colour space is RGB, gray or CMYK (the ones a transform can take).
    var channelCount: Int? {
        switch colorSpace {
        case ICCSignature("RGB "): 3
        case ICCSignature("GRAY"): 1
        case ICCSignature("CMYK"): 4
        default: nil
        }
    }

    /// Whether the profile describes CMYK data.
    public var isCMYK: Bool { colorSpace == ICCSignature("CMYK") }
    /// Whether the profile describes one-channel (gray) data.
    public var isGray: Bool { colorSpace == ICCSignature("GRAY") }

    /// A tag's bytes' position, or nil when the profile lacks it.
    func tag(_ sig: StaticString) -> (offset: Int, size: Int)? { tags[ICCSignature(sig)] }

    /// The tag's type signature (its first four bytes, clause 10).
    func type(at offset: Int) -> ICCSignature? { data.u32(offset).map(ICCSignature.init) }
}
