import ImageCodecs

/// What decoding a file produced, in the form manifests hold.
public struct DecodeResult: Equatable, Sendable, CustomStringConvertible {
    public var status: ImageSourceStatus
    /// "WxH sha256" per frame, for every frame that decoded.
    public var frames: [String]
    public var error: DecodingError?

    public var description: String { "\(status) \(frames.map { String($0.suffix(12)) }) \(error.map { "\($0)" } ?? "")" }
}

public enum Decoding {
    /// Canonical hashes of every frame of a source that has all its input.
    public static func hashes(_ source: ImageSource) -> DecodeResult {
        var frames: [String] = []
        for index in 0..<source.count {
            guard let image = try? source.image(at: index) else { break }
            frames.append("\(image.width)x\(image.height) \(CanonicalHash.hex(image))")
        }
        return DecodeResult(status: source.status, frames: frames, error: source.error)
    }

    /// Decodes `bytes` whole.
    public static func whole(_ bytes: [UInt8], options: DecodingOptions = .init()) -> DecodeResult {
        hashes(ImageSource(bytes: bytes, options: options))
    }

    /// Decodes `bytes` fed in the given chunk sizes (cycled), asking for the last frame's image
    /// after every append so that pixel decoding resumes at every split, and records the
    /// statuses seen along the way.
    public static func chunked(_ bytes: [UInt8], sizes: [Int], options: DecodingOptions = .init())
        -> (result: DecodeResult, statuses: [ImageSourceStatus]) {
        let source = ImageSource(incremental: options)
        var statuses: [ImageSourceStatus] = []
        feed(bytes, sizes: sizes, to: source) { source in
            if source.count > 0 { _ = try? source.image(at: source.count - 1) }
            statuses.append(source.status)
        }
        if bytes.isEmpty { source.append([], final: true) }
        return (hashes(source), statuses)
    }

    /// Appends `bytes` to `source` in the given chunk sizes (cycled), the last one final,
    /// calling `afterEach` after every append.
    public static func feed(_ bytes: [UInt8], sizes: [Int], to source: ImageSource,
                            afterEach: (ImageSource) -> Void = { _ in }) {
        var offset = 0, i = 0
        while offset < bytes.count {
            let end = min(bytes.count, offset + max(1, sizes[i % sizes.count]))
            source.append(bytes[offset..<end], final: end == bytes.count)
            offset = end
            i += 1
            afterEach(source)
        }
    }

    /// A thumbnail of `bytes` fed in the given chunk sizes (cycled), asked for after every
    /// append so that each request resumes the last; the one of the complete input.
    public static func thumbnailFedInPieces(_ bytes: [UInt8], sizes: [Int], maxPixelSize: Int,
                                            options: DecodingOptions = .init()) throws(DecodingError) -> DecodedImage {
        let source = ImageSource(incremental: options)
        feed(bytes, sizes: sizes, to: source) { _ = try? $0.thumbnail(at: 0, maxPixelSize: maxPixelSize) }
        return try source.thumbnail(at: 0, maxPixelSize: maxPixelSize)
    }

    /// Default options with `maxThreads` and `decodesImmediately` set (the thread tests).
    public static func options(threads: Int, eager: Bool = false) -> DecodingOptions {
        var options = DecodingOptions()
        options.maxThreads = threads
        options.decodesImmediately = eager
        return options
    }

    /// Random chunk sizes from a seeded generator (reproducible splits).
    public static func randomSizes(count: Int, max: Int, seed: UInt64) -> [Int] {
        var state = seed | 1
        return (0..<count).map { _ in
            state ^= state << 13; state ^= state >> 7; state ^= state << 17
            return Int(state % UInt64(max)) + 1
        }
    }
}

/// Hostile inputs must end in a status, never a trap.
public enum Robustness {
    /// Decodes every file of `crashers/folder` (corpus) whole, each frame (composed and raw), a thumbnail and fed
    /// in chunks with small limits; returns how many files it read.
    public static func exerciseCrashers(_ folder: String) throws -> Int {
        guard let root = Corpus.root?.appendingPathComponent("crashers/\(folder)") else { return 0 }
        let files = Corpus.files(in: root, suffix: "").filter { !$0.lastPathComponent.hasSuffix(".md") && !$0.lastPathComponent.hasSuffix(".tsv") }
        var options = DecodingOptions()
        options.limits.maxPixels = 1 << 24
        var eager = options
        eager.decodesImmediately = true
        for url in files {
            let bytes = try Corpus.bytes(url)
            let source = ImageSource(bytes: bytes, options: options)
            for index in 0..<min(source.count, 20) {
                _ = try? source.image(at: index)
                _ = try? source.rawFrame(at: index)
            }
            _ = try? ImageSource(bytes: bytes, options: options).thumbnail(at: 0, maxPixelSize: 16)
            _ = Decoding.chunked(bytes, sizes: [7, 4096], options: options)
            _ = Decoding.chunked(bytes, sizes: [4096], options: eager)
        }
        return files.count
    }
}
