import CodecCore

/// The colour space of the components (libjpeg's `jpeg_color_space`), from the markers.
enum JPEGColorSpace: Equatable {
    case grayscale, yCbCr, rgb, cmyk, ycck

    /// libjpeg-turbo's rules (`default_decompress_parms`): one component is grayscale; three are
    /// YCbCr after a JFIF marker, else as the Adobe transform says (0 RGB, else YCbCr), else RGB
    /// when the identifiers are 'R', 'G', 'B', else YCbCr; four are CMYK unless the Adobe
    /// transform is not 0 (YCCK).
    init(frame: JPEGFrameHeader, metadata: JPEGMetadata) {
        let ids = frame.components.map(\.identifier)
        switch ids.count {
        case 1:
            self = .grayscale
        case 3:
            if metadata.sawJFIF { self = .yCbCr } else if let t = metadata.adobeTransform { self = t == 0 ? .rgb : .yCbCr }
            else { self = ids == [82, 71, 66] ? .rgb : .yCbCr }
        default:
            self = (metadata.adobeTransform ?? 0) == 0 ? .cmyk : .ycck
        }
    }
}

/// Turns coefficients into RGBA8 rows (T.81 A.3.3 and A.1.1): the inverse DCT of each block
/// into its component's sample rows, upsampling to the full size as libjpeg-turbo does with
/// fancy upsampling, and colour conversion, one MCU row at a time.
///
/// Each component keeps a ring of three MCU rows of samples, so that fancy upsampling finds
/// the sample row above and below every row it uses (at the image's top and bottom edges the
/// edge row stands in, as libjpeg replicates it). The rows of MCU row m are therefore written
/// once MCU row m + 1 has been reconstructed, or at the end.
struct JPEGRenderer {
    let frame: JPEGFrameHeader
    let colorSpace: JPEGColorSpace
    /// The output and sample sizes at the scale rendered.
    let geometry: JPEGOutputGeometry
    private let methods: [JPEGUpsampler.Method]
    /// Per component, the dequantization multipliers as libjpeg-turbo keeps them (Int16), from
    /// the table latched at the component's first scan.
    private var quantization: [[Int16]]
    private var rings: [[UInt8]]
    private let ringRows: [Int]
    private let strides: [Int]
    /// One upsampled row per component.
    private var rows: [[UInt8]]
    /// The ICC profile's transform to sRGB, applied to each output row (``JPEGColorManagement``).
    var colorTransform: ColorTransform?

    /// The upsampling of each component of `frame` at `geometry`'s scale (full size when nil);
    /// fails as libjpeg-turbo does (when decompression starts) on sampling factors it cannot
    /// upsample. libjpeg gives a component `h · idctSize / scaledSize` samples for every `maxH`
    /// output samples (`h_in_group`), and turns fancy upsampling off at scale 1/8.
    static func upsampling(_ frame: JPEGFrameHeader, _ geometry: JPEGOutputGeometry? = nil) throws(DecodingError) -> [JPEGUpsampler.Method] {
        let geometry = geometry ?? JPEGOutputGeometry(frame: frame)
        var methods: [JPEGUpsampler.Method] = []
        for (i, c) in frame.components.enumerated() {
            let size = geometry.idctSizes[i], scaled = geometry.scaledSize
            guard let method = JPEGUpsampler.method(h: c.h * size / scaled, v: c.v * size / scaled, maxH: frame.maxH, maxV: frame.maxV,
                                                    downsampledWidth: geometry.sampleWidths[i], fancy: scaled > 1) else {
                throw .unsupported("JPEG sampling factors are not integer ratios")
            }
            methods.append(method)
        }
        return methods
    }

