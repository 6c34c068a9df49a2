import ArgumentParser
import ImageCodecs

/// `imagecodecs hash FILE [--threads N]`: one line per frame, "INDEX WxH SHA256" (the canonical
/// hash), the same for every thread count.
struct Hash: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "hash", abstract: "Print the canonical hash of every frame.")

    @Argument(help: "The image file.") var file: String
    @OptionGroup var threads: DecodeThreads

    func run() throws {
        let source = ImageSource(bytes: try readFile(file), options: threads.options)
        try requireRecognised(source)
        printFrameHashes(source)
        try finish(source)
    }
}
