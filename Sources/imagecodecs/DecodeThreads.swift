import ArgumentParser
import ImageCodecs

/// `--threads N` of `hash` and `bench`: the most threads one image's decode uses
/// (`DecodingOptions.maxThreads`); the pixels are the same for every N.
struct DecodeThreads: ParsableArguments {
    @Option(help: "Threads for one image (1: one core; default: the processors online, at most 8).") var threads: Int?

    func validate() throws {
        if let threads, threads < 1 { throw ValidationError("--threads must be at least 1") }
    }

    /// The decoding options: the default ones, with `maxThreads` when given.
    var options: DecodingOptions {
        var options = DecodingOptions()
        if let threads { options.maxThreads = threads }
        return options
    }
}
