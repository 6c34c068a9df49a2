import ArgumentParser
import ImageCodecs

/// `imagecodecs feed FILE --chunk N`: feeds the file N bytes at a time, printing
/// "BYTES STATUS FRAMES" after each update, then the frame hashes as `hash` does.
///
/// Pixels are decoded as bytes arrive (``DecodingOptions/decodesImmediately``), and each frame
/// is hashed as soon as all its data is there, as a viewer takes frames while they download;
/// so every frame is decoded once. A source that fails for good prints what `hash` prints.
struct Feed: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Decode incrementally, N bytes per update.")

    @Argument(help: "The image file.") var file: String
    @Option(help: "Bytes per update.") var chunk: Int

    func validate() throws {
        guard chunk > 0 else { throw ValidationError("--chunk must be positive") }
    }

    func run() throws {
        let bytes = try readFile(file)
        var options = DecodingOptions()
        options.decodesImmediately = true
        let source = ImageSource(incremental: options)
        var offset = 0
        var hashed: [String] = [], hashing = true
        repeat {
            let end = min(bytes.count, offset + chunk)
            source.append(bytes[offset..<end], final: end == bytes.count)
            offset = end
            print("\(offset) \(source.status) \(source.count)")
            while hashing && hashed.count < source.count && source.status(at: hashed.count) == .complete {
                guard let line = try? frameHashLine(source, hashed.count) else { hashing = false; break }
                hashed.append(line)
            }
        } while offset < bytes.count
        try requireRecognised(source)
        printFrameHashes(source, known: source.status == .invalidData ? [] : hashed)
        try finish(source)
    }
}
