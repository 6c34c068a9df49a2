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

var iterations = 10
var memoryFile: String?
var files: [String] = []
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--iterations", "-n":
        guard let value = arguments.popFirst().flatMap({ Int($0) }), value > 0 else {
            warn(usage)
            exit(2)
        }
        iterations = value
    case "--memory":
        guard let value = arguments.popFirst() else {
            warn(usage)
            exit(2)
        }
        memoryFile = value
    case "--help", "-h":
        print(usage)
        exit(0)
    default:
        if argument.hasPrefix("-") {
            warn(usage)
            exit(2)
        }
        files.append(argument)
    }
}

if let memoryFile {
    exit(MemoryProbe.run(file: URL(fileURLWithPath: memoryFile)))
}
let urls = files.isEmpty ? Inputs.defaultFiles() : files.map { URL(fileURLWithPath: $0) }
guard !urls.isEmpty else {
    warn("error: no input files (corpus at \(Inputs.corpusRoot.path)?)")
    exit(1)
}
let results = Benchmark(iterations: iterations).run(files: urls)
Report.print(results, iterations: iterations)
