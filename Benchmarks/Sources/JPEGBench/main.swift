import BenchSupport
import Foundation

/// JPEGBench: our JPEG decoder against libjpeg-turbo, in process, same files, same run: a
/// one-core table, a default-threads table, and the throughput of four decodes at once.
///
///     swift run -c release --package-path Benchmarks JPEGBench [--iterations N] [FILE...]
///     swift run -c release --package-path Benchmarks JPEGBench --memory FILE
///     swift run -c release --package-path Benchmarks JPEGBench --encode IMAGE [--only SETTING] [--iterations N]
///     swift run -c release --package-path Benchmarks JPEGBench --transcode FILE.jpg [--only SETTING] [--iterations N]
///     swift run -c release --package-path Benchmarks JPEGBench --srgb FILE.jpg [--iterations N]
let usage = """
    usage: JPEGBench [--iterations N] [FILE...]
           JPEGBench --memory FILE
           JPEGBench --encode IMAGE [--only SETTING] [--iterations N]   (encode rows, e.g. --only "baseline 4:2:0")
           JPEGBench --transcode FILE.jpg [--only SETTING] [--iterations N]   (transcode rows: progressive, optimize, default)
           JPEGBench --srgb FILE.jpg [--iterations N]   (decode with and without the conversion to sRGB)
    With no FILE: the corpus flower and harvesters JPEGs plus the JPEGs made by make-inputs.sh.
    """

let arguments = Arguments(usage: usage, valueOptions: ["--memory", "--encode", "--transcode", "--only", "--srgb"])
if let encodeFile = arguments.values["--encode"] {
    exit(EncodeBench.run(file: URL(fileURLWithPath: encodeFile), iterations: arguments.iterations, only: arguments.values["--only"]))
}
if let transcodeFile = arguments.values["--transcode"] {
    exit(TranscodeBench.run(file: URL(fileURLWithPath: transcodeFile), iterations: arguments.iterations, only: arguments.values["--only"]))
}
if let colorFile = arguments.values["--srgb"] {
    exit(ColorBench.run(file: URL(fileURLWithPath: colorFile), iterations: arguments.iterations))
}
if let memoryFile = arguments.values["--memory"] {
    exit(MemoryProbe.run(file: URL(fileURLWithPath: memoryFile), inputs: inputs, format: "JPEG",
                        facts: { JPEGInfo($0).map { ($0.width, $0.height, $0.category) } }, decode: { try decodeOurs($0) }))
}
let results = Benchmark(iterations: arguments.iterations).run(files: arguments.urls(else: inputs))
Report.print(results, iterations: arguments.iterations)
Swift.print()
Throughput.run(results, oneCore: .oursOneCore, rounds: arguments.iterations)
