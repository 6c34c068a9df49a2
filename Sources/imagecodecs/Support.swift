import Foundation
import ImageCodecs

/// Exit statuses of DESIGN.md's command-line contract.
enum ExitStatus {
    static let complete: Int32 = 0
    static let invalid: Int32 = 1
    static let truncated: Int32 = 3
}

func printError(_ kind: String, _ detail: String) {
    FileHandle.standardError.write(Data("error: \(kind): \(detail)\n".utf8))
}

/// Reads a whole file, or leaves with status 1.
func readFile(_ path: String) throws -> [UInt8] {
    guard let data = FileManager.default.contents(atPath: path) else {
        printError("io", "cannot read \(path)")
        throw CLIExit(status: ExitStatus.invalid)
    }
    return [UInt8](data)
}

/// Ends for a source that failed or is truncated, after its output: status 1 with the error,
/// status 3 for truncation, nothing for a complete source.
func finish(_ source: ImageSource) throws {
    switch source.status {
    case .complete:
        return
    case .unknownType:
        printError("unknownType", "no coder recognises the data")
        throw CLIExit(status: ExitStatus.invalid)
    case .invalidData:
        fail(source.error)
    default:
        printError("truncated", "the input ends before the image does")
        throw CLIExit(status: ExitStatus.truncated)
    }
}

/// Leaves with the status for `error`.
func fail(_ error: DecodingError?) -> Never {
    guard let error else {
        printError("invalidData", "decoding failed")
        exit(ExitStatus.invalid)
    }
    printError(error.kind.rawValue, error.detail.description)
    exit(error.kind == .truncated ? ExitStatus.truncated : ExitStatus.invalid)
}

/// Leaves with status 1 if the source was refused before anything could be shown.
func requireRecognised(_ source: ImageSource) throws {
    if source.status == .unknownType || (source.status == .invalidData && source.count == 0) {
        try finish(source)
    }
}

/// "INDEX WxH SHA256" for every frame, as `hash` and `feed` print them.
func printFrameHashes(_ source: ImageSource) {
    for index in 0..<source.count {
        do {
            let image = try source.image(at: index)
            print("\(index) \(image.width)x\(image.height) \(CanonicalHash.hex(image))")
        } catch {
            fail(error)
        }
    }
}
