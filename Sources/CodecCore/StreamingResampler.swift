/// Shrinks an RGBA8 image with an area (box) filter while it is decoded, so a thumbnail never
/// needs the full-size image in memory: each output pixel is the alpha-weighted mean of the
/// input pixels that map into it.
///
/// Input pixels may come in any order and any number of calls — whole rows top to bottom, the
/// sparse pixels of an Adam7 pass, the rows of an interlaced GIF, a frame placed at an offset on
/// its canvas — because each output pixel keeps running sums: Σ r·a, Σ g·a, Σ b·a and Σ a. Its
/// pixel count is fixed by the geometry, so input pixels never given count as transparent (an
/// animation canvas outside the first frame's rectangle). The result is the same whatever the
/// order, and equal to ``resample(_:toWidth:height:)`` of the full image.
public struct StreamingResampler: Sendable {
    /// Width of the image being shrunk.
    public let inputWidth: Int
    /// Height of the image being shrunk.
    public let inputHeight: Int
    /// Width of the result, at most ``inputWidth``.
    public let outputWidth: Int
    /// Height of the result, at most ``inputHeight``.
    public let outputHeight: Int
    /// Output column of each input column.
    private let columnMap: [Int32]
    /// Input columns and rows that map into each output column and row.
    private let columnCounts: [Int]
    private let rowCounts: [Int]
    /// Per output pixel: Σ r·a, Σ g·a, Σ b·a, Σ a; allocated with the first pixel given, so that
    /// a decoder made early (before a lossy WebP's alpha plane is decoded) holds nothing yet.
    private var sums: [UInt64] = []
    /// Input rows from the top that are final, as the caller declared.
    private var finalInputRows = 0
    /// The output rows that are final, each computed once, when it became final: rows
    /// `0..<doneRows` (allocated at the first).
    private var done: [UInt8] = []
    private var doneRows = 0

    /// The output size that fits `maxPixelSize` on the longer side, keeping the aspect ratio
    /// (never larger than the input, never zero).
    public static func fittedSize(width: Int, height: Int, maxPixelSize: Int) -> (width: Int, height: Int) {
        let longer = max(width, height)
        guard maxPixelSize > 0, longer > maxPixelSize else { return (width, height) }
        let w = max(1, (width * maxPixelSize + longer / 2) / longer)
        let h = max(1, (height * maxPixelSize + longer / 2) / longer)
        return (min(w, maxPixelSize), min(h, maxPixelSize))
    }

    /// Bytes held per output pixel: four running sums, the final rows, and, when asked, the
    /// RGBA8 output.
    public static let bytesPerOutputPixel = 40

    /// Bytes the resampler holds, counted as ``bytesPerOutputPixel`` per output pixel.
    public var heldBytes: Int { outputWidth * outputHeight * Self.bytesPerOutputPixel }

    /// A resampler from `inputWidth × inputHeight` to an output no larger; the caller has
    /// checked the output size against ``Limits`` with ``bytesPerOutputPixel``.
    public init(inputWidth: Int, inputHeight: Int, outputWidth: Int, outputHeight: Int) {
        self.inputWidth = inputWidth
        self.inputHeight = inputHeight
        self.outputWidth = outputWidth
        self.outputHeight = outputHeight
        columnMap = (0..<inputWidth).map { Int32($0 * outputWidth / inputWidth) }
        var columns = [Int](repeating: 0, count: outputWidth), rows = [Int](repeating: 0, count: outputHeight)
        for x in 0..<inputWidth { columns[x * outputWidth / inputWidth] += 1 }
        for y in 0..<inputHeight { rows[y * outputHeight / inputHeight] += 1 }
        columnCounts = columns
        rowCounts = rows
    }

    /// Output rows that are final: those whose input rows are all among the final ones.
    public var finishedOutputRows: Int {
        if finalInputRows >= inputHeight { return outputHeight }
        return finalInputRows * outputHeight / inputHeight
    }

