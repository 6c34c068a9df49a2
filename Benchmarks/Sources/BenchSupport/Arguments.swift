import Foundation

/// The command line shared by the benchmarks: `[--iterations N] [FILE...]`, plus options of
/// their own that take a value.
public struct Arguments {
    public private(set) var iterations = 10
    public private(set) var files: [String] = []
    /// The value given to each of `valueOptions` (the last one, when given twice).
    public private(set) var values: [String: String] = [:]

    /// Parses the process's arguments. `--help` prints `usage` and exits with 0; an unknown
    /// option or a missing or bad value prints it to stderr and exits with 2.
    public init(usage: String, valueOptions: Set<String> = []) {
        var arguments = CommandLine.arguments.dropFirst()
        while let argument = arguments.popFirst() {
            switch argument {
            case "--iterations", "-n":
                guard let value = arguments.popFirst().flatMap({ Int($0) }), value > 0 else {
                    warn(usage)
                    exit(2)
                }
                iterations = value
            case _ where valueOptions.contains(argument):
                guard let value = arguments.popFirst() else {
                    warn(usage)
                    exit(2)
                }
                values[argument] = value
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
    }

    /// The files named on the command line, else `inputs`' default set; exits with 1 when
    /// there are none.
    public func urls(else inputs: InputSet) -> [URL] {
        let urls = files.isEmpty ? inputs.defaultFiles() : files.map { URL(fileURLWithPath: $0) }
        guard !urls.isEmpty else {
            warn("error: no input files (corpus at \(Inputs.corpusRoot.path)?)")
            exit(1)
        }
        return urls
    }
}
