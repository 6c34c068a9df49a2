import BenchSupport
import Foundation

/// WebPBench: our WebP decoders (lossless, lossy, lossy with alpha, animations) against libwebp, in process,
/// same files, same run.
///
///     swift run -c release --package-path Benchmarks WebPBench [--iterations N] [FILE...]
let usage = """
    usage: WebPBench [--iterations N] [FILE...]
    With no FILE: the corpus' largest lossless and lossy stills and make-inputs.sh's WebPs.
    """

let arguments = Arguments(usage: usage)
let results = Benchmark(iterations: arguments.iterations).run(files: arguments.urls(else: inputs))
Report.print(results, iterations: arguments.iterations)
