import ArgumentParser
import ImageCodecs

/// `imagecodecs bench-encode IN --format F [flags] [--iterations N]`: decodes IN once, then
/// encodes it in process N times; the best counts. The last line is the megapixels per second
/// (input pixels of every frame).
struct BenchEncode: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "bench-encode", abstract: "Time in-process encoding.")

    @Argument(help: "The input: an image file or PNM/PAM.") var input: String
    @Option(help: "Encodes to time; the best counts.") var iterations = 5
    @OptionGroup var flags: EncodeFlags

    func validate() throws {
        guard iterations > 0 else { throw ValidationError("--iterations must be positive") }
        guard flags.format != nil else { throw ValidationError("--format is required") }
        _ = try flags.resolvedFormat(output: nil)
        _ = try flags.encodingOptions()
    }

    func run() throws {
        let format = try flags.resolvedFormat(output: nil)
        let options = try flags.encodingOptions()
        let frames = Self.frames(of: try EncodeInput.open(input))
        let pixels = frames.reduce(0) { $0 + $1.width * $1.height }
        var best = Double.infinity
        var bytes = 0
        let clock = ContinuousClock()
        for _ in 0..<iterations {
            let start = clock.now
            var sink = DiscardingSink()
            do {
                let destination = try ImageDestination(format: format, options: options)
                for frame in frames { try destination.add(frame) }
                try destination.finalize(to: &sink)
            } catch {
                fail(error)
            }
            let (seconds, attoseconds) = (clock.now - start).components
            best = min(best, Double(seconds) + Double(attoseconds) / 1e18)
            bytes = sink.count
        }
        print("best \(fixed3(best * 1e3)) ms over \(iterations) iterations, \(pixels) pixels, \(bytes) bytes")
        print("\(fixed3(Double(pixels) / 1e6 / best)) megapixels/s")
    }

    /// Every frame of the input in memory, so that only encoding is timed.
    static func frames(of input: EncodeInput) -> [EncodingFrame] {
        do throws(EncodingError) {
            switch input {
            case .pnm(let pnm):
                return [try EncodingFrame(raster: pnm.frame().raster())]
            case .source(let source):
                var frames: [EncodingFrame] = []
                for index in 0..<source.count {
                    let image: DecodedImage
                    do {
                        image = try source.image(at: index)
                    } catch {
                        fail(error)
                    }
                    let seconds = source.properties(at: index)?.unclampedDuration ?? 0
                    frames.append(try EncodingFrame(image: image, duration: .milliseconds(Int64((seconds * 1000).rounded()))))
                }
                return frames
            }
        } catch {
            fail(error)
        }
    }
}
