import ArgumentParser
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ImageCodecs
import JPEGCodec

/// `imagecodecs transcode IN.jpg -o OUT.jpg [--optimize] [--progressive] [--copy none|comments|all]
/// [--rotate 90|180|270] [--flip h|v] [--transpose] [--transverse] [--trim] [--upright]`:
/// lossless, byte for byte as `jpegtran` with the same switches.
struct Transcode: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "transcode", abstract: "Transform a JPEG losslessly, as jpegtran does.")

    @Argument(help: "The JPEG file.") var file: String
    @Option(name: .short, help: "Output JPEG file.") var output: String
    @Flag(help: "Optimized Huffman tables.") var optimize = false
    @Flag(help: "Progressive output (libjpeg's default scan script).") var progressive = false
    @Option(help: "Extra markers to copy: none, comments (the default) or all.") var copy = "comments"
    @Option(help: "Rotate clockwise by 90, 180 or 270 degrees.") var rotate: Int?
    @Option(help: "Mirror: h (left-right) or v (top-bottom).") var flip: String?
    @Flag(help: "Transpose across the upper-left to lower-right axis.") var transpose = false
    @Flag(help: "Transpose across the upper-right to lower-left axis.") var transverse = false
    @Flag(help: "Drop the edge blocks the transform cannot move.") var trim = false
    @Flag(help: "Apply the EXIF orientation and write orientation 1.") var upright = false

    /// The transform the switches ask for; at most one may be given.
    private func transform() throws -> JPEGLosslessTransform {
        var chosen: [JPEGLosslessTransform] = []
        switch rotate {
        case nil: break
        case 90: chosen.append(.rotate90)
        case 180: chosen.append(.rotate180)
        case 270: chosen.append(.rotate270)
        default: throw ValidationError("--rotate takes 90, 180 or 270")
        }
        switch flip {
        case nil: break
        case "h", "horizontal": chosen.append(.flipHorizontal)
        case "v", "vertical": chosen.append(.flipVertical)
        default: throw ValidationError("--flip takes h or v")
        }
        if transpose { chosen.append(.transpose) }
        if transverse { chosen.append(.transverse) }
        guard chosen.count <= 1, chosen.isEmpty || !upright else {
            throw ValidationError("give at most one of --rotate, --flip, --transpose, --transverse, --upright")
        }
        return chosen.first ?? .none
    }

    private func markerCopy() throws -> JPEGMarkerCopy {
        switch copy {
        case "none": return .none
        case "comments": return .comments
        case "all": return .all
        default: throw ValidationError("--copy takes none, comments or all")
        }
    }

    func validate() throws {
        _ = try transform()
        _ = try markerCopy()
    }

    func run() throws {
        var options = JPEGTranscodeOptions()
        options.transform = try transform()
        options.copy = try markerCopy()
        options.trim = trim
        options.upright = upright
        options.optimize = optimize
        options.progressive = progressive
        let input = try readFile(file)
        let bytes: [UInt8]
        do {
            bytes = try JPEGTranscoder.transcode(input, options: options)
        } catch {
            printError(error.kind.rawValue, error.detail.description)
            throw CLIExit(status: ExitStatus.invalid)
        }
        guard let out = fopen(output, "wb") else {
            printError("io", "cannot write \(output)")
            throw CLIExit(status: ExitStatus.invalid)
        }
        let written = fwrite(bytes, 1, bytes.count, out) == bytes.count
        guard fclose(out) == 0, written else {
            printError("io", "cannot write \(output)")
            throw CLIExit(status: ExitStatus.invalid)
        }
    }
}
