import ArgumentParser
import ImageCodecs

/// `imagecodecs hash FILE`: one line per frame, "INDEX WxH SHA256" (the canonical hash).
struct Hash: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "hash", abstract: "Print the canonical hash of every frame.")

    @Argument(help: "The image file.") var file: String

    func run() throws {
        let source = ImageSource(bytes: try readFile(file))
        try requireRecognised(source)
        printFrameHashes(source)
        try finish(source)
    }
}
