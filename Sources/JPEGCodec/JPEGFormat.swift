import CodecCore

/// Decodes JPEG files (ITU T.81: baseline, extended and progressive processes, Huffman or
/// arithmetic coding, 8-bit) on the shared ``FrameDriver``, with pixels equal to libjpeg-turbo's
/// `djpeg -dct int` (ISLOW inverse DCT, fancy upsampling) in RGBA8.
package typealias JPEGDecoder = FrameDriver<JPEGFormat>

/// JPEG's part of a decoder: the marker parser (``JPEGContainer``) and the scans' decoder
/// (``JPEGPixelDecoder``), one frame, never composed.
package struct JPEGFormat: FrameFormat {
    package typealias Job = JPEGPixelDecoder

    let options: DecodingOptions
    package var container: JPEGContainer

    /// SOI, then the 0xFF of the next marker (B.1.1.2): three bytes no other format starts with.
    package static let signature: [UInt8] = [0xFF, 0xD8, 0xFF]

    package init(options: DecodingOptions) {
        self.options = options
        container = JPEGContainer(options: options)
    }

    /// The image's decoder, or a thumbnail's: decoded at the smallest of libjpeg's IDCT scales
    /// (1/8, 1/4, 1/2, 1) no smaller than the thumbnail, keeping only the coefficients that scale
    /// reads, and shrunk to the exact size as its rows come out. Nil before the first scan. The
    /// image and the coefficients it needs are checked together against what may be held.
    package func makeJob(for purpose: FrameJobPurpose, input: InputBuffer, limits: Limits) throws(DecodingError) -> Job? {
        guard let frame = container.frame, let first = container.scans.first else { return nil }
        let colorSpace = JPEGColorSpace(frame: frame, metadata: container.metadata)
        var scaledSize = 8, thumbnail: (width: Int, height: Int)?
        if case .thumbnail(let width, let height) = purpose {
            scaledSize = JPEGOutputGeometry.scaledSize(for: frame, fitting: width, height)
            thumbnail = (width, height)
        }
        let bytes = JPEGPixelDecoder.bytes(frame: frame, firstScan: first.header, scaledSize: scaledSize,
                                           thumbnail: thumbnail != nil)
        guard bytes <= limits.maxBytesHeld else {
            throw .limitExceeded("JPEG image and coefficient buffers exceed Limits.maxBytesHeld")
        }
        let job = JPEGPixelDecoder(frame: frame, firstScan: first.header, colorSpace: colorSpace,
                                   scaledSize: scaledSize, thumbnail: thumbnail)
        job.colorTransform = JPEGColorManagement.transform(options: options, colorSpace: colorSpace, profile: container.metadata.iccProfile)
        return job
    }

    package func advance(_ job: inout Job, for purpose: FrameJobPurpose, input: InputBuffer,
                         region: CanvasRegion?) throws(DecodingError) {
        try job.decode(container, input)
    }

    /// The image, or the thumbnail, as far as the scans so far give it.
    package func raster(_ job: Job) -> Raster? {
        if !job.finished { job.sink.isThumbnail ? job.prepareThumbnail() : job.prepareImage() }
        return job.sink.raster
    }
}
