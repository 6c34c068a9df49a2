import Foundation

/// Where the benchmarks' files come from: the shared corpus, and `.inputs/` made from corpus
/// photos by `make-inputs.sh` (the kinds of file the corpus lacks).
public enum Inputs {
    /// `Benchmarks/`, found from this file's path so that the working directory does not matter.
    public static let packageDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent() // BenchSupport
        .deletingLastPathComponent() // Sources
        .deletingLastPathComponent() // Benchmarks

    /// `$IMAGECODECS_CORPUS`, else `shared/corpus` beside the project root.
    public static var corpusRoot: URL {
        if let path = ProcessInfo.processInfo.environment["IMAGECODECS_CORPUS"], !path.isEmpty {
            return URL(fileURLWithPath: path)
        }
        return packageDirectory.deletingLastPathComponent()
            .appendingPathComponent("../shared/corpus").standardizedFileURL
    }

    public static var generatedDirectory: URL { packageDirectory.appendingPathComponent(".inputs") }

    /// Runs `make-inputs.sh` unless `.inputs/` has the completion stamp `stamp`. The script
    /// skips the files it has already made.
    public static func makeGeneratedInputsIfNeeded(stamp: String) {
        let stamp = generatedDirectory.appendingPathComponent(stamp)
        if FileManager.default.fileExists(atPath: stamp.path) { return }
        let script = packageDirectory.appendingPathComponent("make-inputs.sh")
        warn("making inputs: bash \(script.path)")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["bash", script.path]
        var environment = ProcessInfo.processInfo.environment
        environment["IMAGECODECS_CORPUS"] = corpusRoot.path
        process.environment = environment
        process.standardOutput = FileHandle.standardError
        do {
            try process.run()
            process.waitUntilExit()
            if process.terminationStatus != 0 {
                warn("make-inputs.sh failed (status \(process.terminationStatus)); using what it made")
            }
        } catch {
            warn("could not run make-inputs.sh: \(error)")
        }
    }

    public static func read(_ url: URL) throws -> [UInt8] {
        let data = try Data(contentsOf: url)
        return [UInt8](data)
    }
}

/// One benchmark's default files and how it names them.
public struct InputSet: Sendable {
    /// The corpus folder that `corpusFiles` are relative to; nil for the corpus root.
    public let corpusFolder: String?
    /// Files of the corpus in the default set, in order.
    public let corpusFiles: [String]
    /// The corpus folder whose files are named by their path under it in the table.
    public let nameFolder: String
    /// The extension of the files of `.inputs/` that belong to the default set.
    public let generatedExtension: String
    /// The file in `.inputs/` whose presence says that `make-inputs.sh` made this set's files.
    public let stamp: String

    public init(corpusFolder: String?, corpusFiles: [String], nameFolder: String, generatedExtension: String,
                stamp: String) {
        self.corpusFolder = corpusFolder
        self.corpusFiles = corpusFiles
        self.nameFolder = nameFolder
        self.generatedExtension = generatedExtension
        self.stamp = stamp
    }

    /// The default set: the corpus files, then the files of `.inputs/` with the set's extension
    /// (made first by `make-inputs.sh` when ImageMagick is there and the stamp is missing).
    public func defaultFiles() -> [URL] {
        let root = Inputs.corpusRoot
        let base = corpusFolder.map { root.appendingPathComponent($0) } ?? root
        var files: [URL] = []
        for relative in corpusFiles {
            let url = base.appendingPathComponent(relative)
            if FileManager.default.fileExists(atPath: url.path) {
                files.append(url)
            } else {
                warn("missing corpus file \(url.path), skipped")
            }
        }
        Inputs.makeGeneratedInputsIfNeeded(stamp: stamp)
        let generated = (try? FileManager.default.contentsOfDirectory(
            at: Inputs.generatedDirectory, includingPropertiesForKeys: nil)) ?? []
        files += generated.filter { $0.pathExtension == generatedExtension }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
        return files
    }

    /// A short name for the table: the path under the corpus's `nameFolder`, the corpus, or
    /// `.inputs/`.
    public func displayName(_ url: URL) -> String {
        let path = url.standardizedFileURL.path
        let corpus = Inputs.corpusRoot.path
        for (root, prefix) in [(corpus + "/" + nameFolder + "/", ""), (corpus + "/", ""),
                               (Inputs.generatedDirectory.path + "/", ".inputs/")] where path.hasPrefix(root) {
            return prefix + path.dropFirst(root.count)
        }
        return url.lastPathComponent
    }
}

public func warn(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
}
