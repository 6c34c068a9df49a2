import Foundation
import ImageCodecs
import TestSupport

/// What decoding a file gave: the status, "WxH sha256" for each frame up to the first that
/// throws, and the error.
struct GIFResult: Equatable, CustomStringConvertible {
    var status: ImageSourceStatus
    var frames: [String]
    var error: DecodingError?

    var description: String { "\(status) \(frames.count) frame(s) \(error.map { "\($0)" } ?? "")" }
}

/// What the GIF conformance tests share: manifests, fast hashing and frame-by-frame comparison.
enum GIFConformance {
    static func corpusBytes(_ path: String) throws -> [UInt8] {
        guard let root = Corpus.root else { return [] }
        return try Corpus.bytes(root.appendingPathComponent(path))
    }

    static func fixtureBytes(_ path: String) throws -> [UInt8] {
        try Corpus.bytes(Corpus.conformance.appendingPathComponent(path))
    }

    /// Manifest header lines "#   PATH: ...", and the frames giflib gives after a minimal repair
    /// ("#       after ... giflib gives N frame(s): 0 WxH HASH 1 WxH HASH ...").
    static func repairedFrames(_ name: String) -> [String: [String]] {
        guard let text = try? String(contentsOf: Corpus.conformance.appendingPathComponent("manifests/\(name)"),
                                     encoding: .utf8) else { return [:] }
        var out: [String: [String]] = [:]
        var path = ""
        for line in text.split(separator: "\n") where line.hasPrefix("#") {
            let body = line.dropFirst().trimmingCharacters(in: .whitespaces)
            if let colon = body.range(of: ": "), body.hasPrefix("gif/") || body.hasPrefix("fixtures/") {
                path = String(body[..<colon.lowerBound])
            } else if body.hasPrefix("after "), let colon = body.range(of: "frame(s): ") {
                let words = body[colon.upperBound...].split(separator: " ").map(String.init)
                out[path] = stride(from: 0, to: words.count - 2, by: 3).map { "\(words[$0 + 1]) \(words[$0 + 2])" }
            }
        }
        return out
    }

    /// The canonical hash of a GIF frame. GIF canvases hold only alpha 0 (as 0,0,0,0) and 255,
    /// so the canonical bytes are the pixels; `sha256sum` hashes them when it is there, because
    /// the library's SHA-256 is slow in debug builds and the corpus has hundreds of megabytes of frames.
    static func hash(_ image: DecodedImage) -> String {
        let size = "\(image.width)x\(image.height)"
        guard image.pixelFormat == .rgba8, !image.isPremultiplied, let digest = externalSHA256(image.pixels) else {
            return "\(size) \(CanonicalHash.hex(image))"
        }
        return "\(size) \(digest)"
    }

    static let sha256sum = ["/usr/bin/sha256sum", "/bin/sha256sum"].first { FileManager.default.isExecutableFile(atPath: $0) }

    static func externalSHA256(_ bytes: [UInt8]) -> String? {
        guard let tool = sha256sum, bytes.count > 1 << 16 else { return nil }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        guard (try? process.run()) != nil else { return nil }
        let writer = Thread {
            bytes.withUnsafeBytes { input.fileHandleForWriting.write(Data($0)) }
            try? input.fileHandleForWriting.close()
        }
        writer.start()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0, let text = String(data: data, encoding: .utf8) else { return nil }
        return text.split(separator: " ").first.map(String.init)
    }

    /// Hashes of every frame, stopping at the first that throws, and the final status.
    static func decode(_ bytes: [UInt8], options: DecodingOptions = .init()) -> GIFResult {
        let source = ImageSource(bytes: bytes, options: options)
        var frames: [String] = []
        var error: DecodingError?
        for index in 0..<source.count {
            do {
                frames.append(hash(try source.image(at: index)))
            } catch let e {
                error = e
                break
            }
        }
        return GIFResult(status: source.status, frames: frames, error: error ?? source.error)
    }

    /// Whether decoding failed somewhere: an error status, or a frame that could not be had.
    static func failed(_ result: GIFResult, frameCount: Int) -> Bool {
        [.invalidData, .unexpectedEOF, .unknownType].contains(result.status) || result.frames.count < frameCount
    }

    /// Feeds `bytes` to a new source in pieces of `sizes` (cycled), decoding as they arrive
    /// (``DecodingOptions/decodesImmediately``) and, with `asking`, asking for the newest frame
    /// after every piece.
    static func fed(_ bytes: [UInt8], sizes: [Int], asking: Bool) -> ImageSource {
        var options = DecodingOptions()
        options.decodesImmediately = !asking
        let source = ImageSource(incremental: options)
        Decoding.feed(bytes, sizes: sizes, to: source) { source in
            if asking && source.count > 0 { _ = try? source.image(at: source.count - 1) }
        }
        return source
    }

    /// Compares two sources frame by frame (pixels, statuses and errors), one frame in memory at a time.
    static func sameFrames(_ a: ImageSource, _ b: ImageSource) -> Bool {
        guard a.status == b.status, a.count == b.count else { return false }
        for index in 0..<a.count {
            let x = Result { () throws(DecodingError) in try a.image(at: index) }
            let y = Result { () throws(DecodingError) in try b.image(at: index) }
            switch (x, y) {
            case (.success(let p), .success(let q)):
                guard p.width == q.width, p.height == q.height, equal(p.pixels, q.pixels) else { return false }
            case (.failure(let e), .failure(let f)):
                guard e == f else { return false }
            default:
                return false
            }
        }
        return true
    }

    static func equal(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        guard !a.isEmpty else { return true }
        return a.withUnsafeBytes { p in b.withUnsafeBytes { q in memcmp(p.baseAddress!, q.baseAddress!, a.count) == 0 } }
    }
}
