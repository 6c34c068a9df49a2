import CodecCore

/// Decodes GIF87a and GIF89a (GIF89a specification, CompuServe 1990) as a resumable state
/// machine, with the frames a browser shows.
///
/// Each Image Descriptor is one frame: the full logical screen after that image is drawn
/// (images clipped to the screen, never enlarging it). The canvas starts transparent; pixels
/// of the transparent colour index leave it as it is; the Graphic Control Extension's disposal
/// applies before the next frame (SPEC-NOTES.md, GIF).
public final class GIFDecoder: ImageDecoding {
    let options: DecodingOptions
    private(set) var container: GIFContainer
    public private(set) var error: DecodingError?
    /// The composed canvas and its random-access plan.
    var canvas: AnimationCanvas?
    private var cachedProperties: (revision: Int, value: ImageProperties)?
    /// The frame being decoded for the compositor, and its index.
    var pending: (index: Int, decoder: GIFFrameDecoder)?

    /// The two signatures (§17 Header): "GIF87a" and "GIF89a".
    public static let signatures: [[UInt8]] = [Array("GIF87a".utf8), Array("GIF89a".utf8)]

    public init(options: DecodingOptions) {
        self.options = options
        container = GIFContainer(options: options)
    }

    /// Parses the blocks that have arrived; container errors (``GIFContainer``) are sticky. With
    /// ``DecodingOptions/decodesImmediately`` the frames are decoded as well; an error in a
    /// frame's image data is kept by that frame and thrown when its image is asked for.
    public func advance(_ input: InputBuffer) throws(DecodingError) {
        try DecodingError.sticky(&error) { () throws(DecodingError) in try container.parse(input) }
        if options.decodesImmediately, frameCount > 0 {
            _ = try? composite(AnimationCanvas.immediateTarget(canvas, frameCount: frameCount), input, makeImage: false)
        }
    }

    /// The screen size, loop count and metadata. `hasAlpha` says whether an image so far has
    /// a transparent index or leaves part of the screen uncovered (the canvas starts
    /// transparent); `isInterlaced` is the first image's flag; `bitDepth` is 8 (colour table
    /// samples). Rebuilt only when the container has read something new.
    public var properties: ImageProperties? {
        guard let screen = container.screen else { return nil }
        if let cached = cachedProperties, cached.revision == container.revision { return cached.value }
        let frames = container.frames
        var p = ImageProperties(width: screen.width, height: screen.height, bitDepth: 8,
                                hasAlpha: frames.isEmpty || container.hasTransparency,
                                isInterlaced: frames.first?.interlaced ?? false)
        p.backgroundColor = container.backgroundColor
        container.metadata.resolve(into: &p)
        cachedProperties = (container.revision, p)
        return p
    }

    public var frameCount: Int { container.frames.count }

    public func frameProperties(at index: Int) -> FrameProperties? {
        let frames = container.frames
        return frames.indices.contains(index) ? frames[index].properties : nil
    }

    public func isFrameComplete(at index: Int) -> Bool {
        let frames = container.frames
        return frames.indices.contains(index) && frames[index].complete
    }

    public var isComplete: Bool { container.ended }

    /// The canvas after frame `index`. An error in the image data of that frame, or of an earlier
    /// frame it is composed on, is thrown here, for those frames only (every GIF frame is an
    /// animation frame in ``ImageDecoding``'s sense, even in a file with one image).
    public func image(at index: Int, input: InputBuffer) throws(DecodingError) -> DecodedImage {
        if let error { throw error }
        guard index >= 0, index < frameCount else { throw .invalidRequest("frame index out of range") }
        guard let image = try composite(index, input) else { throw .invalidRequest("frame index out of range") }
        return image
    }

    /// The first frame (a still image, or an animation's first frame) is shrunk as it is
    /// decoded; later frames are composed on earlier ones and shrunk from the composed canvas.
    /// A first frame already composed is shrunk from the canvas.
    public func streamingThumbnail(at index: Int, width: Int, height: Int,
                                   input: InputBuffer) throws(DecodingError) -> DecodedImage? {
        if let error { throw error }
        guard index == 0, (canvas?.composedIndex ?? -1) < 0 else { return nil }
        return try shrinkFirstFrame(width: width, height: height, input)
    }
}
