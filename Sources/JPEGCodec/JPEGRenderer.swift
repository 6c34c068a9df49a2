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
    private let methods: [JPEGUpsampler.Method]
    /// Per component, the dequantization multipliers as libjpeg-turbo keeps them (Int16), from
    /// the table latched at the component's first scan.
    private var quantization: [[Int16]]
    private var rings: [[UInt8]]
    private let ringRows: [Int]
    private let strides: [Int]
    /// One upsampled row per component.
    private var rows: [[UInt8]]

    /// The upsampling of each component of `frame`; fails as libjpeg-turbo does (when
    /// decompression starts) on sampling factors it cannot upsample.
    static func upsampling(_ frame: JPEGFrameHeader) throws(DecodingError) -> [JPEGUpsampler.Method] {
        var methods: [JPEGUpsampler.Method] = []
        for c in frame.components {
            guard let method = JPEGUpsampler.method(h: c.h, v: c.v, maxH: frame.maxH, maxV: frame.maxV,
                                                    downsampledWidth: c.width, fancy: true) else {
                throw .unsupported("JPEG sampling factors are not integer ratios")
            }
            methods.append(method)
        }
        return methods
    }

    /// A renderer for `frame`, whose upsampling ``upsampling(_:)`` has accepted.
    init(frame: JPEGFrameHeader, colorSpace: JPEGColorSpace, quantization: [[UInt16]?]) throws(DecodingError) {
        self.frame = frame
        self.colorSpace = colorSpace
        methods = try Self.upsampling(frame)
        self.quantization = []
        strides = frame.components.map { $0.blocksPerLine * 8 }
        ringRows = frame.components.map { 3 * $0.v * 8 }
        rings = frame.components.indices.map { [UInt8](repeating: 0, count: frame.components[$0].blocksPerLine * 8 * 3 * frame.components[$0].v * 8) }
        let rowLength = frame.mcusPerLine * frame.maxH * 8 + 64
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
        let height = 8 * frame.maxV
        return min(m * height, frame.height)..<min((m + 1) * height, frame.height)
    }

    /// Inverse-transforms the blocks of MCU row `m` into the sample rings, each block first
    /// smoothed as libjpeg-turbo does when `smoothing` is given (progressive files whose
    /// coefficients are not all complete).
    mutating func reconstruct(mcuRow m: Int, from coefficients: JPEGCoefficients, smoothing: JPEGBlockSmoothing? = nil) {
        var workspace = [Int16](repeating: 0, count: 64)
        for c in frame.components.indices {
            let component = frame.components[c], stride = strides[c], ring = ringRows[c]
            coefficients.storage[c].withUnsafeBufferPointer { blocks in
                quantization[c].withUnsafeBufferPointer { q in
                    rings[c].withUnsafeMutableBufferPointer { samples in
                        workspace.withUnsafeMutableBufferPointer { w in
                            for by in (m * component.v)..<((m + 1) * component.v) {
                                let rowBase = ((by * 8) % ring) * stride
                                for bx in 0..<component.blocksPerLine {
                                    var block = blocks.baseAddress! + coefficients.offset(c, x: bx, y: by)
                                    if let smoothing {
                                        smoothing.smooth(blocks.baseAddress!, component: c, x: bx, y: by, into: w.baseAddress!)
                                        block = UnsafePointer(w.baseAddress!)
                                    }
                                    JPEGIDCT.islow(block, q.baseAddress!, samples.baseAddress! + rowBase + bx * 8, stride: stride)
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    /// Upsamples and colour-converts the rows of MCU row `m` into `output` (RGBA8 rows of
    /// `frame.width` pixels, the first at row 0 of the image).
    mutating func emit(mcuRow m: Int, into output: UnsafeMutablePointer<UInt8>) {
        for y in outputRows(ofMCURow: m) {
            for c in frame.components.indices { upsample(c, row: y) }
            convert(into: output + y * frame.width * 4)
        }
    }

    /// Fills `rows[c]` with component `c` at the full size for output row `y`.
    private mutating func upsample(_ c: Int, row y: Int) {
        let component = frame.components[c], stride = strides[c], ring = ringRows[c]
        let last = component.height - 1, width = component.width
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
        let count = frame.width
        rows[0].withUnsafeBufferPointer { r0 in
            let a = r0.baseAddress!
            switch colorSpace {
            case .grayscale:
                JPEGColorConverter.grayToRGBA(a, count: count, out)
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
            case .cmyk, .ycck:
                rows[1].withUnsafeBufferPointer { r1 in
                    rows[2].withUnsafeBufferPointer { r2 in
                        rows[3].withUnsafeBufferPointer { r3 in
                            if colorSpace == .cmyk {
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
