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
    /// The tab-separated columns of every line of `manifests/name` that is not a comment.
    public static func rows(_ name: String) -> [[String]] {
        guard let text = try? String(contentsOf: Corpus.conformance.appendingPathComponent("manifests/\(name)"),
                                     encoding: .utf8) else { return [] }
        return text.split(separator: "\n").filter { !$0.hasPrefix("#") }
            .map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }
    }

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

/// The documented differences from the references (Conformance/manifests/deviations.tsv) and
/// apngdis's frames where it and Pillow disagree (disagreements.tsv).
public enum Deviations {
    /// manifest → path → kind.
    public static let kinds: [String: [String: String]] = {
        var out: [String: [String: String]] = [:]
        for cols in rows("deviations.tsv") where cols.count >= 3 { out[cols[0], default: [:]][cols[1]] = cols[2] }
        return out
    }()

    /// path → frame index → hash, from apngdis.
    public static let apngdisFrames: [String: [Int: String]] = {
        var out: [String: [Int: String]] = [:]
        for cols in rows("disagreements.tsv") where cols.count >= 6 && cols[0] == "apng" && cols[4] == "apngdis" {
            if let index = Int(cols[2]) { out[cols[1], default: [:]][index] = cols[5] }
        }
        return out
    }()

    /// The expected frames of `entry` with apngdis's hashes put in where it disagrees with Pillow.
    public static func apngdisExpectation(_ entry: ManifestEntry) -> [String] {
        var expected = entry.frames
        for (index, hash) in apngdisFrames[entry.path] ?? [:] where expected.indices.contains(index) {
            expected[index] = "\(expected[index].split(separator: " ")[0]) \(hash)"
        }
        return expected
    }

    private static func rows(_ name: String) -> [[String]] { Manifest.rows(name) }
}
