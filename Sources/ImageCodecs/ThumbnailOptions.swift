import CodecCore

/// What a thumbnail should be, as SDWebImage's decoding options say it
/// (`SDImageCoderDecodeThumbnailPixelSize`, `…PreserveAspectRatio`, `…ScaleDownLimitBytes`).
///
/// The size is worked out from the frame's size in three steps: turned upright (when
/// ``applyOrientation`` and the EXIF orientation swaps the sides, the box is taken in upright
/// pixels); fitted into ``thumbnailPixelSize``; then shrunk, keeping that shape, until its RGBA8
/// pixels (4 bytes each) fit ``scaleDownLimitBytes``. Nothing is ever enlarged. The pixels are
/// decoded at that size by the decoders' streaming path (libjpeg's DCT scaling for JPEG, rows
/// shrunk as they come out otherwise), never at full size first.
public struct ThumbnailOptions: Sendable, Equatable {
    /// A width and a height in pixels.
    public struct PixelSize: Sendable, Equatable {
        /// Width in pixels.
        public var width: Int
        /// Height in pixels.
        public var height: Int
        /// A size of `width × height` pixels.
        public init(width: Int, height: Int) {
            self.width = width
            self.height = height
        }
    }

    /// The box the thumbnail must fit; nil for no box (only the byte limit then applies).
    public var thumbnailPixelSize: PixelSize?
    /// True (the default): the largest size with the image's aspect ratio inside the box. False:
    /// exactly the box, each side shrunk on its own (a side the image is already no longer than
    /// stays the image's: nothing is enlarged).
    public var preserveAspectRatio = true
    /// The most bytes the thumbnail's pixels may take at 4 bytes a pixel; the image is shrunk,
    /// keeping its aspect ratio, to the largest size within it (at least 1×1). Nil: no limit.
    public var scaleDownLimitBytes: Int?
    /// Turn the thumbnail upright by the EXIF orientation.
    public var applyOrientation = true

    /// Options with a box, an aspect rule, a byte limit and orientation; the defaults give the image
    /// at full size, upright.
    public init(thumbnailPixelSize: PixelSize? = nil, preserveAspectRatio: Bool = true,
                scaleDownLimitBytes: Int? = nil, applyOrientation: Bool = true) {
        self.thumbnailPixelSize = thumbnailPixelSize
        self.preserveAspectRatio = preserveAspectRatio
        self.scaleDownLimitBytes = scaleDownLimitBytes
        self.applyOrientation = applyOrientation
    }

    /// The thumbnail's size, before orientation, for a frame of `width × height` whose EXIF
    /// orientation is `orientation` (1 when it is not applied).
    func outputSize(width: Int, height: Int, orientation: Int) throws(DecodingError) -> (width: Int, height: Int) {
        var size = (width: width, height: height)
        if var box = thumbnailPixelSize {
            guard box.width > 0, box.height > 0 else { throw .invalidRequest("thumbnailPixelSize must be positive") }
            if orientation >= 5 { box = PixelSize(width: box.height, height: box.width) }
            size = preserveAspectRatio ? Self.fitted(size, into: box)
                : (min(box.width, size.width), min(box.height, size.height))
        }
        if let limit = scaleDownLimitBytes {
            guard limit > 0 else { throw .invalidRequest("scaleDownLimitBytes must be positive") }
            size = Self.limited(size, pixels: limit / 4)
        }
        return size
    }

    /// The largest size with the aspect ratio of `size` inside `box`, never larger than `size`.
    static func fitted(_ size: (width: Int, height: Int), into box: PixelSize) -> (width: Int, height: Int) {
        guard size.width > box.width || size.height > box.height else { return size }
        // Width-limited when width / height ≥ box.width / box.height (compared in Double:
        // the sides are below 2^31 but their products need not fit every Int).
        if Double(size.width) * Double(box.height) >= Double(size.height) * Double(box.width) {
            let h = (Double(size.height) * Double(box.width) / Double(size.width)).rounded()
            return (box.width, min(box.height, max(1, Int(h))))
        }
        let w = (Double(size.width) * Double(box.height) / Double(size.height)).rounded()
        return (min(box.width, max(1, Int(w))), box.height)
    }

    /// The largest size with the aspect ratio of `size` that has at most `pixels` pixels
    /// (SDWebImage's `scaledSizeWithImageSize:limitBytes:`), at least 1×1.
    static func limited(_ size: (width: Int, height: Int), pixels: Int) -> (width: Int, height: Int) {
        guard area(size.width, size.height) > pixels else { return size }
        let ratio = Double(size.height) / Double(size.width)
        var w = max(1, min(size.width, Int((Double(pixels) / ratio).squareRoot())))
        var h = max(1, min(size.height, Int((Double(w) * ratio).rounded(.down))))
        // Rounding, or a side clamped to 1 or to the image, can leave the area past the budget.
        if area(w, h) > pixels { w = max(1, pixels / h) }
        if area(w, h) > pixels { h = max(1, pixels / w) }
        return (w, h)
    }

    /// `width × height`, or `Int.max` when that overflows.
    private static func area(_ width: Int, _ height: Int) -> Int {
        let (product, overflow) = width.multipliedReportingOverflow(by: height)
        return overflow ? .max : product
    }
}
