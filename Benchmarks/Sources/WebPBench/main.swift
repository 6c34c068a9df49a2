import BenchSupport
import Foundation

/// WebPBench: our WebP decoders (lossless, lossy, lossy with alpha, animations) against libwebp, in process,
/// same files, same run; with `--encode FILE`, our lossless encoder against libwebp's.
///
///     swift run -c release --package-path Benchmarks WebPBench [--iterations N] [FILE...]
///     swift run -c release --package-path Benchmarks WebPBench --encode FILE [--effort N] [--quality Q] [--iterations N]
let usage = """
    usage: WebPBench [--iterations N] [FILE...]
           WebPBench --encode FILE [--effort N] [--quality Q] [--iterations N]
    With no FILE: the corpus' largest lossless and lossy stills and make-inputs.sh's WebPs.
    --encode: lossless encoding of FILE (a still or an animation, any format the library reads)
    against WebPEncodeLosslessRGBA or WebPAnimEncoder; --effort 0-9 (default 5). With --quality Q
    (0-100): lossy encoding of FILE's first frame against WebPEncodeRGBA at the same quality.
    """

let arguments = Arguments(usage: usage, valueOptions: ["--encode", "--effort", "--quality"])
if let file = arguments.values["--encode"] {
    let effort = arguments.values["--effort"].flatMap { Int($0) } ?? 5
    if let quality = arguments.values["--quality"].flatMap({ Double($0) }) {
        exit(LossyEncodeBench.run(file: URL(fileURLWithPath: file), iterations: arguments.iterations, effort: effort,
                                  quality: quality))
    }
    exit(EncodeBench.run(file: URL(fileURLWithPath: file), iterations: arguments.iterations, effort: effort))
}
let results = Benchmark(iterations: arguments.iterations).run(files: arguments.urls(else: inputs))
Report.print(results, iterations: arguments.iterations)
Swift.print()
Throughput.run(results, oneCore: .oursOneCore, rounds: arguments.iterations)
