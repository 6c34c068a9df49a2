import CodecCore

/// MPO files (CIPA DC-007-2009): the images the first image's MP index lists are frames, as
/// Pillow's `MpoImagePlugin` gives them. Each later image is parsed by a container of its own
/// that starts at the image's offset, once the image before it has ended; the frames are
/// composed on a canvas of the first image's size with blend `source` and disposal `none`, so
/// each frame shows its image alone (a smaller one at the top left, over the frame before).
/// An Ultra HDR file's MP index lists its gain map: it stays one image, as in Pillow.
extension JPEGFormat {
    /// The MP index, unless the file is Ultra HDR.
    var multiPicture: JPEGMultiPicture? {
        container.declaresGainMap ? nil : container.multiPicture
    }

    /// The container of frame `index` (0: the first image).
    func picture(_ index: Int) -> JPEGContainer {
        index == 0 ? container : pictures[index - 1]
    }

    package mutating func parse(_ input: InputBuffer) throws(DecodingError) {
        try container.parse(input)
        guard container.ended, !picturesStopped, let index = multiPicture else { return }
        if pictures.isEmpty {
            let allowed = max(0, options.limits.maxFrames - 1)
            pictures = index.offsets.prefix(allowed).map { JPEGContainer(options: options, origin: $0) }
            picturesStopped = pictures.isEmpty
        }
        for i in pictures.indices {
            guard i == 0 || pictures[i - 1].ended else { return }
            do {
                try pictures[i].parse(input)
            } catch {
                stopPictures(at: i)
                return
            }
            // An image that starts past the end of the whole file is not there.
            if input.isFinal, pictures[i].frame == nil, !pictures[i].ended {
                stopPictures(at: i)
                return
            }
        }
    }

    /// A broken or missing later image ends the frames; the images before it stay.
    private mutating func stopPictures(at i: Int) {
        pictures.removeSubrange(i...)
        picturesStopped = true
    }

    package var revision: Int {
        pictures.reduce(container.revision &+ pictures.count) { $0 &+ $1.revision }
    }

    package var isComplete: Bool {
        container.ended && (picturesStopped || pictures.allSatisfy(\.ended))
            && (multiPicture == nil || !pictures.isEmpty || picturesStopped)
    }

    /// A canvas only for an MPO: its size is the first image's.
    package var canvas: CanvasSpec? {
        guard multiPicture != nil, let frame = container.frame else { return nil }
        return CanvasSpec(width: frame.width, height: frame.height)
    }
}
