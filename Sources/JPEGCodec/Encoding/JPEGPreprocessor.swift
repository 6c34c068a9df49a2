/// Turns input rows into one row of MCUs of component samples, as libjpeg's preprocessing
/// controller (`jcprepct.c`) and downsampler (`jcsample.c`) do: colour conversion of each row
/// into per-component buffers, the right edge repeated to a whole number of blocks
/// (`expand_right_edge`), and at the bottom of the image the last row repeated to complete the
/// last row group, the row groups downsampled, and the last downsampled row repeated to the
/// end of the row of MCUs (`expand_bottom_edge` on input, then on output).
struct JPEGPreprocessor {
    let layout: JPEGFrameLayout
    /// Bytes per input pixel: 1 (gray), 3 (RGB), 4 (RGBA: alpha flattened first).
    let inputStride: Int
    let background: (UInt8, UInt8, UInt8)
    /// Per component `layout.rowsPerMCURow` rows of `inputWidth[c]` converted samples from
    /// `inputStart[c]`, then per downsampled component 8·v rows of `outputWidth[c]` samples
    /// from `outputStart[c]` (a component kept at full size is its own output).
    private var buffer: [UInt8]
    let inputWidth: [Int]
    let outputWidth: [Int]
    private let inputStart: [Int]
    private let outputStart: [Int]
    /// Input rows in the buffers of the current row of MCUs.
    private(set) var rows = 0
    /// A translucent RGBA row flattened (alpha as it was).
    private var flattened: [UInt8]

    init(layout: JPEGFrameLayout, inputStride: Int, background: (UInt8, UInt8, UInt8)) {
        self.layout = layout
        self.inputStride = inputStride
        self.background = background
        inputWidth = layout.components.map { $0.widthInBlocks * 8 * $0.hExpand }
        outputWidth = layout.components.map { $0.widthInBlocks * 8 }
        var starts: [Int] = [], outStarts: [Int] = [], size = 0
        for width in inputWidth {
            starts.append(size)
            size += layout.rowsPerMCURow * width
        }
        for (c, comp) in layout.components.enumerated() {
            if comp.hExpand == 1 && comp.vExpand == 1 {
                outStarts.append(starts[c])
            } else {
                outStarts.append(size)
                size += 8 * comp.v * outputWidth[c]
            }
        }
        inputStart = starts
        outputStart = outStarts
        buffer = [UInt8](repeating: 0, count: size)
        flattened = inputStride == 4 ? [UInt8](repeating: 0, count: layout.width * 4) : []
    }

    var isFull: Bool { rows == layout.rowsPerMCURow }

    /// Converts one input row (width × inputStride bytes) into the buffers. A translucent RGBA
    /// row is flattened into a scratch row first; an opaque one is read as it is (flattening
    /// would leave it unchanged).
    mutating func add(row: UnsafePointer<UInt8>) {
        let width = layout.width
        let flattens = inputStride == 4 && !Self.isOpaque(row, count: width)
        if flattens {
            let background = background
            flattened.withUnsafeMutableBufferPointer { out in
                guard let o = out.baseAddress else { return }
                Self.flattenAlpha(row, o, count: width, background: background)
            }
        }
        flattened.withUnsafeBufferPointer { scratch in
            convert(flattens ? (scratch.baseAddress ?? row) : row, stride: inputStride)
        }
        rows += 1
    }

    /// Colour conversion (or a copy) of one row into the buffers' row `rows`, right edge expanded.
    private mutating func convert(_ source: UnsafePointer<UInt8>, stride: Int) {
        let width = layout.width, at = rows, count = layout.components.count
        let (inputStart, inputWidth) = (self.inputStart, self.inputWidth)
        buffer.withUnsafeMutableBufferPointer { b in
            guard let base = b.baseAddress else { return }
            let y = base + inputStart[0] + at * inputWidth[0]
            if count == 3 {
                JPEGColorEncoding.yccRow(source, stride: stride, count: width, y, base + inputStart[1] + at * inputWidth[1],
                                         base + inputStart[2] + at * inputWidth[2])
            } else if stride == 1 {
                y.update(from: source, count: width)
            } else {
                JPEGColorEncoding.grayRow(source, stride: stride, count: width, y)
            }
            // `expand_right_edge`: the last image sample repeated to the buffer's width.
            for c in 0..<count where inputWidth[c] > width {
                let start = base + inputStart[c] + at * inputWidth[c]
                (start + width).update(repeating: start[width - 1], count: inputWidth[c] - width)
            }
        }
    }

