import CodecCore
@testable import JPEGCodec

extension JPEGFormat {
    /// The image at libjpeg's scale `scaledSize`/8 (8, 4, 2 or 1) as `djpeg -scale` gives it,
    /// decoded afresh as thumbnails are: the scaled inverse DCTs and upsampling, and for a
    /// buffered file only the coefficients the scaled transforms read (so without block
    /// smoothing at the scales where those are a subset), on up to `options.maxThreads` threads.
    func scaledImage(scaledSize: Int, input: InputBuffer) throws(DecodingError) -> DecodedImage {
        guard let frame = container.frame, let first = container.scans.first else { throw .invalidRequest("no scan yet") }
        let decoder = JPEGPixelDecoder(frame: frame, firstScan: first.header,
                                       colorSpace: JPEGColorSpace(frame: frame, metadata: container.metadata),
                                       scaledSize: scaledSize, maxThreads: options.maxThreads)
        try decoder.decode(container, input)
        if !decoder.finished { decoder.prepareImage() }
        return DecodedImage(raster: decoder.sink.raster, finalRowCount: decoder.sink.finalRows, options: options)
    }
}
