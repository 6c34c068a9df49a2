import ArgumentParser
import Foundation
import ImageCodecs

/// `imagecodecs bench FILE [--iterations N]`: decodes every frame in process N times and
/// reports the best time; the last line is the megapixels per second.
struct Bench: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Time in-process decoding.")

    @Argument(help: "The image file.") var file: String
    @Option(help: "Decodes to time; the best counts.") var iterations = 10

    func validate() throws {
        guard iterations > 0 else { throw ValidationError("--iterations must be positive") }
    }

    func run() throws {
        let bytes = try readFile(file)
        var best = Double.infinity
        var pixels = 0
        for _ in 0..<iterations {
            let start = DispatchTime.now().uptimeNanoseconds
            let source = ImageSource(bytes: bytes)
            pixels = 0
            for index in 0..<source.count {
                guard let image = try? source.image(at: index) else { fail(source.error) }
                pixels += image.width * image.height
            }
            best = min(best, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
            if source.status != .complete { try finish(source) }
        }
        print(String(format: "best %.3f ms over %d iterations, %d pixels", best * 1e3, iterations, pixels))
        print(String(format: "%.3f megapixels/s", Double(pixels) / 1e6 / best))
    }
}
