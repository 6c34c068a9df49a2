import CodecCore

/// What the parsed chunks say about the image and its frames, as ``WebPFormat`` gives it out.
extension WebPContainerParser {
    /// Canvas (VP8X) or image size, alpha (the VP8X flag, or VP8L's alpha hint), loop count
    /// (ANIM), and the ICCP, EXIF (with its orientation) and XMP chunks once they have arrived.
    package func makeProperties() -> ImageProperties? {
        let width: Int, height: Int, hasAlpha: Bool
        if let x = extended {
            (width, height, hasAlpha) = (x.canvasWidth, x.canvasHeight, x.hasAlpha)
        } else if let first = frames.first {
            (width, height, hasAlpha) = (first.bitstream.width, first.bitstream.height, first.bitstream.hasAlpha)
        } else {
            return nil
        }
        var p = ImageProperties(width: width, height: height, bitDepth: 8, hasAlpha: hasAlpha, isInterlaced: false)
        if let animation {
            p.loopCount = animation.loopCount
            let c = animation.backgroundColor
            p.backgroundColor = [Int(c >> 16 & 0xFF), Int(c >> 8 & 0xFF), Int(c & 0xFF)]
        }
        p.iccProfile = iccPayload
        if let exifPayload {
            p.exif = Self.tiffPayload(exifPayload)
            if let orientation = Orientation.fromEXIF(exifPayload) { p.orientation = orientation }
        }
        if let xmpPayload {
            p.text.append(TextEntry(keyword: "XML:com.adobe.xmp", text: String(decoding: xmpPayload, as: UTF8.self)))
        }
        return p
    }

    /// Copies each metadata chunk's payload once it has arrived whole (one larger than
    /// ``Limits/maxMetadataBytes`` is left out).
    mutating func readMetadata(_ input: InputBuffer) {
        func take(_ range: Range<Int>?, _ held: inout [UInt8]?) -> Int {
            guard held == nil, let range, range.count <= limits.maxMetadataBytes,
                  input.has(range.count, at: range.lowerBound) else { return 0 }
            held = input.copy(range)
            return 1
        }
        revision += take(icc, &iccPayload) + take(exif, &exifPayload) + take(xmp, &xmpPayload)
    }

    /// EXIF as TIFF bytes: a leading "Exif\0\0" (some writers keep JPEG's APP1 prefix) is dropped.
    static func tiffPayload(_ exif: [UInt8]) -> [UInt8] {
        exif.starts(with: Array("Exif\0\0".utf8)) ? Array(exif.dropFirst(6)) : exif
    }

    package var frameCount: Int { frames.count }

    package func frameProperties(at index: Int) -> FrameProperties? { frames[existing: index]?.properties }

    /// Whether the frame's bitstream has arrived (a lossy still's may still read past it:
    /// ``WebPFormat/isFrameComplete(at:still:)``).
    package func isFrameComplete(at index: Int) -> Bool {
        guard let frame = frames[existing: index] else { return false }
        return frame.bitstream.dataEnd <= available
    }

    /// An animation's canvas, composed with libwebp's integer blend (WebPFormat+Animation.swift).
    package var canvas: CanvasSpec? {
        guard isAnimated, let x = extended else { return nil }
        return CanvasSpec(width: x.canvasWidth, height: x.canvasHeight, overRule: .webPAnimDecoder)
    }
}
