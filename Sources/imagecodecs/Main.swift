import ArgumentParser
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The entry point: parses the command line and maps usage errors to exit status 2
/// (DESIGN.md's contract) instead of ArgumentParser's default 64.
@main
struct Main {
    static func main() {
        do {
            var command = try ImageCodecsCommand.parseAsRoot()
            try command.run()
        } catch let failure as CLIExit {
            exit(failure.status)
        } catch {
            let code = ImageCodecsCommand.exitCode(for: error)
            if code == .success {
                print(ImageCodecsCommand.fullMessage(for: error))
                exit(0)
            }
            writeStandardError(ImageCodecsCommand.fullMessage(for: error) + "\n")
            exit(2)
        }
    }
}

struct ImageCodecsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "imagecodecs",
        abstract: "Decode PNG, APNG, GIF, JPEG and WebP images, and encode PNG and APNG, with the pure-Swift ImageCodecs library.",
        subcommands: [Info.self, Decode.self, Hash.self, Feed.self, Bench.self, Play.self, Encode.self, BenchEncode.self, Transcode.self]
    )

    /// No subcommand is a usage error (status 2), not a request for help.
    func run() throws {
        throw ValidationError("a subcommand is required")
    }
}

/// Leaves the tool with a given status after its output has been written.
struct CLIExit: Error {
    let status: Int32
}
