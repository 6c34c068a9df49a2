import ArgumentParser
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ImageCodecs

/// The flags `encode` and `bench-encode` share (DESIGN.md's command-line contract). Q is 0–100
/// as cjpeg and cwebp take it; JPEG flags mean what cjpeg's do.
struct EncodeFlags: ParsableArguments {
    @Option(help: "png, apng, gif, jpeg or webp (default: from the output's extension).") var format: String?
    @Option(help: "Quality 0-100 for lossy formats.") var quality: Double?
    @Flag(help: "WebP: lossless.") var lossless = false
    @Flag(help: "WebP animations: each frame the smaller of lossy and lossless.") var mixed = false
    @Option(help: "0-9: speed against size.") var effort: Int?
    @Flag(help: "JPEG: progressive.") var progressive = false
    @Flag(help: "PNG: Adam7; GIF: interlaced.") var interlace = false
    @Option(help: "Times an animation plays; 0 = forever.") var loop: Int?
    @Flag(help: "GIF: no dithering.") var noDither = false
    @Flag(help: "WebP: keep the colour under transparent pixels.") var exact = false
    @Option(help: "JPEG: luma sampling factors HxV.") var sample: String?
    @Flag(help: "JPEG: one grey component.") var grayscale = false
    @Flag(help: "JPEG: optimized Huffman tables.") var optimize = false
    @Option(help: "JPEG: restart interval, N MCU rows or NB MCUs.") var restart: String?
    @Option(help: "WebP: alpha quality 0-100.") var alphaQuality: Double?
    @Option(help: "WebP lossy: spatial noise shaping 0-100 (cwebp -sns; default 0).") var sns: Double?
    @Option(help: "Shrink so that the longer side is at most N pixels.") var maxPixelSize: Int?
    @Option(help: "Largest file wanted, in bytes.") var maxFileSize: Int?
    @Flag(help: "Only the first frame.") var firstFrame = false
    @Option(help: "Threads for one image (1: one core; default: the processors online, at most 4).") var threads: Int?

    /// The formats by name and extension.
    static let formats: [String: ImageFormat] = [
        "png": .png, "apng": .png, "gif": .gif, "jpeg": .jpeg, "jpg": .jpeg, "webp": .webp,
    ]

    /// The format asked for, from --format or from `output`'s extension.
    func resolvedFormat(output: String?) throws -> ImageFormat {
        if let format {
            guard let known = Self.formats[format.lowercased()] else {
                throw ValidationError("--format must be png, apng, gif, jpeg or webp")
            }
            return known
        }
        let ext = output.flatMap { $0.split(separator: ".").count > 1 ? $0.split(separator: ".").last : nil }
        guard let ext, let known = Self.formats[ext.lowercased()] else {
            throw ValidationError("cannot tell the format from the output's extension; use --format")
        }
        return known
    }

    /// The options for the library; usage errors for values out of range.
    func encodingOptions() throws -> EncodingOptions {
        var o = EncodingOptions()
        if let quality {
            guard (0...100).contains(quality) else { throw ValidationError("--quality must be within 0-100") }
            o.quality = quality / 100
        }
        if let alphaQuality {
            guard (0...100).contains(alphaQuality) else { throw ValidationError("--alpha-quality must be within 0-100") }
            o.alphaQuality = alphaQuality / 100
        }
        if let sns {
            guard (0...100).contains(sns) else { throw ValidationError("--sns must be within 0-100") }
            o.noiseShaping = sns / 100
        }
        if let effort {
            guard (0...9).contains(effort) else { throw ValidationError("--effort must be within 0-9") }
            o.effort = effort
        }
        if let loop {
            guard (0...65535).contains(loop) else { throw ValidationError("--loop must be within 0-65535") }
            o.loopCount = loop
        }
        if let maxPixelSize {
            guard maxPixelSize > 0 else { throw ValidationError("--max-pixel-size must be positive") }
            o.maxPixelSize = maxPixelSize
        }
        if let maxFileSize {
            guard maxFileSize > 0 else { throw ValidationError("--max-file-size must be positive") }
            o.maxFileSize = maxFileSize
        }
        if let threads {
            guard threads >= 1 else { throw ValidationError("--threads must be at least 1") }
            o.maxThreads = threads
        }
        if let sample { o.chromaSubsampling = try Self.samplingFactors(sample) }
        if let restart { o.restartInterval = try Self.restartInterval(restart) }
        o.lossless = lossless
        o.mixed = mixed
        o.progressive = progressive
        o.interlace = interlace
        o.dithering = !noDither
        o.exact = exact
        o.grayscale = grayscale
        o.optimizeCoding = optimize
        o.firstFrameOnly = firstFrame
        return o
    }

    /// "HxV" (cjpeg's first component, e.g. "2x2" or "2x2,1x1,1x1").
    static func samplingFactors(_ text: String) throws -> SamplingFactors {
        let first = text.split(separator: ",").first ?? ""
        let parts = first.lowercased().split(separator: "x")
        guard parts.count == 2, let h = Int(parts[0]), let v = Int(parts[1]), (1...4).contains(h), (1...4).contains(v) else {
            throw ValidationError("--sample must be HxV with factors 1-4")
        }
        return SamplingFactors(horizontal: h, vertical: v)
    }

    /// "N" MCU rows or "NB" MCUs.
    static func restartInterval(_ text: String) throws -> RestartInterval {
        let blocks = text.uppercased().hasSuffix("B")
        guard let n = Int(blocks ? String(text.dropLast()) : text), (0...65535).contains(n) else {
            throw ValidationError("--restart must be N or NB with N within 0-65535")
        }
        return blocks ? .blocks(n) : .rows(n)
    }
}

/// What `encode` reads: a PNM/PAM file by rows, or any file the library decodes.
enum EncodeInput {
    case pnm(PNMInput)
    case source(ImageSource)

    /// Opens `path`, or leaves with status 1.
    static func open(_ path: String) throws -> EncodeInput {
        do {
            if let pnm = try PNMInput(path: path) { return .pnm(pnm) }
        } catch {
            printError("invalidData", error.message)
            throw CLIExit(status: ExitStatus.invalid)
        }
        var options = DecodingOptions()
        options.prefersSixteenBitOutput = true
        let source = ImageSource(bytes: try readFile(path), options: options)
        guard source.status == .complete else {
            try finish(source)
            printError("truncated", "the input ends before the image does")
            throw CLIExit(status: ExitStatus.invalid)
        }
        return .source(source)
    }

    /// Adds the input's frames to `destination`.
    func add(to destination: ImageDestination) throws(EncodingError) {
        switch self {
        case .pnm(let pnm): try destination.add(pnm.frame())
        case .source(let source): try destination.add(contentsOf: source)
        }
    }
}

/// Leaves with status 1 for an encoding error.
func fail(_ error: EncodingError) -> Never {
    printError(error.kind.rawValue, error.detail.description)
    exit(ExitStatus.invalid)
}
