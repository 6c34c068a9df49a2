import ArgumentParser
import ImageCodecs

/// `imagecodecs feed FILE --chunk N`: feeds the file N bytes at a time, printing
/// "BYTES STATUS FRAMES" after each update, then the frame hashes as `hash` does.
///
/// The file is read a piece at a time, as a download arrives, so the only copy of its bytes is
/// the source's. Pixels are decoded as bytes arrive (``DecodingOptions/decodesImmediately``), and each frame
/// is hashed as soon as all its data is there, as a viewer takes frames while they download;
/// so every frame is decoded once. A source that fails for good prints what `hash` prints.
/// Frames withdrawn while the file arrives (an APNG that falls back to its static image once a
/// later chunk breaks the animation, ``ImageProperties/showsStaticFallback``) are forgotten and
/// the frames the file ends with are hashed, so the output always ends with `hash`'s.
struct Feed: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "feed", abstract: "Decode incrementally, N bytes per update.")

    @Argument(help: "The image file.") var file: String
    @Option(help: "Bytes per update.") var chunk: Int

    func validate() throws {
        guard chunk > 0 else { throw ValidationError("--chunk must be positive") }
    }

    func run() throws {
        let pieces = try FilePieces(file)
        var options = DecodingOptions()
        options.decodesImmediately = true
        let source = ImageSource(incremental: options)
        var hashed: [String] = [], hashing = true
        var ended = false, fellBack = false
        repeat {
            let piece = pieces.next(chunk)
            ended = piece.isEmpty || pieces.offset == pieces.size
            source.append(piece, final: ended)
            print("\(pieces.offset) \(source.status) \(source.count)")
            if !fellBack && source.properties?.showsStaticFallback == true {
                fellBack = true
                hashed = []
            }
            while hashing && hashed.count < source.count && source.status(at: hashed.count) == .complete {
                guard let line = try? frameHashLine(source, hashed.count) else { hashing = false; break }
                hashed.append(line)
            }
        } while !ended
        try requireRecognised(source)
        printFrameHashes(source, known: source.status == .invalidData ? [] : hashed)
        try finish(source)
    }
}
