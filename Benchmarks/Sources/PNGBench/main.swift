import BenchSupport
import Foundation

/// PNGBench: our PNG decoder against libspng and libpng, in process, same files, same run.
///
///     swift run -c release --package-path Benchmarks PNGBench [--iterations N] [FILE...]
///     swift run -c release --package-path Benchmarks PNGBench --memory FILE
let usage = """
    usage: PNGBench [--iterations N] [FILE...]
           PNGBench --memory FILE
    With no FILE: the corpus photos plus the inputs made by make-inputs.sh.
    """

let arguments = Arguments(usage: usage, valueOptions: ["--memory"])
if let memoryFile = arguments.values["--memory"] {
    exit(MemoryProbe.run(file: URL(fileURLWithPath: memoryFile), inputs: inputs, format: "PNG",
                        facts: { PNGInfo($0).map { ($0.width, $0.height, $0.category) } }, decode: { try decodeOurs($0) }))
}
let results = Benchmark(iterations: arguments.iterations).run(files: arguments.urls(else: inputs))
Report.print(results, iterations: arguments.iterations)
Swift.print()
Throughput.run(results, oneCore: .oursOneCore, rounds: arguments.iterations)