    /// A renderer for `frame` at `geometry`'s scale, whose upsampling ``upsampling(_:_:)`` has
    /// accepted at full size.
    init(frame: JPEGFrameHeader, colorSpace: JPEGColorSpace, quantization: [[UInt16]?],
         geometry: JPEGOutputGeometry? = nil) throws(DecodingError) {
        let geometry = geometry ?? JPEGOutputGeometry(frame: frame)
        self.frame = frame
        self.colorSpace = colorSpace
        self.geometry = geometry
        methods = try Self.upsampling(frame, geometry)
        self.quantization = []
        strides = frame.components.indices.map { frame.components[$0].blocksPerLine * geometry.idctSizes[$0] }
        ringRows = frame.components.indices.map { 3 * frame.components[$0].v * geometry.idctSizes[$0] }
        rings = frame.components.indices.map { [strides, ringRows] c in [UInt8](repeating: 0, count: strides[c] * ringRows[c]) }
        let rowLength = frame.mcusPerLine * frame.maxH * geometry.scaledSize + 64
        rows = frame.components.map { _ in [UInt8](repeating: 0, count: rowLength) }
        latch(quantization)
    }

    /// Takes the quantization tables latched so far (a component's first scan latches its
    /// table; a component no scan has reached has no coefficients, so any table serves).
    mutating func latch(_ tables: [[UInt16]?]) {
        quantization = tables.map { ($0 ?? [UInt16](repeating: 1, count: 64)).map { Int16(truncatingIfNeeded: $0) } }
    }

    /// The output rows of MCU row `m`.
    func outputRows(ofMCURow m: Int) -> Range<Int> {
        let height = geometry.mcuRowHeight
        return min(m * height, geometry.height)..<min((m + 1) * height, geometry.height)
    }

