/// Shrinks an RGBA8 image row by row with an area (box) filter, so a thumbnail never needs
/// the full-size image in memory: each output pixel is the alpha-weighted mean of the
/// input pixels that map into it.
public struct StreamingResampler: Sendable {
    public let inputWidth: Int
    public let inputHeight: Int
    public let outputWidth: Int
    public let outputHeight: Int
    /// Output column of each input column.
    private let columnMap: [Int32]
    /// Per output column of the row being gathered: Σ r·a, Σ g·a, Σ b·a, Σ a, count.
    private var sums: [UInt64]
    private var currentOutputRow = 0
    private var nextInputRow = 0
    private var output: [UInt8]

    /// The output size that fits `maxPixelSize` on the longer side, keeping the aspect ratio
    /// (never larger than the input, never zero).
    public static func fittedSize(width: Int, height: Int, maxPixelSize: Int) -> (width: Int, height: Int) {
        let longer = max(width, height)
        guard maxPixelSize > 0, longer > maxPixelSize else { return (width, height) }
        let w = max(1, (width * maxPixelSize + longer / 2) / longer)
        let h = max(1, (height * maxPixelSize + longer / 2) / longer)
        return (min(w, maxPixelSize), min(h, maxPixelSize))
    }

    public init(inputWidth: Int, inputHeight: Int, outputWidth: Int, outputHeight: Int) {
        self.inputWidth = inputWidth
        self.inputHeight = inputHeight
        self.outputWidth = outputWidth
        self.outputHeight = outputHeight
        columnMap = (0..<inputWidth).map { Int32($0 * outputWidth / inputWidth) }
        sums = [UInt64](repeating: 0, count: outputWidth * 5)
        output = [UInt8](repeating: 0, count: outputWidth * outputHeight * 4)
    }

    /// Rows of the output that are final.
    public var finishedOutputRows: Int { currentOutputRow }

    /// Takes the next input row (RGBA8, `inputWidth` pixels).
    public mutating func consume(row: UnsafeBufferPointer<UInt8>) {
        guard nextInputRow < inputHeight else { return }
        let target = nextInputRow * outputHeight / inputHeight
        if target != currentOutputRow { flush() }
        currentOutputRow = target
        sums.withUnsafeMutableBufferPointer { s in
            columnMap.withUnsafeBufferPointer { map in
                for x in 0..<inputWidth {
                    let o = Int(map[x]) * 5, p = x * 4
                    let a = UInt64(row[p + 3])
                    s[o] &+= UInt64(row[p]) &* a
                    s[o + 1] &+= UInt64(row[p + 1]) &* a
                    s[o + 2] &+= UInt64(row[p + 2]) &* a
                    s[o + 3] &+= a
                    s[o + 4] &+= 1
                }
            }
        }
        nextInputRow += 1
        if nextInputRow == inputHeight { flush(); currentOutputRow = outputHeight }
    }

    private mutating func flush() {
        let base = currentOutputRow * outputWidth * 4
        for ox in 0..<outputWidth {
            let o = ox * 5
            let alphaSum = sums[o + 3], count = sums[o + 4]
            guard count > 0 else { continue }
            if alphaSum > 0 {
                for c in 0..<3 { output[base + ox * 4 + c] = UInt8((sums[o + c] + alphaSum / 2) / alphaSum) }
            }
            output[base + ox * 4 + 3] = UInt8((alphaSum + count / 2) / count)
        }
        for i in sums.indices { sums[i] = 0 }
    }

    /// The output so far: rows `0..<finishedOutputRows` are final.
    public var raster: Raster {
        Raster(width: outputWidth, height: outputHeight, bytesPerPixel: 4, pixels: output)
    }

    /// Shrinks a whole raster in one call.
    public static func resample(_ image: Raster, toWidth width: Int, height: Int) -> Raster {
        var r = StreamingResampler(inputWidth: image.width, inputHeight: image.height,
                                   outputWidth: width, outputHeight: height)
        image.pixels.withUnsafeBufferPointer { all in
            for y in 0..<image.height {
                r.consume(row: UnsafeBufferPointer(rebasing: all[(y * image.bytesPerRow)..<((y + 1) * image.bytesPerRow)]))
            }
        }
        return r.raster
    }
}
