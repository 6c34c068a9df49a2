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
            let resampler = try RowSink.resampler(from: header.width, header.height, to: width, height, limits: limits)
            return try PNGFrameDecoder(header: header, width: p.width, height: p.height,
                                       converter: converter(header, sixteenBit: false),
                                       thumbnail: resampler, origin: (p.x, p.y), ignoresChecksum: options.ignoresChecksums,
                                       maxThreads: options.maxThreads)
        }
        guard let p = container.frame(at: index)?.properties else { return nil }
        _ = try limits.checkedRasterBytes(width: p.width, height: p.height, bytesPerPixel: sixteenBit ? 8 : 4)
        return try PNGFrameDecoder(header: header, width: p.width, height: p.height,
                                   converter: converter(header, sixteenBit: sixteenBit),
                                   ignoresChecksum: options.ignoresChecksums, maxThreads: options.maxThreads)
    }

    package func advance(_ job: inout Job, for purpose: FrameJobPurpose, input: InputBuffer,
                         region: CanvasRegion?) throws(DecodingError) {
        let index = purpose.frameIndex
        guard let frame = container.frame(at: index) else { throw .invalidRequest("frame index out of range") }
        try job.decode(segments: frame.segments, dataComplete: frame.complete, input: input)
    }

    /// The frame's raster, unfinished Adam7 passes filled in from the finished ones; or the
    /// thumbnail shrunk so far.
    package func raster(_ job: Job) -> Raster? {
        var raster = job.sink.raster
        if job.sink.isThumbnail { return raster }
        if container.header?.interlaced == true && !job.finished {
            Adam7.expandPreview(&raster.pixels, width: raster.width, height: raster.height,
                                bytesPerPixel: raster.bytesPerPixel, passesDone: job.passesDone)
        }
        return raster
    }

    private func converter(_ header: PNGHeader, sixteenBit: Bool) -> PNGRowConverter {
        PNGRowConverter(header: header, plte: container.palette, trns: container.transparency ?? [], sixteenBit: sixteenBit)
    }
}
