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
/// into its component's sample rows (``JPEGRowTransform``), upsampling to the full size as
/// libjpeg-turbo does with fancy upsampling, and colour conversion, one MCU row at a time.
///
/// The renderer keeps the samples of the last three MCU rows (MCU row m in ring slot m % 3), so
/// that fancy upsampling finds the sample row above and below every row it uses (at the image's
/// top and bottom edges the edge row stands in, as libjpeg replicates it). The rows of MCU row m
/// are therefore written once MCU row m + 1 has been reconstructed, or at the end. A row's
/// samples may be transformed elsewhere (another thread) and handed in whole
/// (``adopt(_:mcuRow:)``): the buffers change places, nothing is copied.
struct JPEGRenderer {
    let frame: JPEGFrameHeader
    let colorSpace: JPEGColorSpace
    /// The output and sample sizes at the scale rendered.
    let geometry: JPEGOutputGeometry
    private let methods: [JPEGUpsampler.Method]
    /// The inverse DCT, with the quantization tables latched so far.
    private(set) var transform: JPEGRowTransform
    private var ring: [JPEGSampleRows]
    /// One upsampled row per component.
    private var rows: [[UInt8]]
    /// The ICC profile's transform to sRGB, applied to each output row (``JPEGColorManagement``).
    var colorTransform: ColorTransform?
    /// Whether the transform is left to the row writer (``JPEGSharedConversion``): rows then
    /// come out as the profile's input (RGB, gray, or CMYK inks), not yet converted.
    var defersColorTransform = false

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
        transform = JPEGRowTransform(frame: frame, geometry: geometry, quantization: quantization)
        ring = (0..<3).map { [transform] _ in transform.makeRows() }
        let rowLength = frame.mcusPerLine * frame.maxH * geometry.scaledSize + 64
        rows = frame.components.map { _ in [UInt8](repeating: 0, count: rowLength) }
    }

    /// A renderer like this one (tables, colour transform) with buffers of its own, for
    /// another thread.
    func replica() -> JPEGRenderer {
        var copy = self
        copy.ring = (0..<3).map { [transform] _ in transform.makeRows() }
        copy.rows = rows.map { [UInt8](repeating: 0, count: $0.count) }
        return copy
    }

    /// Takes the quantization tables latched so far.
    mutating func latch(_ tables: [[UInt16]?]) {
        transform.latch(tables)
    }

    /// The output rows of MCU row `m`.
    func outputRows(ofMCURow m: Int) -> Range<Int> {
        let height = geometry.mcuRowHeight
        return min(m * height, geometry.height)..<min((m + 1) * height, geometry.height)
    }

    /// Inverse-transforms the blocks of MCU row `m` into the ring (``JPEGRowTransform/apply(mcuRow:from:smoothing:into:)``).
    mutating func reconstruct(mcuRow m: Int, from coefficients: JPEGCoefficients, smoothing: JPEGBlockSmoothing? = nil) {
        transform.apply(mcuRow: m, from: coefficients, smoothing: smoothing, into: &ring[m % 3])
    }

    /// Takes `samples`, MCU row `m` already transformed, into the ring; `samples` gets the
    /// buffers of the row it replaces (three rows before), for re-use.
    mutating func adopt(_ samples: inout JPEGSampleRows, mcuRow m: Int) {
        swap(&samples, &ring[m % 3])
    }

    /// Upsamples and colour-converts the rows of MCU row `m` into `output`: RGBA8 rows of the
    /// output width, output row `y` at row `y − firstRow` of `output`.
    mutating func emit(mcuRow m: Int, into output: UnsafeMutablePointer<UInt8>, firstRow: Int = 0) {
        var samples: [JPEGSampleRows] = []
        swap(&samples, &ring)
        defer { swap(&samples, &ring) }
        Self.withPlanes(samples, count: samples.count * frame.components.count) { planes in
            for y in outputRows(ofMCURow: m) {
                for c in frame.components.indices { upsample(c, row: y, planes) }
                convert(into: output + (y - firstRow) * geometry.width * 4)
            }
        }
    }

    /// Calls `body` with the first sample of every plane of `ring`, slot by slot (component `c`
    /// of slot `k` at `k · components + c`).
    private static func withPlanes(_ ring: [JPEGSampleRows], count: Int, _ body: ([UnsafePointer<UInt8>]) -> Void) {
        var bases: [UnsafePointer<UInt8>] = []
        bases.reserveCapacity(count)
        func nest(_ i: Int) {
            guard i < count else { return body(bases) }
            let components = ring[0].planes.count
            ring[i / components].planes[i % components].withUnsafeBufferPointer { plane in
                bases.append(plane.baseAddress!)
                nest(i + 1)
            }
        }
        nest(0)
    }

    /// Fills `rows[c]` with component `c` at the full size for output row `y`, from the ring's
    /// planes (``withPlanes(_:count:_:)``).
    private mutating func upsample(_ c: Int, row y: Int, _ planes: [UnsafePointer<UInt8>]) {
        let stride = transform.strides[c], slotRows = transform.rowsPerMCURow[c], components = frame.components.count
        let last = geometry.sampleHeights[c] - 1, width = geometry.sampleWidths[c]
        func line(_ i: Int) -> UnsafePointer<UInt8> {
            let row = min(max(i, 0), last)
            return planes[(row / slotRows) % 3 * components + c] + (row % slotRows) * stride
        }
        let method = methods[c]
        rows[c].withUnsafeMutableBufferPointer { out in
            let o = out.baseAddress!
            switch method {
            case .fullSize:
                o.update(from: line(y), count: width)
            case .h2v1Fancy:
                JPEGUpsampler.h2v1Fancy(line(y), width: width, o)
            case .h2v1Plain:
                JPEGUpsampler.replicate(line(y), width: width, factor: 2, o)
            case .h1v2Fancy:
                let i = y / 2
                JPEGUpsampler.h1v2Fancy(near: line(i), far: line(y % 2 == 0 ? i - 1 : i + 1), lower: y % 2 == 1, width: width, o)
            case .h2v2Fancy:
                let i = y / 2
                JPEGUpsampler.h2v2Fancy(near: line(i), far: line(y % 2 == 0 ? i - 1 : i + 1), width: width, o)
            case .h2v2Plain:
                JPEGUpsampler.replicate(line(y / 2), width: width, factor: 2, o)
            case .integer(let h, let v):
                JPEGUpsampler.replicate(line(y / v), width: width, factor: h, o)
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
                if !defersColorTransform { colorTransform?.convertRow(out, count: count) }
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
                if !defersColorTransform { colorTransform?.convertRow(out, count: count) }
            case .cmyk, .ycck:
                rows[1].withUnsafeBufferPointer { r1 in
                    rows[2].withUnsafeBufferPointer { r2 in
                        rows[3].withUnsafeBufferPointer { r3 in
                            if let ink = colorTransform {
                                let now = defersColorTransform ? nil : ink
                                if colorSpace == .cmyk {
                                    JPEGColorManagement.cmyk(c: a, m: r1.baseAddress!, y: r2.baseAddress!, k: r3.baseAddress!, count: count, now, out)
                                } else {
                                    JPEGColorManagement.ycck(y: a, cb: r1.baseAddress!, cr: r2.baseAddress!, k: r3.baseAddress!, count: count, now, out)
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
