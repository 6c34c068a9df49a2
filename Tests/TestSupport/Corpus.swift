import Foundation
import ImageCodecs

/// Where the shared conformance corpus and the project's own Conformance folder are.
public enum Corpus {
    /// The project root (three levels above this file: Tests/TestSupport/Corpus.swift).
    public static let projectRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// `$IMAGECODECS_CORPUS`, or `../shared/corpus` beside the project root; nil when absent.
    public static let root: URL? = {
        let env = ProcessInfo.processInfo.environment["IMAGECODECS_CORPUS"]
        let url = env.map { URL(fileURLWithPath: $0) }
            ?? projectRoot.deletingLastPathComponent().appendingPathComponent("shared/corpus")
        return FileManager.default.fileExists(atPath: url.path) ? url : nil
    }()

    /// The project's Conformance folder (always present).
    public static let conformance = projectRoot.appendingPathComponent("Conformance")

    public static func bytes(_ url: URL) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: url))
    }

    /// Every file below `folder` whose name ends with `suffix`, sorted.
    public static func files(in folder: URL, suffix: String) -> [URL] {
        guard let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil) else { return [] }
        return walker.compactMap { $0 as? URL }.filter { !$0.hasDirectoryPath && $0.lastPathComponent.hasSuffix(suffix) }
            .sorted { $0.path < $1.path }
    }
}

/// One file's expected result in a manifest (Conformance/manifests/*.tsv).
public struct ManifestEntry: Sendable {
    public let path: String
    /// "WxH sha256" per frame; empty when the reference refuses the file.
    public let frames: [String]
    public var isError: Bool { frames.isEmpty }
}

public enum Manifest {
    /// Reads `path<TAB>frame<TAB>size<TAB>sha256` rows, grouped by file in order.
    public static func load(_ name: String) throws -> [ManifestEntry] {
        let text = try String(contentsOf: Corpus.conformance.appendingPathComponent("manifests/\(name)"), encoding: .utf8)
        var order: [String] = []
        var frames: [String: [String]] = [:]
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            let cols = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard cols.count >= 4, cols[0] != "path" else { continue }
            if frames[cols[0]] == nil { order.append(cols[0]); frames[cols[0]] = [] }
            if cols[3] != "error" { frames[cols[0]]?.append("\(cols[2]) \(cols[3])") }
        }
        return order.map { ManifestEntry(path: $0, frames: frames[$0] ?? []) }
    }
}
