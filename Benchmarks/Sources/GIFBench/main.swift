import Foundation

/// GIFBench: our GIF decoder against giflib, in process, same files, same run. Both composite
/// every frame onto the full RGBA8 canvas.
///
///     swift run -c release --package-path Benchmarks GIFBench [--iterations N] [FILE...]
let usage = """
    usage: GIFBench [--iterations N] [FILE...]
    With no FILE: GIFs of the corpus plus the GIFs made by make-inputs.sh.
    """

var iterations = 10
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

let urls = files.isEmpty ? Inputs.defaultFiles() : files.map { URL(fileURLWithPath: $0) }
guard !urls.isEmpty else {
    warn("error: no input files (corpus at \(Inputs.corpusRoot.path)?)")
    exit(1)
}
let results = Benchmark(iterations: iterations).run(files: urls)
Report.print(results, iterations: iterations)