    /// Declares input rows `0..<rows` final (every pixel of them given), for partial output.
    public mutating func markFinal(rows: Int) {
        finalInputRows = max(finalInputRows, min(rows, inputHeight))
        let finished = finishedOutputRows
        guard finished > doneRows else { return }
        if done.isEmpty { done = [UInt8](repeating: 0, count: outputWidth * outputHeight * 4) }
        normalize(rows: doneRows..<finished, into: &done)
        doneRows = finished
    }

    /// Adds `count` pixels (RGBA8, `pixels[i * 4]`) at input row `y`, columns `x`, `x + step`,
    /// `x + 2·step`…; the caller keeps them inside the input.
    public mutating func accumulate(_ pixels: UnsafePointer<UInt8>, count: Int, x: Int, step: Int = 1, y: Int) {
        let rowBase = (y * outputHeight / inputHeight) * outputWidth
        if sums.isEmpty { sums = [UInt64](repeating: 0, count: outputWidth * outputHeight * 4) }
        sums.withUnsafeMutableBufferPointer { s in
            columnMap.withUnsafeBufferPointer { map in
                var column = x
                for i in 0..<count {
                    let p = pixels + i &* 4
                    let a = UInt64(p[3])
                    if a != 0 {
                        let o = (rowBase &+ Int(map[column])) &* 4
                        s[o] &+= UInt64(p[0]) &* a
                        s[o &+ 1] &+= UInt64(p[1]) &* a
                        s[o &+ 2] &+= UInt64(p[2]) &* a
                        s[o &+ 3] &+= a
                    }
                    column &+= step
                }
            }
        }
    }

    /// Takes input row `y` whole (RGBA8, `inputWidth` pixels) and declares the rows above it final.
    public mutating func consume(row: UnsafeBufferPointer<UInt8>, y: Int) {
        guard let base = row.baseAddress else { return }
        accumulate(base, count: inputWidth, x: 0, y: y)
        if y == finalInputRows { markFinal(rows: y + 1) }
    }

    /// The output as it stands: rows `0..<finishedOutputRows` are final. Those were computed
    /// when they became final; only the rows below them are computed here, so asking for the
    /// output after every few rows of a large image costs about the rows added.
    public var raster: Raster {
        var output = done.isEmpty ? [UInt8](repeating: 0, count: outputWidth * outputHeight * 4) : done
        normalize(rows: doneRows..<outputHeight, into: &output)
        return Raster(width: outputWidth, height: outputHeight, bytesPerPixel: 4, pixels: output)
    }

    /// Writes the alpha-weighted means of output `rows` into `output` (RGBA8, the whole
    /// output); pixels nothing was given for are left as they are.
    private func normalize(rows: Range<Int>, into output: inout [UInt8]) {
        guard !sums.isEmpty else { return }
        output.withUnsafeMutableBufferPointer { out in
            sums.withUnsafeBufferPointer { s in
                for oy in rows {
                    for ox in 0..<outputWidth {
                        let i = oy * outputWidth + ox
                        let count = UInt64(rowCounts[oy] * columnCounts[ox])
                        let alphaSum = s[i * 4 + 3]
                        guard count > 0, alphaSum > 0 else { continue }
                        for c in 0..<3 { out[i * 4 + c] = UInt8((s[i * 4 + c] + alphaSum / 2) / alphaSum) }
                        out[i * 4 + 3] = UInt8((alphaSum + count / 2) / count)
                    }
                }
            }
        }
    }

    /// Shrinks a whole raster in one call.
    public static func resample(_ image: Raster, toWidth width: Int, height: Int) -> Raster {
        var r = StreamingResampler(inputWidth: image.width, inputHeight: image.height,
                                   outputWidth: width, outputHeight: height)
        image.pixels.withUnsafeBufferPointer { all in
            for y in 0..<image.height {
                r.consume(row: UnsafeBufferPointer(rebasing: all[(y * image.bytesPerRow)..<((y + 1) * image.bytesPerRow)]), y: y)
            }
        }
        return r.raster
    }
}