    /// Inverse-transforms the blocks of MCU row `m` into the sample rings, each block first
    /// smoothed as libjpeg-turbo does when `smoothing` is given (progressive files whose
    /// coefficients are not all complete; whole blocks only).
    mutating func reconstruct(mcuRow m: Int, from coefficients: JPEGCoefficients, smoothing: JPEGBlockSmoothing? = nil) {
        withUnsafeTemporaryAllocation(of: Int16.self, capacity: 64) { workspace in
            let w = workspace.baseAddress!
            for c in frame.components.indices {
                let component = frame.components[c], stride = strides[c], ring = ringRows[c], size = geometry.idctSizes[c]
                let keptCount = coefficients.grid.keptCounts[c]
                w.initialize(repeating: 0, count: 64)
                coefficients.grid.keptNaturals.withUnsafeBufferPointer { naturals in
                    coefficients.storage[c].withUnsafeBufferPointer { blocks in
                        quantization[c].withUnsafeBufferPointer { q in
                            rings[c].withUnsafeMutableBufferPointer { samples in
                                for by in (m * component.v)..<((m + 1) * component.v) {
                                    let rowBase = ((by * size) % ring) * stride
                                    for bx in 0..<component.blocksPerLine {
                                        var block = blocks.baseAddress! + coefficients.offset(c, x: bx, y: by)
                                        if keptCount > 0 {
                                            JPEGCoefficientSubset.expandKept(block, keptCount: keptCount, kept: naturals.baseAddress! + 64 * c, into: w)
                                            block = UnsafePointer(w)
                                        } else if let smoothing {
                                            smoothing.smooth(blocks.baseAddress!, component: c, x: bx, y: by, into: w)
                                            block = UnsafePointer(w)
                                        }
                                        let out = samples.baseAddress! + rowBase + bx * size
                                        if size == 8 {
                                            JPEGIDCT.islow(block, q.baseAddress!, out, stride: stride)
                                        } else {
                                            JPEGIDCT.reduced(size: size, block, q.baseAddress!, out, stride: stride)
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    /// Upsamples and colour-converts the rows of MCU row `m` into `output`: RGBA8 rows of the
    /// output width, output row `y` at row `y − firstRow` of `output`.
    mutating func emit(mcuRow m: Int, into output: UnsafeMutablePointer<UInt8>, firstRow: Int = 0) {
        for y in outputRows(ofMCURow: m) {
            for c in frame.components.indices { upsample(c, row: y) }
            convert(into: output + (y - firstRow) * geometry.width * 4)
        }
    }

    /// Fills `rows[c]` with component `c` at the full size for output row `y`.
    private mutating func upsample(_ c: Int, row y: Int) {
        let stride = strides[c], ring = ringRows[c]
        let last = geometry.sampleHeights[c] - 1, width = geometry.sampleWidths[c]
        func line(_ i: Int) -> Int { ((min(max(i, 0), last)) % ring) * stride }
        rings[c].withUnsafeBufferPointer { samples in
            rows[c].withUnsafeMutableBufferPointer { out in
                let s = samples.baseAddress!, o = out.baseAddress!
                switch methods[c] {
                case .fullSize:
                    o.update(from: s + line(y), count: width)
                case .h2v1Fancy:
                    JPEGUpsampler.h2v1Fancy(s + line(y), width: width, o)
                case .h2v1Plain:
                    JPEGUpsampler.replicate(s + line(y), width: width, factor: 2, o)
                case .h1v2Fancy:
                    let i = y / 2
                    JPEGUpsampler.h1v2Fancy(near: s + line(i), far: s + line(y % 2 == 0 ? i - 1 : i + 1), lower: y % 2 == 1, width: width, o)
                case .h2v2Fancy:
                    let i = y / 2
                    JPEGUpsampler.h2v2Fancy(near: s + line(i), far: s + line(y % 2 == 0 ? i - 1 : i + 1), width: width, o)
                case .h2v2Plain:
                    JPEGUpsampler.replicate(s + line(y / 2), width: width, factor: 2, o)
                case .integer(let h, let v):
                    JPEGUpsampler.replicate(s + line(y / v), width: width, factor: h, o)
                }
            }
        }
    }

    /// Converts the upsampled rows to one RGBA8 output row.
    private func convert(into out: UnsafeMutablePointer<UInt8>) {
        let count = geometry.width
        rows[0].withUnsafeBufferPointer { r0 in
            let a = r0.baseAddress!
            switch colorSpace {
            case .grayscale:
                JPEGColorConverter.grayToRGBA(a, count: count, out)
                colorTransform?.convertRow(out, count: count)
            case .yCbCr, .rgb:
                rows[1].withUnsafeBufferPointer { r1 in
                    rows[2].withUnsafeBufferPointer { r2 in
                        if colorSpace == .rgb {
                            JPEGColorConverter.rgbToRGBA(r: a, g: r1.baseAddress!, b: r2.baseAddress!, count: count, out)
                        } else {
                            JPEGColorConverter.yccToRGBA(y: a, cb: r1.baseAddress!, cr: r2.baseAddress!, count: count, out)
                        }
                    }
                }
                colorTransform?.convertRow(out, count: count)
            case .cmyk, .ycck:
                rows[1].withUnsafeBufferPointer { r1 in
                    rows[2].withUnsafeBufferPointer { r2 in
                        rows[3].withUnsafeBufferPointer { r3 in
                            if let ink = colorTransform {
                                if colorSpace == .cmyk {
                                    JPEGColorManagement.cmyk(c: a, m: r1.baseAddress!, y: r2.baseAddress!, k: r3.baseAddress!, count: count, ink, out)
                                } else {
                                    JPEGColorManagement.ycck(y: a, cb: r1.baseAddress!, cr: r2.baseAddress!, k: r3.baseAddress!, count: count, ink, out)
                                }
                            } else if colorSpace == .cmyk {
                                JPEGColorConverter.cmykToRGBA(c: a, m: r1.baseAddress!, y: r2.baseAddress!, k: r3.baseAddress!, count: count, out)
                            } else {
                                JPEGColorConverter.ycckToRGBA(y: a, cb: r1.baseAddress!, cr: r2.baseAddress!, k: r3.baseAddress!, count: count, out)
                            }
                        }
                    }
                }
            }
        }
    }
}
