import CodecCore

/// Decodes PNG and APNG (PNG 3rd edition, W3C 2025; APNG 1.0) on the shared ``FrameDriver``.
package typealias PNGDecoder = FrameDriver<PNGFormat>

/// PNG's part of a decoder: the chunk parser (``PNGContainer``) and the decoder of one
/// compressed image stream (``PNGFrameDecoder``).
///
/// Frames are numbered as browsers show them: a still PNG has one frame; an APNG has its
/// animation frames, composed on the full canvas with dispose_op and blend_op (APNG 1.0
/// §"fcTL"); a default image that is not part of the animation is not a frame.
package struct PNGFormat: FrameFormat {
    package typealias Job = PNGFrameDecoder

    let options: DecodingOptions
    package var container: PNGContainer

    /// The eight bytes every PNG starts with (§5.2).
    package static let signature = PNGContainer.signature

    package init(options: DecodingOptions) {
        self.options = options
        container = PNGContainer(options: options)
    }


    package func makeProperties() -> ImageProperties? {
        guard let h = container.header else { return nil }
        var p = ImageProperties(width: h.width, height: h.height, bitDepth: h.bitDepth,
                                hasAlpha: h.colorType == .greyscaleAlpha || h.colorType == .truecolorAlpha
                                    || container.transparency != nil,
                                isInterlaced: h.interlaced)
        if container.isAnimated, let plays = container.animationControl?.plays { p.loopCount = plays }
        p.showsStaticFallback = container.showsStaticFallback
        container.metadata.resolve(into: &p)
        return p
    }

    package var frameCount: Int { container.frameCount }

    package func frameProperties(at index: Int) -> FrameProperties? { container.frame(at: index)?.properties }

    package func isFrameComplete(at index: Int, still: Job?) -> Bool { container.frame(at: index)?.complete == true }


    package var canvas: CanvasSpec? {
        guard container.isAnimated, let h = container.header else { return nil }
        return CanvasSpec(width: h.width, height: h.height)
    }

    /// A still is decoded at 16 bits when asked for and the file has them; animation frames and
    /// thumbnails at 8. A thumbnail shrinks frame 0 where it lies on the canvas (drawn on a
    /// transparent canvas, its pixels are the canvas's).
    package func makeJob(for purpose: FrameJobPurpose, input: InputBuffer, limits: Limits) throws(DecodingError) -> Job? {
        guard let header = container.header else { return nil }
        let index: Int, sixteenBit: Bool
        switch purpose {
        case .still: (index, sixteenBit) = (0, options.prefersSixteenBitOutput && header.bitDepth == 16)
        case .frame(let j): (index, sixteenBit) = (j, false)
        case .thumbnail(let width, let height):
            guard let p = container.frame(at: 0)?.properties else { return nil }
            // The full-size image is never held, but its pixel count is bounded all the same.
            _ = try limits.checkedRasterBytes(width: header.width, height: header.height, bytesPerPixel: 1)
            _ = try limits.checkedRasterBytes(width: width, height: height,
                                              bytesPerPixel: StreamingResampler.bytesPerOutputPixel)
            let resampler = StreamingResampler(inputWidth: header.width, inputHeight: header.height,
                                               outputWidth: width, outputHeight: height)
            return try PNGFrameDecoder(header: header, width: p.width, height: p.height,
                                       converter: makeConverter(header, sixteenBit: false),
                                       thumbnail: resampler, origin: (p.x, p.y), ignoresChecksum: options.ignoresChecksums)
        }
        guard let p = container.frame(at: index)?.properties else { return nil }
        _ = try limits.checkedRasterBytes(width: p.width, height: p.height, bytesPerPixel: sixteenBit ? 8 : 4)
        return try PNGFrameDecoder(header: header, width: p.width, height: p.height,
                                   converter: makeConverter(header, sixteenBit: sixteenBit),
                                   ignoresChecksum: options.ignoresChecksums)
    }

    package func advance(_ job: inout Job, for purpose: FrameJobPurpose, input: InputBuffer,
                         region: CanvasRegion?) throws(DecodingError) {
        let index = purpose.frameIndex
        guard let frame = container.frame(at: index) else { throw .invalidRequest("frame index out of range") }
        try job.decode(segments: frame.segments, dataComplete: frame.complete, input: input)
    }

    package func isFinished(_ job: Job) -> Bool { job.finished }

    package func finalRowCount(_ job: Job) -> Int { job.resampler?.finishedOutputRows ?? job.finalRowCount }

    /// The frame's raster, unfinished Adam7 passes filled in from the finished ones; or the
    /// thumbnail shrunk so far.
    package func raster(_ job: Job) -> Raster? {
        if let shrunk = job.resampler { return shrunk.raster }
        var raster = job.raster
        if container.header?.interlaced == true && !job.finished {
            Adam7.expandPreview(&raster.pixels, width: raster.width, height: raster.height,
                                bytesPerPixel: raster.bytesPerPixel, passesDone: job.passesDone)
        }
        return raster
    }

    package func heldBytes(_ job: Job) -> Int { job.heldBytes }

    /// The palette with tRNS alpha (§11.3.2.1), and the colour key for types 0 and 2.
    private func makeConverter(_ header: PNGHeader, sixteenBit: Bool) -> PNGRowConverter {
        var table = [UInt8](repeating: 0, count: 1024)
        for i in 0..<256 { table[i * 4 + 3] = 255 }
        let plte = container.palette, trns = container.transparency ?? []
        for i in 0..<(plte.count / 3) {
            table[i * 4] = plte[i * 3]
            table[i * 4 + 1] = plte[i * 3 + 1]
            table[i * 4 + 2] = plte[i * 3 + 2]
            if header.colorType == .indexed && i < trns.count { table[i * 4 + 3] = trns[i] }
        }
        var key: (UInt16, UInt16, UInt16)?
        func sample(_ i: Int) -> UInt16 { UInt16(trns[i]) << 8 | UInt16(trns[i + 1]) }
        if header.colorType == .greyscale && trns.count == 2 { key = (sample(0), sample(0), sample(0)) }
        if header.colorType == .truecolor && trns.count == 6 { key = (sample(0), sample(2), sample(4)) }
        return PNGRowConverter(header: header, palette: table, key: key, sixteenBit: sixteenBit)
    }
}
