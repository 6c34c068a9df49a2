import BenchSupport
import Foundation

/// EncodeBench: our PNG encoder against libspng's and libpng's at the same zlib level, and a
/// plain zlib deflate of the raw bytes, in process, same files, same run.
///
///     swift run -c release --package-path Benchmarks EncodeBench [--iterations N] [--effort E] [--level L] [FILE...]
///     swift run -c release --package-path Benchmarks EncodeBench --memory FILE
let usage = """
    usage: EncodeBench [--iterations N] [--effort E] [--level L] [FILE...]
           EncodeBench --memory FILE [--effort E]
    With no FILE: PNGBench's files. Ours at effort E (default 5), the references at zlib level L
    (default 6). At effort 5 ours takes level 6, or level 3 for a large image where level 6 saves
    under 2 % (photos): run with --level 3 and --level 6 to compare at both.
    """

let arguments = Arguments(usage: usage, valueOptions: ["--memory", "--effort", "--level"])
let effort = arguments.values["--effort"].flatMap { Int($0) } ?? 5
let level = arguments.values["--level"].flatMap { Int32($0) } ?? 6
guard (0...9).contains(effort), (0...9).contains(level) else {
    warn(usage)
    exit(2)
}
if let memoryFile = arguments.values["--memory"] {
    exit(EncodeMemoryProbe.run(file: URL(fileURLWithPath: memoryFile), effort: effort))
}
let benchmark = Benchmark(iterations: arguments.iterations, effort: effort, level: level)
let results = benchmark.run(files: arguments.urls(else: inputs))
Report.print(results, iterations: arguments.iterations, effort: effort, level: benchmark.level)
