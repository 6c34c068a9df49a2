import CodecCore

/// Decodes JPEG files (ITU T.81: baseline, extended and progressive processes, Huffman or
/// arithmetic coding, 8-bit) on the shared ``FrameDriver``, with pixels equal to libjpeg-turbo's
/// `djpeg -dct int` (ISLOW inverse DCT, fancy upsampling) in RGBA8.
package typealias JPEGDecoder = FrameDriver<JPEGFormat>

/// JPEG's part of a decoder: the marker parser (``JPEGContainer``) and the scans' decoder
/// (``JPEGPixelDecoder``). One frame, never composed, unless the file is an MPO (CIPA DC-007):
/// then each image its MP index lists is a frame (``JPEGFormat+MultiPicture.swift``).
package struct JPEGFormat: FrameFormat {
    package typealias Job = JPEGPixelDecoder

    let options: DecodingOptions
    package var container: JPEGContainer
    /// An MPO's images after the first, each parsed once the one before it has ended.
    var pictures: [JPEGContainer] = []
    /// A later MPO image was malformed: the frames stop before it.
    var picturesStopped = false

    /// SOI, then the 0xFF of the next marker (B.1.1.2): three bytes no other format starts with.
    package static let signature: [UInt8] = [0xFF, 0xD8, 0xFF]

    package init(options: DecodingOptions) {
        self.options = options
        container = JPEGContainer(options: options)
    }

    /// One frame once the frame header is read, and one for each later MPO image whose frame
    /// header is read.
    package var frameCount: Int {
        guard container.frame != nil else { return 0 }
        return 1 + pictures.prefix { $0.frame != nil }.count
    }

    package func frameProperties(at index: Int) -> FrameProperties? {
        guard index >= 0, index < frameCount else { return nil }
        return picture(index).frameProperties(at: 0)
    }

    package func isFrameComplete(at index: Int, still: Job?) -> Bool {
        index >= 0 && index < frameCount && picture(index).isFrameComplete(at: 0)
    }

    /// The image's decoder, or a thumbnail's: decoded at the smallest of libjpeg's IDCT scales
    /// (1/8, 1/4, 1/2, 1) no smaller than the thumbnail, keeping only the coefficients that scale
    /// reads, and shrunk to the exact size as its rows come out. Nil before the first scan. The
    /// image and the coefficients it needs are checked together against what may be held.
    package func makeJob(for purpose: FrameJobPurpose, input: InputBuffer, limits: Limits) throws(DecodingError) -> Job? {
        let container = picture(purpose.frameIndex)
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
                                   scaledSize: scaledSize, thumbnail: thumbnail, maxThreads: options.maxThreads)
        job.colorTransform = JPEGColorManagement.transform(options: options, colorSpace: colorSpace, profile: container.metadata.iccProfile)
        return job
    }

    package func advance(_ job: inout Job, for purpose: FrameJobPurpose, input: InputBuffer,
                         region: CanvasRegion?) throws(DecodingError) {
        try job.decode(picture(purpose.frameIndex), input)
    }

    /// The image, or the thumbnail, as far as the scans so far give it.
    package func raster(_ job: Job) -> Raster? {
        if !job.finished { job.sink.isThumbnail ? job.prepareThumbnail() : job.prepareImage() }
        return job.sink.raster
    }
}
