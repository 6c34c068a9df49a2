import CodecCore

/// One frame's own pixels before composition, with where and how it goes on the canvas:
/// YYImageDecoder's `frameAtIndex:decodeForDisplay:` with `NO` (``ImageSource/rawFrame(at:)``).
public struct RawFrame: Sendable, Equatable {
    /// The frame's pixels, the size of its rectangle (``properties``), in the layout the
    /// source's ``DecodingOptions`` ask for; partial while the frame's data is arriving
    /// (``DecodedImage/finalRowCount``).
    public let image: DecodedImage
    /// The frame's rectangle on the canvas (clipped to it), duration, disposal, blend and alpha,
    /// as ``ImageSource/properties(at:)`` gives them.
    public let properties: FrameProperties
    /// The frame's status when its pixels were decoded: ``ImageSourceStatus/complete`` once all
    /// its data had arrived, ``ImageSourceStatus/incomplete`` while more may come,
    /// ``ImageSourceStatus/unexpectedEOF`` when the input ended inside it.
    public let status: ImageSourceStatus
}

extension ImageSource {
    /// Frame `index`'s own pixels, not composited on the canvas, with its rectangle, disposal,
    /// blend and duration (YYImageDecoder's `frameAtIndex:decodeForDisplay: NO`): a GIF image
    /// with its transparent index transparent, an APNG frame's fdAT image, an ANMF frame's
    /// bitstream. A still image gives its whole image. The canvas ``image(at:)`` composes is
    /// left as it was. While the data is incomplete the frame is partial; asking again as
    /// bytes arrive resumes the frame's decoding. An index out of range is
    /// ``DecodingError/Kind/invalidRequest``; a pixel error in the frame is thrown for it.
    public func rawFrame(at index: Int) throws(DecodingError) -> RawFrame {
        let (rendered, properties, status) = try render {
            (decoder, input) throws(DecodingError) -> (RenderedImage, FrameProperties, ImageSourceStatus) in
            guard index >= 0, index < decoder.frameCount, let properties = decoder.frameProperties(at: index) else {
                throw .invalidRequest("frame index out of range")
            }
            let image = try decoder.rawFrame(at: index, input: input)
            let status: ImageSourceStatus = decoder.isFrameComplete(at: index) ? .complete
                : input.isFinal ? .unexpectedEOF : .incomplete
            return (image, properties, status)
        }
        return RawFrame(image: converted(rendered), properties: properties, status: status)
    }
}
