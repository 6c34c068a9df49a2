import BenchSupport
import Foundation

/// GIFBench: our GIF decoder against giflib, in process, same files, same run. Both composite
/// every frame onto the full RGBA8 canvas.
///
///     swift run -c release --package-path Benchmarks GIFBench [--iterations N] [FILE...]
let usage = """
    usage: GIFBench [--iterations N] [FILE...]
    With no FILE: GIFs of the corpus plus the GIFs made by make-inputs.sh.
    """

let arguments = Arguments(usage: usage)
let results = Benchmark(iterations: arguments.iterations).run(files: arguments.urls(else: inputs))
Report.print(results, iterations: arguments.iterations)
Swift.print()
Throughput.run(results, oneCore: .oursOneCore, rounds: arguments.iterations)
