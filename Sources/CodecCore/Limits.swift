/// Resource limits, checked before anything is allocated.
///
/// The defaults suit a server decoding untrusted images; every decoder checks the
/// relevant limit with overflow-checked arithmetic and throws
/// ``DecodingError/Kind/limitExceeded`` instead of allocating past it.
public struct Limits: Sendable, Equatable {
    /// Largest number of pixels in one frame (or canvas).
    public var maxPixels: Int = 1 << 28
    /// Largest number of frames an animation may declare or contain.
    public var maxFrames: Int = 10_000
    /// Largest number of bytes a decoder may hold at once in the buffers that grow with the
    /// image, all together: canvas, output rasters, JPEG coefficients, WebP planes, thumbnail
    /// resamplers (the frame driver's sum; SPEC-NOTES.md, "Limits").
    public var maxBytesHeld: Int = 1 << 30
    /// Largest size of the decompressed metadata items (ICC profile, text as UTF-8, EXIF), all
    /// together. Libpng's default for one ancillary chunk is 8,000,000 bytes
    /// (`PNG_USER_CHUNK_MALLOC_MAX`); what is kept is held once, at its size.
    public var maxMetadataBytes: Int = 8 << 20
    /// Largest number of metadata items (text entries, comments, profiles) kept; later ones are
    /// left out. Libpng keeps 1,000 ancillary chunks by default (`PNG_USER_CHUNK_CACHE_MAX`):
    /// an empty GIF comment costs three bytes of file and nothing of ``maxMetadataBytes``.
    public var maxMetadataItems: Int = 1_000
    /// Largest number of JPEG scans (progressive files).
    public var maxJPEGScans: Int = 1_000
    /// Largest canvas pixel count times the number of frames of an animation: the pixel writes
    /// that showing every frame costs. Checked as frames become known, before any is decoded,
    /// so that a few kilobytes declaring hundreds of frames on a huge canvas are refused at once
    /// (SPEC-NOTES.md, "Limits").
    public var maxAnimationPixels: Int = 1 << 32
    /// Largest number of times the scans of a JPEG file may pass over its blocks, on average:
    /// the blocks all scans cover together, over the blocks of the frame. Each scan walks every
    /// block it covers however few bytes it has (an end-of-band run of 32,767 blocks takes two
    /// bytes), so this bounds the work of the scans. Progressive files made by libjpeg and
    /// mozjpeg pass 3–10 times, a sequential file once; the heaviest test files (jpegsuite
    /// `*_spectral_all.jpg`, a scan per coefficient) 64 times.
    public var maxJPEGBlockPasses: Int = 128

    /// The default limits (the values each property lists).
    public init() {}

    /// Limits with the values given and the defaults for the rest.
    public init(maxPixels: Int = 1 << 28, maxFrames: Int = 10_000, maxBytesHeld: Int = 1 << 30,
                maxMetadataBytes: Int = 8 << 20, maxMetadataItems: Int = 1_000, maxJPEGScans: Int = 1_000,
                maxJPEGBlockPasses: Int = 128, maxAnimationPixels: Int = 1 << 32) {
        self.maxPixels = maxPixels
        self.maxFrames = maxFrames
        self.maxBytesHeld = maxBytesHeld
        self.maxMetadataBytes = maxMetadataBytes
        self.maxMetadataItems = maxMetadataItems
        self.maxJPEGScans = maxJPEGScans
        self.maxJPEGBlockPasses = maxJPEGBlockPasses
        self.maxAnimationPixels = maxAnimationPixels
    }

    /// Checks that an animation may have one more frame than `frames` on a `width × height`
    /// canvas: fewer than ``maxFrames``, and, from the second frame on, no more than
    /// ``maxAnimationPixels`` canvas pixels over all of them.
    public func checkFrame(after frames: Int, canvasWidth width: Int, canvasHeight height: Int) throws(DecodingError) {
        guard frames < maxFrames else { throw .limitExceeded("frame count exceeds Limits.maxFrames") }
        // One frame's canvas is ``maxPixels``'s to judge, when it is allocated.
        guard frames > 0 else { return }
        let (pixels, o1) = width.multipliedReportingOverflow(by: height)
        let (total, o2) = pixels.multipliedReportingOverflow(by: frames + 1)
        guard !o1, !o2, total <= maxAnimationPixels else {
            throw .limitExceeded("canvas pixels times frames exceeds Limits.maxAnimationPixels")
        }
    }

    /// Checks a `width × height` raster of `bytesPerPixel` against the limits and returns
    /// its byte count, or throws before the caller allocates anything.
    public func checkedRasterBytes(width: Int, height: Int, bytesPerPixel: Int) throws(DecodingError) -> Int {
        guard width > 0, height > 0 else { throw .invalidData("image dimension is zero") }
        let (pixels, o1) = width.multipliedReportingOverflow(by: height)
        guard !o1, pixels <= maxPixels else { throw .limitExceeded("pixel count exceeds Limits.maxPixels") }
        let (bytes, o2) = pixels.multipliedReportingOverflow(by: bytesPerPixel)
        guard !o2, bytes <= maxBytesHeld else { throw .limitExceeded("buffer size exceeds Limits.maxBytesHeld") }
        return bytes
    }
}
