import ArgumentParser
import ImageCodecs

/// `imagecodecs feed FILE --chunk N`: feeds the file N bytes at a time, printing
/// "BYTES STATUS FRAMES" after each update, then the frame hashes as `hash` does.
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
        repeat {
            let end = min(bytes.count, offset + chunk)
            source.append(bytes[offset..<end], final: end == bytes.count)
            offset = end
            print("\(offset) \(source.status) \(source.count)")
        } while offset < bytes.count
        try requireRecognised(source)
        printFrameHashes(source)
        try finish(source)
    }
}