    /// Whether every alpha of `count` RGBA pixels is 255 (an AND over the pixels as 32-bit words).
    static func isOpaque(_ rgba: UnsafePointer<UInt8>, count: Int) -> Bool {
        let raw = UnsafeRawPointer(rgba)
        var all: UInt32 = 0xFFFF_FFFF
        for x in 0..<count { all &= raw.loadUnaligned(fromByteOffset: x &* 4, as: UInt32.self) }
        return UInt32(littleEndian: all) &>> 24 == 0xFF
    }

    /// `AlphaFlattening`'s ((c·a + bg·(255 − a) + 127) / 255) into RGBA (alpha left as it was).
    private static func flattenAlpha(_ row: UnsafePointer<UInt8>, _ out: UnsafeMutablePointer<UInt8>, count: Int,
                                     background: (UInt8, UInt8, UInt8)) {
        let (br, bg, bb) = (UInt32(background.0), UInt32(background.1), UInt32(background.2))
        for x in 0..<count {
            let p = row + x * 4, o = out + x * 4
            let a = UInt32(p[3]), na = 255 - a
            o[0] = UInt8((UInt32(p[0]) * a + br * na + 127) / 255)
            o[1] = UInt8((UInt32(p[1]) * a + bg * na + 127) / 255)
            o[2] = UInt8((UInt32(p[2]) * a + bb * na + 127) / 255)
        }
    }

    /// Completes the row of MCUs (bottom edge at the end of the image) and downsamples it;
    /// afterwards ``withSamples(component:_:)`` gives 8·v rows per component. Empties the buffers.
    mutating func finishMCURow() {
        let maxV = layout.maxV
        let groups = (rows + maxV - 1) / maxV
        let rows = self.rows
        buffer.withUnsafeMutableBufferPointer { b in
            guard let base = b.baseAddress else { return }
            for (c, comp) in layout.components.enumerated() {
                let inWidth = inputWidth[c], outWidth = outputWidth[c]
                let input = base + inputStart[c], output = base + outputStart[c]
                for row in rows..<(groups * maxV) {
                    (input + row * inWidth).update(from: input + (rows - 1) * inWidth, count: inWidth)
                }
                if comp.hExpand != 1 || comp.vExpand != 1 {
                    for group in 0..<groups {
                        for y in 0..<comp.v {
                            let row0 = UnsafePointer(input + (group * maxV + y * comp.vExpand) * inWidth)
                            let out = output + (group * comp.v + y) * outWidth
                            switch (comp.hExpand, comp.vExpand) {
                            case (2, 1): JPEGDownsampling.h2v1Row(row0, out, columns: outWidth)
                            case (2, 2): JPEGDownsampling.h2v2Row(row0, row0 + inWidth, out, columns: outWidth)
                            default:
                                let rows = (0..<comp.vExpand).map { row0 + $0 * inWidth }
                                JPEGDownsampling.generic(rows, hExpand: comp.hExpand, out, columns: outWidth)
                            }
                        }
                    }
                }
                // `expand_bottom_edge` of the output: the last row made, to 8·v rows.
                let made = groups * comp.v
                for row in made..<(8 * comp.v) {
                    (output + row * outWidth).update(from: output + (made - 1) * outWidth, count: outWidth)
                }
            }
        }
        self.rows = 0
    }

    /// The 8·v rows of component `c` for the row of MCUs just finished, and their row length.
    func withSamples<R>(component c: Int, _ body: (UnsafePointer<UInt8>, Int) -> R) -> R {
        buffer.withUnsafeBufferPointer { body($0.baseAddress! + outputStart[c], outputWidth[c]) }
    }

    /// Copies the sample rows of `units` (component, its block rows) one after the other into
    /// `samples` (which holds 8 · `outputWidth` bytes per block row), for a second thread to
    /// transform.
    func copySamples(_ units: [JPEGTransformUnit], into samples: inout [UInt8]) {
        var at = 0
        samples.withUnsafeMutableBufferPointer { out in
            guard let base = out.baseAddress else { return }
            for unit in units {
                let width = outputWidth[unit.component]
                let count = 8 * width * unit.blockRows.count
                withSamples(component: unit.component) { p, _ in
                    (base + at).update(from: p + 8 * width * unit.blockRows.lowerBound, count: count)
                }
                at += count
            }
        }
    }
}
