import Foundation

/// Where the benchmark's files come from: the shared corpus, and `.inputs/` made from it by
/// `make-inputs.sh` for the kinds of PNG the corpus lacks.
enum Inputs {
    /// `Benchmarks/`, found from this file's path so that the working directory does not matter.
    static let packageDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent() // PNGBench
        .deletingLastPathComponent() // Sources
        .deletingLastPathComponent() // Benchmarks

    /// `$IMAGECODECS_CORPUS`, else `shared/corpus` beside the project root.
    static var corpusRoot: URL {
        if let path = ProcessInfo.processInfo.environment["IMAGECODECS_CORPUS"], !path.isEmpty {
            return URL(fileURLWithPath: path)
        }
        return packageDirectory.deletingLastPathComponent()
            .appendingPathComponent("../shared/corpus").standardizedFileURL
    }

    static var generatedDirectory: URL { packageDirectory.appendingPathComponent(".inputs") }

    /// PNG photos of the corpus, relative to `photos/`: RGB8 from small to 8 MP, palette, and
    /// the one RGBA8 file (a screenshot). See photos/PROVENANCE.md.
    static let corpusPhotos = [
        "kodak/kodim01.png",
        "kodak/kodim23.png",
        "harvesters/harvesters.png",
        "image-png-benches/Fantasy_Digital_Painting.png",
        "image-png-benches/Exoplanet_Phase_Curve__Diagram_.png",
        "image-png-benches/lorem_ipsum_screenshot.png",
        "image-png-benches/lorem_ipsum_oxipng.png",
        "image-png-benches/paletted-zune.png",
        "image-png-benches/Exoplanet_Phase_Curve__Diagram__indexed_gimp.png",
    ]

    /// The default set: the corpus photos, then everything in `.inputs/` (made first by
    /// `make-inputs.sh` when ImageMagick is there and the folder is missing or stale).
    static func defaultFiles() -> [URL] {
        let photos = corpusRoot.appendingPathComponent("photos")
        var files: [URL] = []
        for relative in corpusPhotos {
            let url = photos.appendingPathComponent(relative)
            if FileManager.default.fileExists(atPath: url.path) {
                files.append(url)
            } else {
                warn("missing corpus file \(url.path), skipped")
            }
        }
        makeGeneratedInputsIfNeeded()
        let generated = (try? FileManager.default.contentsOfDirectory(
            at: generatedDirectory, includingPropertiesForKeys: nil)) ?? []
        files += generated.filter { $0.pathExtension == "png" }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
        return files
    }

    /// Runs `make-inputs.sh` unless `.inputs/` has its completion stamp. The script skips the
    /// files it has already made.
    static func makeGeneratedInputsIfNeeded() {
        let stamp = generatedDirectory.appendingPathComponent(".complete")
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

    static func read(_ url: URL) throws -> [UInt8] {
        let data = try Data(contentsOf: url)
        return [UInt8](data)
    }

    /// A short name for the table: the path under the corpus or `.inputs/`.
    static func displayName(_ url: URL) -> String {
        let path = url.standardizedFileURL.path
        for (root, prefix) in [(corpusRoot.path + "/photos/", ""), (corpusRoot.path + "/", ""),
                               (generatedDirectory.path + "/", ".inputs/")] where path.hasPrefix(root) {
            return prefix + path.dropFirst(root.count)
        }
        return url.lastPathComponent
    }
}

func warn(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
}
