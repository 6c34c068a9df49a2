import CodecCore

/// Encodes a VP8L bitstream (RFC 9649): the header, the transforms (subtract green, predictor
/// and cross colour for photos; colour indexing for ≤ 256 colours), then the entropy-coded
/// image. Exact: the decoder gives back every pixel, except that without `exact` the colour of
/// fully transparent pixels is not kept (it is chosen to compress best, as cwebp does).
package enum VP8LEncoder {
    /// RFC 9649 3.2 stores width and height minus one in 14 bits; libwebp (WEBP_MAX_DIMENSION)
    /// and so every WebP encoder and decoder it backs stop at 16383, as here.
    package static let maxDimension = 16383

    /// The VP8L bitstream of ARGB pixels (alpha in the top byte); `argb` may be changed.
    static func encode(argb: inout [UInt32], width: Int, height: Int, effort: Int, exact: Bool) -> [UInt8] {
        var alphaUsed = false
        for i in argb.indices where argb[i] < 0xFF00_0000 {
            alphaUsed = true
            if !exact && argb[i] < 0x0100_0000 { argb[i] = 0 }
        }
        let settings = VP8LEncoderSettings(effort: effort).fitted(width: width, height: height)
        let palette = argb.withUnsafeBufferPointer { VP8LPaletteEncoding.palette($0) }
        var best: [UInt8]?
        func consider(_ candidate: [UInt8]) {
            if best.map({ candidate.count < $0.count }) ?? true { best = candidate }
        }
        let header = VP8LHeader(width: width, height: height, alphaIsUsed: alphaUsed)
        if let palette {
            consider(paletteStream(argb, header, palette, settings))
        }
        if palette == nil || settings.tryAllTransforms {
            if settings.tryAllTransforms {
                var spatial: Int?
                for subtractGreen in [true, false] {
                    let stream = spatialStream(argb, header, subtractGreen: subtractGreen, exact: exact, settings)
                    spatial = min(spatial ?? stream.count, stream.count)
                    consider(stream)
                }
                // From effort 9 also with the predictor's tiles of 4 (how large they had best be
                // differs from image to image: a few percent), unless the spatial streams are
                // far larger than the best (a palette's) anyway.
                if settings.triesSmallestPredictorTiles && settings.predictorBits > 2,
                   let spatial, let best, spatial * 20 < best.count * 21 {
                    var small = settings
                    small.predictorBits = 2
                    for subtractGreen in [true, false] {
                        consider(spatialStream(argb, header, subtractGreen: subtractGreen, exact: exact, small))
                    }
                }
            } else {
                let subtractGreen = argb.withUnsafeBufferPointer { VP8LTransformAnalysis.prefersSubtractGreen($0, width: width) }
                consider(spatialStream(argb, header, subtractGreen: subtractGreen, exact: exact, settings))
            }
        }
        if settings.tryAllTransforms || width * height <= 256 {
            consider(plainStream(argb, header, settings))
        }
        return best ?? []
    }

    /// RFC 9649 3.2: the header.
    static func writeHeader(_ header: VP8LHeader, to writer: inout LSBBitWriter) {
        writer.write(UInt32(VP8LHeader.signature), 8)
        writer.write(UInt32(header.width - 1), 14)
        writer.write(UInt32(header.height - 1), 14)
        writer.write(header.alphaIsUsed ? 1 : 0, 1)
        writer.write(0, 3)
    }

    /// RFC 9649 4: a transform's presence bit and its type.
    static func writeTransform(_ kind: VP8LTransform.Kind, to writer: inout LSBBitWriter) {
        writer.write(1, 1)
        writer.write(UInt32(kind.rawValue), 2)
    }

    /// Subtract green, the predictor and (by effort) the colour transform, then the image.
    static func spatialStream(_ argb: [UInt32], _ header: VP8LHeader, subtractGreen: Bool, exact: Bool,
                              _ settings: VP8LEncoderSettings) -> [UInt8] {
        let width = header.width, height = header.height
        var writer = LSBBitWriter(capacity: argb.count)
        writeHeader(header, to: &writer)
        var pixels = argb
        if subtractGreen {
            writeTransform(.subtractGreen, to: &writer)
            VP8LSubtractGreen.apply(&pixels)
        }
        let modes = pixels.withUnsafeBufferPointer {
            VP8LPredictorEncoding.chooseModes($0, width: width, height: height, bits: settings.predictorBits,
                                              modes: settings.predictorModes)
        }
        writeTransform(.predictor, to: &writer)
        writer.write(UInt32(settings.predictorBits - 2), 3)
        VP8LSubImageWriter.write(modes, width: VP8LEntropyCoding.subsampledSize(width, bits: settings.predictorBits),
                                 to: &writer)
        var residuals = pixels.withUnsafeMutableBufferPointer {
            VP8LPredictorEncoding.residuals($0, width: width, height: height, bits: settings.predictorBits, modes: modes,
                                            exact: exact)
        }
        if settings.useCrossColor {
            let elements = residuals.withUnsafeMutableBufferPointer {
                VP8LCrossColorEncoding.apply($0, width: width, height: height, bits: settings.crossColorBits)
            }
            writeTransform(.crossColor, to: &writer)
            writer.write(UInt32(settings.crossColorBits - 2), 3)
            VP8LSubImageWriter.write(elements, width: VP8LEntropyCoding.subsampledSize(width, bits: settings.crossColorBits),
                                     to: &writer)
        }
        writer.write(0, 1)
        VP8LMainImageSearch.write(residuals, width: width, settings, to: &writer)
        return writer.finish()
    }

    /// Colour indexing, then the index image.
    static func paletteStream(_ argb: [UInt32], _ header: VP8LHeader, _ palette: [UInt32],
                              _ settings: VP8LEncoderSettings) -> [UInt8] {
        var writer = LSBBitWriter(capacity: argb.count / 2)
        writeHeader(header, to: &writer)
        writeTransform(.colorIndexing, to: &writer)
        writer.write(UInt32(palette.count - 1), 8)
        VP8LSubImageWriter.write(VP8LPaletteEncoding.deltaCoded(palette), width: palette.count, to: &writer)
        let (indices, packedWidth) = argb.withUnsafeBufferPointer {
            VP8LPaletteEncoding.indexImage($0, width: header.width, height: header.height, palette: palette)
        }
        writer.write(0, 1)
        // Index images (graphics, mostly) gain from long chains far more than photos do.
        var indexSettings = settings
        indexSettings.chainSteps = min(settings.chainSteps * 2, 512)
        VP8LMainImageSearch.write(indices, width: packedWidth, indexSettings, to: &writer)
        return writer.finish()
    }

    /// No transform at all (small images, where transforms cost more than they save).
    static func plainStream(_ argb: [UInt32], _ header: VP8LHeader, _ settings: VP8LEncoderSettings) -> [UInt8] {
        var writer = LSBBitWriter(capacity: argb.count)
        writeHeader(header, to: &writer)
        writer.write(0, 1)
        VP8LMainImageSearch.write(argb, width: header.width, settings, to: &writer)
        return writer.finish()
    }
}

/// RFC 9649 4.3, forward: green is subtracted from red and blue, modulo 256.
enum VP8LSubtractGreen {
    static func apply(_ pixels: inout [UInt32]) {
        pixels.withUnsafeMutableBufferPointer { p in
            for i in 0..<p.count {
                let argb = p[i]
                let green = (argb &>> 8) & 0xFF
                let redBlue = ((argb & 0x00FF_00FF) | 0xFF00_FF00) &- (green &<< 16 | green)
                p[i] = (argb & 0xFF00_FF00) | (redBlue & 0x00FF_00FF)
            }
        }
    }
}
