import CodecCore

/// Writes a single-frame PNG: the analysis pass, then IHDR, metadata, PLTE, tRNS and the
/// image data streamed into IDAT chunks (PNG 3rd edition §5.6 chunk order).
struct PNGStillWriter {
    let options: EncodingOptions
    let canvas: EncodingCanvas

    func write(_ frame: EncodingFrame, to sink: inout some ByteSink) throws(EncodingError) {
        var analysis = PNGColorAnalysis()
        analysis.add(frame)
        let key = analysis.allowsColorKey ? analysis.transparentColor : nil
        let keyIsFree = key.map { !PNGColorAnalysis.keyAppearsOpaque($0, in: frame) } ?? false
        let layouts = PNGReduction.candidates(analysis, keyIsFree: keyIsFree)
        let settings = try PNGEncodingChoices.best(for: frame, layouts: layouts, options: options)
        try PNGHeaderChunks.write(settings.layout, canvas: canvas, interlaced: settings.interlaced,
                                  animation: nil, to: &sink)
        let deflater = try PNGDeflater(level: settings.level, strategy: settings.zlibStrategy)
        var sequence: UInt32? = nil
        try PNGImageData(settings).write(frame, deflater: deflater, sequence: &sequence, to: &sink)
    }
}

/// The chunks before the image data: IHDR, the metadata, acTL for an APNG, PLTE and tRNS.
enum PNGHeaderChunks {
    static func write(_ layout: PNGPixelLayout, canvas: EncodingCanvas, interlaced: Bool,
                      animation: (frames: Int, plays: Int)?, to sink: inout some ByteSink) throws(EncodingError) {
        try PNGChunkWriter.write(.IHDR, layout.headerPayload(width: canvas.width, height: canvas.height,
                                                             interlaced: interlaced), to: &sink)
        try PNGMetadataChunks.write(canvas.metadata, to: &sink)
        if let animation {
            var data = [UInt8]()
            PNGChunkWriter.appendBigEndian(UInt32(animation.frames), to: &data)
            PNGChunkWriter.appendBigEndian(UInt32(animation.plays), to: &data)
            try PNGChunkWriter.write(.acTL, data, to: &sink)
        }
        if layout.colorType == .indexed { try PNGChunkWriter.write(.PLTE, layout.paletteChunk, to: &sink) }
        if let transparency = layout.transparencyChunk { try PNGChunkWriter.write(.tRNS, transparency, to: &sink) }
    }
}
