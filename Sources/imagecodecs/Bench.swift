import ArgumentParser
import ImageCodecs

/// `imagecodecs bench FILE [--iterations N] [--threads N]`: decodes every frame in process N
/// times and reports the best time; the last line is the megapixels per second. `--threads 1`
/// measures one core.
struct Bench: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "bench", abstract: "Time in-process decoding.")

    @Argument(help: "The image file.") var file: String
    @Option(help: "Decodes to time; the best counts.") var iterations = 10
    @OptionGroup var threads: DecodeThreads

    func validate() throws {
        guard iterations > 0 else { throw ValidationError("--iterations must be positive") }
    }

    func run() throws {
        let bytes = try readFile(file)
        let options = threads.options
        var best = Double.infinity
        var pixels = 0
        let clock = ContinuousClock()
        for _ in 0..<iterations {
            let start = clock.now
            let source = ImageSource(bytes: bytes, options: options)
            pixels = 0
            for index in 0..<source.count {
                guard let image = try? source.image(at: index) else { fail(source.error) }
                pixels += image.width * image.height
            }
            let (seconds, attoseconds) = (clock.now - start).components
            best = min(best, Double(seconds) + Double(attoseconds) / 1e18)
            if source.status != .complete { try finish(source) }
        }
        print("best \(fixed3(best * 1e3)) ms over \(iterations) iterations, \(pixels) pixels")
        print("\(fixed3(Double(pixels) / 1e6 / best)) megapixels/s")
    }
}

/// `value` with three decimals, rounded (printf's `%.3f` for the values printed here).
func fixed3(_ value: Double) -> String {
    let thousandths = Int((value * 1000).rounded())
    let fraction = String(abs(thousandths) % 1000)
    return "\(thousandths < 0 ? "-" : "")\(abs(thousandths) / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
}
