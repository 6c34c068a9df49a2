import CodecCore

/// The part of a VP8L main image, as coded, that LZ77 copies may still read (RFC 9649 5.2.2),
/// as ARGB words or, on the 8-bit ALPH path, as one colour index a byte (`Pixel`):
/// a backward reference reaches back at most 7 rows and 8 pixels (a distance-map code) or
/// ``maxDistance`` pixels (the largest distance prefix value, symbol 39 with its 18 extra bits
/// all set, 1,048,576, less the 120 codes of the distance map), so no pixel farther back than
/// that from the next one to decode is ever read again.
///
/// An image of at most ``capacity(pixels:)`` pixels is held whole. A larger one is held in a
/// sliding window of twice ``maxDistance`` pixels (8 MiB of words): when the next batch would run past its
/// end, the last ``maxDistance`` decoded pixels move to its start (one `memmove`), so a slide
/// happens about once per million pixels and moves about one pixel per pixel decoded.
struct VP8LCodedWindow<Pixel: FixedWidthInteger & Sendable>: Sendable {
    /// The farthest back an LZ77 copy reads.
    static var maxDistance: Int { (1 << 20) - VP8LBackwardReference.distanceMapSize }
    /// Room for ``maxDistance`` pixels back and as many ahead.
    static var slidingCapacity: Int { 2 * maxDistance }

    /// Positions `origin ..< origin + pixels.count` of the coded image, in scan order.
    private(set) var pixels: [Pixel] = []
    /// The coded image's position of `pixels[0]`.
    private(set) var origin = 0
    /// Whether the whole image fits (then the window never slides).
    private var holdsWholeImage = true

    /// The window's size, in pixels, for an image of `pixels` pixels.
    static func capacity(pixels: Int) -> Int { min(pixels, slidingCapacity) }

    init() {}

    init(imagePixels: Int) {
        let count = Self.capacity(pixels: imagePixels)
        pixels = [Pixel](repeating: 0, count: count)
        holdsWholeImage = count == imagePixels
    }

    /// Bytes held.
    var heldBytes: Int { pixels.count * MemoryLayout<Pixel>.stride }

    /// Runs `body` on the window's first pixel (position ``origin``).
    mutating func withUnsafeMutablePixels(_ body: (UnsafeMutablePointer<Pixel>) throws(DecodingError) -> Void)
        throws(DecodingError) {
        try pixels.withUnsafeMutableBufferPointer { (window) throws(DecodingError) in
            guard let base = window.baseAddress else { return }
            try body(base)
        }
    }

    /// Makes room for decoding from `position` (every pixel before it decoded) up to `end`,
    /// sliding the window if an LZ77 copy that starts before `end` could pass its end, and
    /// returns how far to decode: `end`, or less if the window cannot hold that much at once (a
    /// caller's batch larger than ``maxDistance``), but always past `position`.
    mutating func makeRoom(from position: Int, upTo end: Int) -> Int {
        guard !holdsWholeImage else { return end }
        let copyLength = VP8LBackwardReference.maxLength
        if end + copyLength - origin > pixels.count {
            let keep = max(0, position - Self.maxDistance)
            let origin = self.origin
            pixels.withUnsafeMutableBufferPointer { window in
                guard let base = window.baseAddress else { return }
                base.update(from: base + (keep - origin), count: position - keep)
            }
            self.origin = keep
        }
        return min(end, origin + pixels.count - copyLength)
    }
}
