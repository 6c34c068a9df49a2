import Foundation

/// Where the benchmark's files come from: the shared corpus, and `.inputs/` made from corpus
/// photos by `make-inputs.sh` (GIFs of photos, the kind the corpus has least of).
enum Inputs {
    /// `Benchmarks/`, found from this file's path so that the working directory does not matter.
    static let packageDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent() // GIFBench
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

    /// GIFs of the corpus, relative to its root: the largest stills and the real-world
    /// animations. See gif/PROVENANCE.md and gif/FEATURES.tsv.
    static let corpusFiles = [
        // Stills, largest first.
        "photos/harvesters/harvesters.gif",              // 1165x859
        "gif/pillow/test.colors.gif",                    // 807x606, 87a
        "gif/giflib/pic/solid2.gif",                     // 640x400, 87a
        "gif/giflib/tests/wedge.gif",                    // 640x350, 87a
        "gif/image-gif/samples/interlaced.gif",          // 540x330, interlaced
        "gif/wuffs/hibiscus.regular.gif",                // 312x442
        "gif/wuffs/hibiscus.primitive.gif",              // 312x442, few colours
        "gif/giflib/pic/porsche.gif",                    // 320x200, 87a
        "gif/wuffs/bricks-dither.gif",                   // 160x120
        "gif/wuffs/hippopotamus.regular.gif",            // 36x28
        // Animations.
        "gif/image-gif/samples/gifplayer-muybridge.gif", // 472x298, 380 frames
        "gif/image-gif/samples/sample_big.gif",          // 1000x175, 259 frames, local palettes only
        "gif/image-rs/images/anim/large-gif-anim-combine.gif",            // 1000x1000, 2 frames
        "gif/image-rs/images/anim/large-gif-anim-full-frame-replace.gif", // 1000x1000, 2 frames
        "gif/pillow/iss634.gif",                         // 245x245, 42 frames, local palettes only
        "gif/pillow/chi.gif",                            // 320x240, 31 frames
        "gif/image-gif/samples/moon_impact.gif",         // 116x100, 14 frames, local palettes
        "gif/libnsgif/waves.gif",                        // 268x86, 10 frames
        "gif/giflib/pic/welcome2.gif",                   // 290x48, 6 frames
        "gif/giflib/pic/fire.gif",                       // 30x60, 33 interlaced frames
        "gif/wuffs/muybridge.gif",                       // 30x20, 15 frames
    ]

    /// The default set: the corpus files, then the GIFs in `.inputs/` (made first by
    /// `make-inputs.sh` when ImageMagick is there and the folder lacks them).
    static func defaultFiles() -> [URL] {
        var files: [URL] = []
        for relative in corpusFiles {
            let url = corpusRoot.appendingPathComponent(relative)
            if FileManager.default.fileExists(atPath: url.path) {
                files.append(url)
            } else {
                warn("missing corpus file \(url.path), skipped")
            }
        }
        makeGeneratedInputsIfNeeded()
        let generated = (try? FileManager.default.contentsOfDirectory(
            at: generatedDirectory, includingPropertiesForKeys: nil)) ?? []
        files += generated.filter { $0.pathExtension == "gif" }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
        return files
    }

    /// Runs `make-inputs.sh` unless `.inputs/` has the GIF completion stamp (`.complete-gif`:
    /// a folder made before the script made GIFs has only `.complete`). The script skips the
    /// files it has already made.
    static func makeGeneratedInputsIfNeeded() {
        let stamp = generatedDirectory.appendingPathComponent(".complete-gif")
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

    /// A short name for the table: the path under the corpus's `gif/`, the corpus, or `.inputs/`.
    static func displayName(_ url: URL) -> String {
        let path = url.standardizedFileURL.path
        for (root, prefix) in [(corpusRoot.path + "/gif/", ""), (corpusRoot.path + "/", ""),
                               (generatedDirectory.path + "/", ".inputs/")] where path.hasPrefix(root) {
            return prefix + path.dropFirst(root.count)
        }
        return url.lastPathComponent
    }
}

func warn(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
}
